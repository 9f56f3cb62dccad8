import { describe, expect, it } from 'vitest';
import { cleanFileName, contentDisposition } from './support.attachments.ts';

describe('cleanFileName', () => {
  it.each([
    ['screen.png', 'image/png', 'screen.png'],
    ['../../etc/passwd.png', 'image/png', 'passwd.png'],
    ['C:\\Users\\me\\Desktop\\shot.PNG', 'image/png', 'shot.PNG'],
    ['photo.jpeg', 'image/jpeg', 'photo.jpeg'],
    ['photo.png', 'image/jpeg', 'photo.png.jpg'],
    ['page.html', 'image/png', 'page.html.png'],
    ['invoice', 'application/pdf', 'invoice.pdf'],
    ['evil\u202Egnp.exe', 'image/gif', 'evilgnp.exe.gif'],
    ['a\u0000b\u0007c.png', 'image/png', 'abc.png'],
    ['line%0D%0Abreak.png', 'image/png', 'line break.png'],
    ['say %22hi%22.png', 'image/png', 'say "hi".png'],
    ['  .hidden.png  ', 'image/png', 'hidden.png'],
    ['...', 'image/png', 'file.png'],
    ['', 'application/pdf', 'file.pdf'],
    ['..', 'application/pdf', 'file.pdf'],
  ] as const)('%j as %s is %j', (raw, type, expected) => {
    expect(cleanFileName(raw, type)).toBe(expected);
  });

  it('keeps at most 120 characters (code points), the extension kept', () => {
    const name = cleanFileName(`${'🙂'.repeat(300)}.png`, 'image/png');
    expect([...name].length).toBe(120);
    expect(name.endsWith('🙂.png')).toBe(true);
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the exact name as RFC 5987 filename*', () => {
    expect(contentDisposition('attachment', 'Отчёт "Q1"; 100%.pdf')).toBe(
      `attachment; filename="_____ _Q1__ 100_.pdf"; filename*=UTF-8''%D0%9E%D1%82%D1%87%D1%91%D1%82%20%22Q1%22%3B%20100%25.pdf`,
    );
    expect(contentDisposition('inline', "it's (1).webp")).toBe(
      `inline; filename="it's (1).webp"; filename*=UTF-8''it%27s%20%281%29.webp`,
    );
  });
});
