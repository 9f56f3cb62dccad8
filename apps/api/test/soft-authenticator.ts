import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A passkey authenticator in software, for the API tests: an ES256 key pair, answers built by
 * hand as a browser and its authenticator would (WebAuthn Level 2: clientDataJSON, the
 * authenticator data, a 'none' attestation in CBOR, an ECDSA signature over
 * authenticatorData || sha256(clientDataJSON)). Nothing of @simplewebauthn makes them, so the
 * server's checks are tested against an independent counterpart.
 */

/** The minimal CBOR (RFC 8949) the attestation needs: maps, integers, byte and text strings. */
type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) {
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(length, 1);
    return b;
  }
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(length, 1);
  return b;
}

export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  return Buffer.concat([
    head(5, value.size),
    ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)]),
  ]);
}

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest();

/** Authenticator data flags: user present, user verified, attested credential data follows. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export interface SoftPasskey {
  /** The credential id, base64url. */
  id: string;
  privateKey: KeyObject;
  /** Its public key as COSE, base64url (what a server stores). */
  publicKey: string;
  counter: number;
}

export interface SoftAuthenticatorOptions {
  rpID: string;
  origin: string;
}

export class SoftAuthenticator {
  readonly rpID: string;
  readonly origin: string;

  constructor({ rpID, origin }: SoftAuthenticatorOptions) {
    this.rpID = rpID;
    this.origin = origin;
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin?: string) {
    return Buffer.from(
      JSON.stringify({ type, challenge, origin: origin ?? this.origin, crossOrigin: false }),
    );
  }

  private authData(flags: number, counter: number, attested?: Buffer, rpID = this.rpID): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([
      sha256(rpID),
      Buffer.from([flags]),
      count,
      ...(attested ? [attested] : []),
    ]);
  }

  /**
   * A new credential's answer to registration options (`challenge` from them): the
   * RegistrationResponseJSON a browser would send, and the key to sign in with later.
   */
  register(
    challenge: string,
    overrides: { origin?: string; rpID?: string } = {},
  ): { response: Record<string, unknown>; passkey: SoftPasskey } {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = cbor(
      new Map<Cbor, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const credentialId = randomBytes(16);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, credentialId, coseKey]);
    const authData = this.authData(UP | UV | AT, 0, attested, overrides.rpID);
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    const id = b64url(credentialId);
    return {
      passkey: { id, privateKey, publicKey: b64url(coseKey), counter: 0 },
      response: {
        id,
        rawId: id,
        type: 'public-key',
        response: {
          clientDataJSON: b64url(this.clientData('webauthn.create', challenge, overrides.origin)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      },
    };
  }

  /** The AuthenticationResponseJSON of `passkey` signing `challenge` (its counter goes up). */
  authenticate(
    passkey: SoftPasskey,
    challenge: string,
    overrides: { origin?: string; counter?: number } = {},
  ): Record<string, unknown> {
    passkey.counter = overrides.counter ?? passkey.counter + 1;
    const clientDataJSON = this.clientData('webauthn.get', challenge, overrides.origin);
    const authenticatorData = this.authData(UP | UV, passkey.counter);
    const signature = sign(
      'sha256',
      Buffer.concat([authenticatorData, sha256(clientDataJSON)]),
      passkey.privateKey,
    );
    return {
      id: passkey.id,
      rawId: passkey.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
