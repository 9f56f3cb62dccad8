import { describe, expect, it } from 'vitest';
import { csvCell, csvFile } from './csv.ts';

describe('csvCell', () => {
  it('puts a single quote before a text a spreadsheet would run as a formula', () => {
    for (const text of ['=HYPERLINK("http://x")', '+1 555', '-2+3', '@SUM(A1)', '\tx', '\rx', '-'])
      expect(csvCell(text).replace(/^"/, ''), JSON.stringify(text)).toMatch(/^'/);
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
  });

  it('keeps numbers numbers, negative ones too, and every other text as it is', () => {
    expect([-12.5, '-12.50', '-3', 0, '1.10000', 'EURUSD', 'a=b', ''].map(csvCell)).toEqual([
      '-12.5',
      '-12.50',
      '-3',
      '0',
      '1.10000',
      'EURUSD',
      'a=b',
      '',
    ]);
    expect([null, undefined].map(csvCell)).toEqual(['', '']);
  });

  it('quotes a comma, a quote and a line break', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('a\nb')).toBe('"a\nb"');
  });
});

describe('csvFile', () => {
  it('writes the header and the rows through csvCell, CRLF after each, a BOM when asked', () => {
    expect(csvFile(['a', '=b'], [[1, '@x']])).toBe("a,'=b\r\n1,'@x\r\n");
    expect(csvFile(['a'], [], { bom: true })).toBe('\uFEFFa\r\n');
  });
});
