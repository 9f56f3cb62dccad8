/**
 * The file storage port: where uploaded files (avatars now, ticket attachments later) live.
 *
 * Keys are relative, slash-separated names the product makes itself (`avatars/<random>.webp`):
 * lower-level segments of letters, digits, '-', '_' and one '.' for the extension, never '..'
 * (isStorageKey). A driver refuses any other key, so no key can reach outside its area.
 *
 * Semantics every driver keeps:
 * - `put` stores the whole file under the key, replacing what was there; when it returns the
 *   file can be read from any instance of the product.
 * - `get` returns the file's bytes, or null when there is no such file.
 * - `delete` removes the file; deleting a missing file is not an error (a retry, a race).
 */
export interface Storage {
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
}

const KEY = /^(?:[A-Za-z0-9_-]+\/)*[A-Za-z0-9_-]+(?:\.[A-Za-z0-9]+)?$/;
const KEY_MAX = 512;

/** Whether `key` is a key the drivers take (see the port's rules). */
export function isStorageKey(key: string): boolean {
  return key.length <= KEY_MAX && KEY.test(key);
}

/** Throws for a key no driver may take: a bug in the caller, never a user's input. */
export function assertStorageKey(key: string): void {
  if (!isStorageKey(key)) throw new Error(`not a storage key: ${JSON.stringify(key)}`);
}
