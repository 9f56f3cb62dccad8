import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (the servers' passwords): AES-256-GCM under sha256(secretKey), a random 96-bit
 * IV per secret, written as "v1.<iv>.<tag>.<ciphertext>" in base64url. GCM's tag makes a changed
 * ciphertext, IV or tag, or the wrong key, a refusal rather than garbage. The version prefix lets a
 * later format (or key rotation) live beside this one.
 */

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const B64URL = /^[A-Za-z0-9_-]*$/;

/** A sealed value that cannot be opened: tampered with, truncated or sealed under another key. */
export class SealedSecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealedSecretError';
  }
}

const keyOf = (secretKey: string): Buffer => {
  if (!secretKey) throw new SealedSecretError('no key to seal or open secrets with');
  return createHash('sha256').update(secretKey, 'utf8').digest();
};

/** Encrypts `plaintext` under `secretKey`; a new random IV each time. */
export function sealSecret(secretKey: string, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secretKey), iv, { authTagLength: TAG_BYTES });
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv, tag, ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** Decrypts what sealSecret made; throws SealedSecretError for anything else. */
export function openSecret(secretKey: string, sealed: string): string {
  const parts = sealed.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION || !parts.slice(1).every((p) => B64URL.test(p)))
    throw new SealedSecretError('not a sealed secret (expected v1.<iv>.<tag>.<ciphertext>)');
  const [, ivText, tagText, bodyText] = parts as [string, string, string, string];
  const iv = Buffer.from(ivText, 'base64url');
  const tag = Buffer.from(tagText, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES)
    throw new SealedSecretError('a sealed secret with a malformed IV or tag');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(secretKey), iv, {
    authTagLength: TAG_BYTES,
  });
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([
      decipher.update(Buffer.from(bodyText, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    throw new SealedSecretError('the sealed secret was altered or sealed under another key');
  }
}
