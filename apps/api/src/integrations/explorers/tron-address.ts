import { createHash } from 'node:crypto';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest();

function base58(bytes: Buffer): string {
  let value = BigInt(`0x${bytes.toString('hex') || '0'}`);
  let text = '';
  while (value > 0n) {
    text = ALPHABET[Number(value % 58n)]! + text;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

/**
 * A TRON address as wallets write it (base58check of 0x41 and the 20-byte account), from the hex
 * form an event's result gives (`0x` and 40 hex digits, or `41` and 40). Anything else (already
 * base58) is given back as it is.
 */
export function tronAddress(value: string): string {
  const hex = /^(?:0x|41)?([0-9a-fA-F]{40})$/.exec(value)?.[1];
  if (!hex) return value;
  const payload = Buffer.concat([Buffer.from([0x41]), Buffer.from(hex, 'hex')]);
  const checksum = sha256(sha256(payload)).subarray(0, 4);
  return base58(Buffer.concat([payload, checksum]));
}
