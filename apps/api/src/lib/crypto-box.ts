import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { namedKey, type NamedKey } from './keys.ts';

/**
 * Secrets at rest (the servers' passwords, the monitoring keys): AES-256-GCM, a random 96-bit IV
 * per secret, written as "v2.<kid>.<iv>.<ciphertext>.<tag>" (the four last in base64url). `kid`
 * names the key it was sealed under (lib/keys.ts), so a rotation opens the values of the previous
 * key while the current one seals. The additional data binds a value to its place: version, key
 * id, table, column and row id. GCM's tag makes a changed ciphertext, IV or tag, the wrong key, or
 * a value copied to another row, column or table, a refusal rather than garbage.
 *
 * "v1.<iv>.<tag>.<ciphertext>" is the format before: AES-256-GCM under sha256(the setting), no key
 * id, nothing bound. It still opens (under the legacy keys) until `npm run admin -- reseal`
 * rewrites it as v2.
 */

const V1 = 'v1';
const V2 = 'v2';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const B64URL = /^[A-Za-z0-9_-]*$/;

/** A sealed value that cannot be opened: tampered with, moved, truncated or sealed under another key. */
export class SealedSecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealedSecretError';
  }
}

/** What a column's values are sealed and opened with. */
export interface SealingKeys {
  /** Seals every new value; opens those that name it. */
  current: NamedKey;
  /** During a rotation only: opens the values that name it, never seals. */
  previous: NamedKey | undefined;
  /** Open v1 values (no key id): sha256 of the settings as v1 took them, the current one first. */
  legacy: Buffer[];
}

/**
 * The keys of `label` (lib/keys.ts KEY_LABELS) from the setting `current` and, during a rotation,
 * `previous`; `legacy` are the v1 settings (what v1 took the sha256 of).
 */
export function sealingKeys(
  label: string,
  current: string,
  previous: string | undefined,
  legacy: readonly string[],
): SealingKeys {
  return {
    current: namedKey(current, label),
    previous: previous === undefined ? undefined : namedKey(previous, label),
    legacy: legacy.map((setting) => createHash('sha256').update(setting, 'utf8').digest()),
  };
}

/** Where a sealed value lives: it opens there only. */
export interface SealedPlace {
  table: string;
  column: string;
  /** The row's key. */
  id: number | string;
}

const placeOf = (kid: string, place: SealedPlace): Buffer =>
  Buffer.from(`tradehost-sealed:${V2}:${kid}:${place.table}.${place.column}:${place.id}`, 'utf8');

/** Encrypts `plaintext` for `place` under the current key; a new random IV each time. */
export function seal(keys: SealingKeys, place: SealedPlace, plaintext: string): string {
  const { id, key } = keys.current;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(placeOf(id, place));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [V2, id, ...[iv, ciphertext, tag].map((part) => part.toString('base64url'))].join('.');
}

/** The parts of a sealed value, or why it is none. */
function parse(sealed: string) {
  const parts = sealed.split('.');
  if (!parts.slice(1).every((p) => B64URL.test(p))) return undefined;
  if (parts[0] === V2 && parts.length === 5) {
    const [, kid, iv, body, tag] = parts as [string, string, string, string, string];
    return { version: V2, kid, iv, body, tag } as const;
  }
  if (parts[0] === V1 && parts.length === 4) {
    const [, iv, tag, body] = parts as [string, string, string, string];
    return { version: V1, kid: undefined, iv, body, tag } as const;
  }
  return undefined;
}

function decrypt(key: Buffer, iv: Buffer, tag: Buffer, body: Buffer, aad?: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  if (aad) decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}

/**
 * Decrypts what `seal` made for `place` (or a v1 value); throws SealedSecretError for anything
 * else, saying which: not a sealed value, an unknown key id, or a refusal of the key (altered,
 * moved from another place, or another key of the same id).
 */
export function open(keys: SealingKeys, place: SealedPlace, sealed: string): string {
  const parts = parse(sealed);
  if (!parts)
    throw new SealedSecretError(
      'not a sealed secret (expected v2.<kid>.<iv>.<ciphertext>.<tag> or v1.<iv>.<tag>.<ciphertext>)',
    );
  const iv = Buffer.from(parts.iv, 'base64url');
  const tag = Buffer.from(parts.tag, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES)
    throw new SealedSecretError('a sealed secret with a malformed IV or tag');
  const body = Buffer.from(parts.body, 'base64url');
  if (parts.version === V1) {
    for (const key of keys.legacy) {
      try {
        return decrypt(key, iv, tag, body);
      } catch {
        // the next legacy key
      }
    }
    throw new SealedSecretError('a v1 sealed secret that none of the legacy keys opens');
  }
  const key = [keys.current, keys.previous].find((k) => k?.id === parts.kid);
  if (!key)
    throw new SealedSecretError(
      `sealed under the key ${parts.kid}, neither the current key (${keys.current.id}) nor the previous one`,
    );
  try {
    return decrypt(key.key, iv, tag, body, placeOf(key.id, place));
  } catch {
    throw new SealedSecretError(
      `the sealed secret was altered or belongs to another row than ${place.table}.${place.column} ${place.id}`,
    );
  }
}

/** Whether `sealed` is not (yet) a v2 value of the current key: reseal rewrites it. */
export function isStale(keys: SealingKeys, sealed: string): boolean {
  const parts = parse(sealed);
  return parts?.version !== V2 || parts.kid !== keys.current.id;
}
