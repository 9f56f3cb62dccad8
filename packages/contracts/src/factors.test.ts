import { describe, expect, it } from 'vitest';
import { passkeyAssertionSchema } from './factors.ts';

/** The base64url text of `bytes` bytes (4 characters for each 3, no padding). */
const b64url = (bytes: number) => 'A'.repeat(Math.ceil((bytes * 4) / 3));

const assertion = (signatureBytes: number) => ({
  id: 'cred',
  rawId: 'cred',
  type: 'public-key',
  response: {
    clientDataJSON: b64url(120),
    authenticatorData: b64url(37),
    signature: b64url(signatureBytes),
  },
});

describe('a passkey’s answer', () => {
  it('takes the signature of each algorithm the registration offers, ML-DSA-44 the longest', () => {
    // ES256 (DER, up to 72 bytes), RS256 (256), ML-DSA-44 (2,420)
    for (const bytes of [72, 256, 2420])
      expect(passkeyAssertionSchema.safeParse(assertion(bytes)).success, `${bytes} bytes`).toBe(
        true,
      );
  });

  it('refuses a signature no offered algorithm makes', () => {
    const parsed = passkeyAssertionSchema.safeParse(assertion(4000));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('PASSKEY_INVALID');
  });
});
