import { afterEach, describe, expect, it, vi } from 'vitest';
import { fileNameOf, saveFile } from './save-file';

describe('fileNameOf', () => {
  it('reads the file name of a Content-Disposition header', () => {
    expect(fileNameOf('attachment; filename="payments-2026-11-21.csv"')).toBe(
      'payments-2026-11-21.csv',
    );
    expect(fileNameOf('attachment; filename=charges.csv')).toBe('charges.csv');
    expect(fileNameOf("attachment; filename*=UTF-8''%D0%B2%D1%8B%D0%B2%D0%BE%D0%B4.csv")).toBe(
      'вывод.csv',
    );
    expect(fileNameOf('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(fileNameOf('attachment')).toBeUndefined();
    expect(fileNameOf(null)).toBeUndefined();
  });
});

describe('saveFile', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('clicks a temporary download link to an object URL, then lets both go', async () => {
    const blob = new Blob(['a,b\n'], { type: 'text/csv' });
    const create = vi.fn(() => 'blob:1');
    const revoke = vi.fn();
    const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
    URL.createObjectURL = create;
    URL.revokeObjectURL = revoke;
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this);
    });
    try {
      saveFile(blob, 'payments-2026-11-21.csv');
      expect(create).toHaveBeenCalledWith(blob);
      expect(clicked).toHaveLength(1);
      expect(clicked[0]?.download).toBe('payments-2026-11-21.csv');
      expect(clicked[0]?.getAttribute('href')).toBe('blob:1');
      expect(clicked[0]?.isConnected).toBe(false);
      await vi.waitFor(() => expect(revoke).toHaveBeenCalledWith('blob:1'));
    } finally {
      URL.createObjectURL = original.create;
      URL.revokeObjectURL = original.revoke;
    }
  });
});
