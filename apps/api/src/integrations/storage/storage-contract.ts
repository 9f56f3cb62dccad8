/**
 * The storage port's semantics as one set of tests, run by every driver's test file (a test
 * helper: nothing else imports it), so each driver is held to the same assertions.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isStorageKey, type Storage } from './port.ts';

export interface StorageContractOptions {
  /** The driver under test (made in the test file's beforeAll: called inside each test). */
  storage(): Storage;
  /**
   * Every key the backing store holds in the driver's area, read around the driver (the files
   * on disk, the objects in the bucket), so a test sees what was really written or left behind.
   */
  storedKeys(): Promise<string[]>;
  /** A driver's own checks after a file was replaced (its key: `avatars/a1.webp`). */
  afterReplace?(): void | Promise<void>;
  /** A driver's own checks after that file was deleted. */
  afterDelete?(): void | Promise<void>;
  /** A driver's own checks after every refused key (nothing written anywhere). */
  afterRefusals?(): void | Promise<void>;
}

/** Keys that could leave a driver's area or are not the product's own. */
export const REFUSED_KEYS = [
  '../jwt-secret',
  'avatars/../../x',
  '/etc/passwd',
  'a//b',
  'a/b/',
  '',
  'a b',
  'a\\b',
];

const sorted = async (keys: Promise<string[]>) => [...(await keys)].sort();

/** Defines `describe(name)` with the port's semantics against `options.storage()`. */
export function describeStorageContract(name: string, options: StorageContractOptions): void {
  const { storedKeys } = options;

  describe(name, () => {
    it('puts, gets, replaces and deletes a file under its key', async () => {
      const storage = options.storage();
      await storage.put('avatars/a1.webp', Buffer.from('first'), 'image/webp');
      expect((await storage.get('avatars/a1.webp'))?.toString()).toBe('first');
      await storage.put('avatars/a1.webp', Buffer.from('second'), 'image/webp');
      expect((await storage.get('avatars/a1.webp'))?.toString()).toBe('second');
      // one file under its key, nothing else (no temporary copy) left behind
      expect(await sorted(storedKeys())).toEqual(['avatars/a1.webp']);
      await options.afterReplace?.();
      await storage.delete('avatars/a1.webp');
      expect(await storage.get('avatars/a1.webp')).toBeNull();
      expect(await sorted(storedKeys())).toEqual([]);
      await options.afterDelete?.();
    });

    it('keeps the bytes exactly, a file of no bytes too', async () => {
      const storage = options.storage();
      const every = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      const large = Buffer.concat([every, randomBytes(512 * 1024)]);
      await storage.put('attachments/t1/large.pdf', large, 'application/pdf');
      await storage.put('attachments/t1/empty.png', Buffer.alloc(0), 'image/png');
      const got = await storage.get('attachments/t1/large.pdf');
      expect(Buffer.isBuffer(got)).toBe(true);
      expect(got!.equals(large)).toBe(true);
      const empty = await storage.get('attachments/t1/empty.png');
      expect(Buffer.isBuffer(empty)).toBe(true);
      expect(empty!.length).toBe(0);
      await storage.delete('attachments/t1/large.pdf');
      await storage.delete('attachments/t1/empty.png');
      expect(await sorted(storedKeys())).toEqual([]);
    });

    it('keeps files under different keys apart', async () => {
      const storage = options.storage();
      await storage.put('a/x.png', Buffer.from('a-x'), 'image/png');
      await storage.put('a/y.png', Buffer.from('a-y'), 'image/png');
      await storage.put('b/x.png', Buffer.from('b-x'), 'image/png');
      await storage.put('a/x', Buffer.from('a-x-bare'), 'application/octet-stream');
      expect(await sorted(storedKeys())).toEqual(['a/x', 'a/x.png', 'a/y.png', 'b/x.png']);
      await storage.delete('a/x.png');
      expect(await storage.get('a/x.png')).toBeNull();
      expect((await storage.get('a/y.png'))?.toString()).toBe('a-y');
      expect((await storage.get('b/x.png'))?.toString()).toBe('b-x');
      expect((await storage.get('a/x'))?.toString()).toBe('a-x-bare');
      for (const key of ['a/y.png', 'b/x.png', 'a/x']) await storage.delete(key);
      expect(await sorted(storedKeys())).toEqual([]);
    });

    it('answers null for a missing file and takes the deletion of one', async () => {
      const storage = options.storage();
      expect(await storage.get('avatars/none.webp')).toBeNull();
      await expect(storage.delete('avatars/none.webp')).resolves.toBeUndefined();
      expect(await sorted(storedKeys())).toEqual([]);
    });

    it('refuses keys that could leave its area or are not the product’s own', async () => {
      const storage = options.storage();
      for (const key of REFUSED_KEYS) {
        expect(isStorageKey(key), key).toBe(false);
        await expect(storage.put(key, Buffer.from('x'), 'text/plain'), key).rejects.toThrow(
          /not a storage key/,
        );
        await expect(storage.get(key), key).rejects.toThrow(/not a storage key/);
        await expect(storage.delete(key), key).rejects.toThrow(/not a storage key/);
      }
      expect(await sorted(storedKeys())).toEqual([]);
      await options.afterRefusals?.();
    });
  });
}
