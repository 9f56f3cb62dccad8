import { createHmac, randomInt, randomUUID } from 'node:crypto';
import type { StepUpMethod } from '@tradehost/contracts';
import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { and, eq, getTableName, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { verify as verifyTotp } from 'otplib';
import { open, seal, sealingKeys, type SealedPlace, type SealingKeys } from '../lib/crypto-box.ts';
import { KEY_LABELS } from '../lib/keys.ts';
import { hmacHex } from '../lib/secrets.ts';
import type { Executor } from './client.ts';
import { passkeys, recoveryCodes, userTotp, webauthnChallenges } from './schema/index.ts';
import { securityLog, type SecurityContext } from './security-events.ts';
import { stepUp } from './step-up.ts';

/**
 * The second factor's checks, shared by the sign-in's second step (auth module), step-up and
 * the factors module: a TOTP code (RFC 6238: 30 s, 6 digits, one step either side, each step
 * accepted once), a one-time recovery code, or a passkey's answer to a challenge this server made.
 */

/** What a second factor is proved with; a passkey's answer names its challenge in clientDataJSON. */
export type SecondFactorProof =
  { code: string } | { recovery_code: string } | { passkey: AuthenticationResponseJSON };

export type SecondFactorMethod = 'totp' | 'recovery_code' | 'passkey';

/**
 * The proof a request body gives (its first of `code`, `recovery_code`, `passkey`), with the
 * field a wrong one is reported on; null when it gives none.
 */
export function proofOf(body: {
  code?: string | undefined;
  recovery_code?: string | undefined;
  passkey?: unknown;
}): [SecondFactorProof, 'code' | 'recovery_code' | 'passkey'] | null {
  if (body.code !== undefined) return [{ code: body.code }, 'code'];
  if (body.recovery_code !== undefined)
    return [{ recovery_code: body.recovery_code }, 'recovery_code'];
  if (body.passkey !== undefined)
    return [{ passkey: body.passkey as AuthenticationResponseJSON }, 'passkey'];
  return null;
}

/** Where the factors live: built once from the config by secondFactorSettings. */
export interface SecondFactorSettings {
  /** WebAuthn's relying party: PUBLIC_URL's hostname. */
  rpID: string;
  /** The origin the browser signs in on: PUBLIC_URL's origin. */
  origin: string;
  /** Seal and open the TOTP secrets (lib/crypto-box), of the JWT secret and its previous one. */
  totpKeys: SealingKeys;
  /**
   * The HMAC keys of the recovery codes: the JWT secret, which makes them, and during a
   * rotation the previous one, whose codes still work until it goes.
   */
  recoveryKeys: string[];
}

/** The settings of the config's PUBLIC_URL and JWT secrets (JWT_SECRET, JWT_SECRET_PREVIOUS). */
export function secondFactorSettings(config: {
  publicUrl: string;
  jwtSecret: string;
  jwtSecretPrevious?: string | undefined;
}): SecondFactorSettings {
  const url = new URL(config.publicUrl);
  const secrets = [config.jwtSecret, config.jwtSecretPrevious].filter((s) => s !== undefined);
  return {
    rpID: url.hostname,
    origin: url.origin,
    totpKeys: sealingKeys(
      KEY_LABELS.totpSecrets,
      config.jwtSecret,
      config.jwtSecretPrevious,
      // v1 sealed them under an HMAC of the JWT secret
      secrets.map((s) =>
        createHmac('sha256', s).update('tradehost totp secrets').digest('base64url'),
      ),
    ),
    recoveryKeys: secrets,
  };
}

/** Where a user's TOTP secret is sealed: their row of user_totp (db/sealed.ts). */
export const totpPlace = (userId: number | string): SealedPlace => ({
  table: getTableName(userTotp),
  column: userTotp.secret.name,
  id: userId,
});

/** A TOTP secret sealed for `userId`'s row. */
export const sealTotpSecret = (settings: SecondFactorSettings, userId: number, secret: string) =>
  seal(settings.totpKeys, totpPlace(userId), secret);

/** `userId`'s sealed TOTP secret opened; SealedSecretError when it does not open there. */
export const openTotpSecret = (settings: SecondFactorSettings, userId: number, sealed: string) =>
  open(settings.totpKeys, totpPlace(userId), sealed);

export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
/** One step either side of the server's clock (a phone a few seconds off, a code typed late). */
export const TOTP_TOLERANCE_S = TOTP_PERIOD_S;
/** A WebAuthn challenge answers within this, and once. */
export const WEBAUTHN_CHALLENGE_TTL_MS = 5 * 60_000;

/** The TOTP step of a code checked at `at` against `secret` (base32), past `afterStep`; else null. */
export async function totpStepOf(
  secret: string,
  code: string,
  at: Date,
  afterStep: number | null,
): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  try {
    const result = await verifyTotp({
      secret,
      token: code,
      epoch: Math.floor(at.getTime() / 1000),
      period: TOTP_PERIOD_S,
      digits: TOTP_DIGITS,
      epochTolerance: TOTP_TOLERANCE_S,
      ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
    });
    // the TOTP strategy's answer carries the step it matched (HOTP's would not)
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  } catch {
    return null;
  }
}

/** A recovery code as typed (any case, spaces or dashes) to the form it is hashed in. */
export const normalRecoveryCode = (code: string): string =>
  code.toLowerCase().replace(/[\s-]/g, '');

/** Letters and digits without the look-alikes 0/o, 1/l/i. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** Ten characters in two groups of five: `abcde-23456`. */
export function randomRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i += 1) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** A recovery code as it is kept: HMAC under the current JWT secret (`key`: another one). */
export const recoveryCodeHash = (
  settings: SecondFactorSettings,
  userId: number,
  code: string,
  key = settings.recoveryKeys[0]!,
) => hmacHex(key, `recovery-code:${userId}:${normalRecoveryCode(code)}`);

/** The challenge a passkey's answer signed, read from its clientDataJSON; null when unreadable. */
export function challengeOf(response: { response: { clientDataJSON: string } }): string | null {
  try {
    const data = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString());
    return typeof data?.challenge === 'string' ? data.challenge : null;
  } catch {
    return null;
  }
}

/**
 * Takes the challenge `challenge` of `userId` made for `purpose`: deleted whatever its age (a
 * challenge works once), true when it was still within its 5 minutes.
 */
export async function takeChallenge(
  db: Executor,
  userId: number,
  challenge: string,
  purpose: 'register' | 'authenticate',
  at: Date,
): Promise<boolean> {
  const [taken] = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.userId, userId),
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, purpose),
      ),
    )
    .returning({ expiresAt: webauthnChallenges.expiresAt });
  return taken !== undefined && taken.expiresAt > at;
}

/** Stores a challenge for `userId` (and drops the user's expired ones). */
export async function storeChallenge(
  db: Executor,
  userId: number,
  challenge: string,
  purpose: 'register' | 'authenticate',
  at: Date,
): Promise<void> {
  await db
    .delete(webauthnChallenges)
    .where(and(eq(webauthnChallenges.userId, userId), lt(webauthnChallenges.expiresAt, at)));
  await db.insert(webauthnChallenges).values({
    id: randomUUID(),
    userId,
    challenge,
    purpose,
    expiresAt: new Date(at.getTime() + WEBAUTHN_CHALLENGE_TTL_MS),
  });
}

async function verifyCode(
  db: Executor,
  userId: number,
  code: string,
  at: Date,
  settings: SecondFactorSettings,
): Promise<boolean> {
  const [totp] = await db
    .select()
    .from(userTotp)
    .where(and(eq(userTotp.userId, userId), isNotNull(userTotp.confirmedAt)));
  if (!totp) return false;
  const secret = openTotpSecret(settings, userId, totp.secret);
  const step = await totpStepOf(secret, code, at, totp.lastStep);
  if (step === null) return false;
  // the step is taken only if no other request took it (or a later one) meanwhile
  const [taken] = await db
    .update(userTotp)
    .set({ lastStep: step })
    .where(
      and(eq(userTotp.userId, userId), or(isNull(userTotp.lastStep), lt(userTotp.lastStep, step))),
    )
    .returning({ userId: userTotp.userId });
  return taken !== undefined;
}

async function verifyRecoveryCode(
  db: Executor,
  userId: number,
  code: string,
  at: Date,
  settings: SecondFactorSettings,
  context: SecurityContext,
): Promise<boolean> {
  if (code.length > 64) return false;
  const [used] = await db
    .update(recoveryCodes)
    .set({ usedAt: at })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        inArray(
          recoveryCodes.codeHash,
          settings.recoveryKeys.map((key) => recoveryCodeHash(settings, userId, code, key)),
        ),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  if (!used) return false;
  const [left] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  await securityLog.record(db, userId, 'recovery_code_used', at, context, { left: left?.n ?? 0 });
  return true;
}

async function verifyPasskey(
  db: Executor,
  userId: number,
  response: AuthenticationResponseJSON,
  at: Date,
  settings: SecondFactorSettings,
): Promise<boolean> {
  const challenge = challengeOf(response);
  if (!challenge || typeof response.id !== 'string') return false;
  const [passkey] = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.userId, userId), eq(passkeys.credentialId, response.id)));
  // the challenge is spent even when the answer is wrong: one answer per challenge
  if (!(await takeChallenge(db, userId, challenge, 'authenticate', at)) || !passkey) return false;
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: settings.origin,
      expectedRPID: settings.rpID,
      credential: {
        id: passkey.credentialId,
        publicKey: Buffer.from(passkey.publicKey, 'base64url'),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: false,
    });
  } catch {
    return false;
  }
  if (!verified.verified) return false;
  await db
    .update(passkeys)
    .set({ counter: verified.authenticationInfo.newCounter, lastUsedAt: at })
    .where(eq(passkeys.id, passkey.id));
  return true;
}

export const secondFactor = {
  /**
   * Checks a proof of `userId`'s second factor at `at`; the method it proved, or null (nothing
   * changed but what a try uses up: a passkey's challenge). A TOTP code's step and a recovery
   * code are used up by success; a used recovery code is recorded (recovery_code_used) with
   * `context`. Failures are for the caller to record (second_factor_failed, step_up_failed).
   */
  async verify(
    db: Executor,
    userId: number,
    proof: SecondFactorProof,
    at: Date,
    settings: SecondFactorSettings,
    context: SecurityContext = {},
  ): Promise<SecondFactorMethod | null> {
    if ('code' in proof && typeof proof.code === 'string')
      return (await verifyCode(db, userId, proof.code, at, settings)) ? 'totp' : null;
    if ('recovery_code' in proof && typeof proof.recovery_code === 'string')
      return (await verifyRecoveryCode(db, userId, proof.recovery_code, at, settings, context))
        ? 'recovery_code'
        : null;
    if ('passkey' in proof && proof.passkey)
      return (await verifyPasskey(db, userId, proof.passkey, at, settings)) ? 'passkey' : null;
    return null;
  },

  /**
   * Options for navigator.credentials.get() with the user's passkeys, and a challenge (5
   * minutes, single use) the answer must sign.
   */
  async passkeyRequestOptions(
    db: Executor,
    userId: number,
    at: Date,
    settings: SecondFactorSettings,
  ): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const keys = await db
      .select({ id: passkeys.credentialId, transports: passkeys.transports })
      .from(passkeys)
      .where(eq(passkeys.userId, userId));
    const options = await generateAuthenticationOptions({
      rpID: settings.rpID,
      allowCredentials: keys,
      userVerification: 'preferred',
      timeout: WEBAUTHN_CHALLENGE_TTL_MS,
    });
    await storeChallenge(db, userId, options.challenge, 'authenticate', at);
    return options;
  },

  /** The second factors the account has (TOTP, passkeys, recovery codes left); empty when none. */
  async methods(db: Executor, userId: number): Promise<SecondFactorMethod[]> {
    return (await stepUp.methods(db, userId)).filter(
      (method: StepUpMethod): method is SecondFactorMethod => method !== 'password',
    );
  },

  /** Whether the account has a second factor (a confirmed TOTP or a passkey). */
  async isOn(db: Executor, userId: number): Promise<boolean> {
    return (await secondFactor.methods(db, userId)).length > 0;
  },
};
