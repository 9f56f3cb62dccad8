/**
 * How much a configured secret could be guessed: the production settings refuse a secret below
 * `SECRET_BITS_MIN`. A secret's real entropy cannot be read from the secret itself; this is an
 * upper bound from what it shows: its length times the Shannon entropy of its characters'
 * frequencies, and nothing at all for a secret that repeats one short piece ("abcabcabc...",
 * "password1234password1234..."). `openssl rand -base64 48` (64 characters) scores about 350;
 * 32 of one letter scores 0; an English phrase of 32 characters about 120.
 */
export const SECRET_BITS_MIN = 128;

/** The upper bound of `secret`'s entropy in bits, as described above. */
export function estimatedSecretBits(secret: string): number {
  const characters = [...secret];
  if (characters.length === 0 || repeatsAPiece(characters)) return 0;
  const counts = new Map<string, number>();
  for (const character of characters) counts.set(character, (counts.get(character) ?? 0) + 1);
  let perCharacter = 0;
  for (const count of counts.values()) {
    const share = count / characters.length;
    perCharacter -= share * Math.log2(share);
  }
  return perCharacter * characters.length;
}

/** Whether the characters are one piece of at most half their length, repeated (the last copy may be cut). */
function repeatsAPiece(characters: string[]): boolean {
  for (let period = 1; period <= characters.length / 2; period += 1) {
    if (characters.every((character, i) => character === characters[i % period])) return true;
  }
  return false;
}
