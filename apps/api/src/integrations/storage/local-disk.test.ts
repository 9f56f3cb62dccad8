import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterAll, expect } from 'vitest';
import { createLocalDiskStorage } from './local-disk.ts';
import { describeStorageContract } from './storage-contract.ts';

const root = mkdtempSync(join(tmpdir(), 'th-storage-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const files = join(root, 'files');
const storage = createLocalDiskStorage(files);

/** Every file under the driver's directory, as a key. */
function storedKeys(): Promise<string[]> {
  if (!existsSync(files)) return Promise.resolve([]);
  const found = readdirSync(files, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => relative(files, join(entry.parentPath, entry.name)).split(sep).join('/'));
  return Promise.resolve(found);
}

describeStorageContract('the local-disk storage', {
  storage: () => storage,
  storedKeys,
  afterReplace() {
    // written through a temporary name: nothing but the file is left behind
    expect(readdirSync(join(files, 'avatars'))).toEqual(['a1.webp']);
  },
  afterDelete() {
    expect(existsSync(join(files, 'avatars', 'a1.webp'))).toBe(false);
  },
  afterRefusals() {
    expect(existsSync(join(root, 'jwt-secret'))).toBe(false);
    // nothing written beside the driver's directory
    expect(readdirSync(root).filter((name) => name !== 'files')).toEqual([]);
  },
});
