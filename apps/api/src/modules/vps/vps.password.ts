import { randomInt } from 'node:crypto';

/** Without the look-alikes (I l 1 O 0) so a password read off a screen is typed right. */
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const DIGITS = '23456789';
/** Symbols that need no quoting in a shell, an .rdp file or a URL-encoded form. */
const SYMBOLS = '!#%*+-=?@_';
const ALL = UPPER + LOWER + DIGITS + SYMBOLS;

export const SERVER_PASSWORD_LENGTH = 20;

const pick = (alphabet: string) => alphabet[randomInt(alphabet.length)]!;

/**
 * A random password for a new server's Windows account: 20 characters from a CSPRNG (about 125
 * bits), with at least one of each class, as Windows' complexity policy asks.
 */
export function randomServerPassword(length = SERVER_PASSWORD_LENGTH): string {
  const chars = [pick(UPPER), pick(LOWER), pick(DIGITS), pick(SYMBOLS)];
  while (chars.length < length) chars.push(pick(ALL));
  // Fisher-Yates, so the guaranteed classes are not always in front
  for (let i = chars.length - 1; i > 0; i -= 1) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
