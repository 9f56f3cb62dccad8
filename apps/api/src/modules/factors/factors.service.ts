import {
  RECOVERY_CODES_PER_SET,
  type FactorsResponse,
  type PasskeyAdded,
  type PasskeyAttestation,
  type PasskeyItem,
  type RecoveryCodesResponse,
  type RemoveFactorRequest,
  type TotpEnrolment,
} from '@tradehost/contracts';
import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { generateSecret, generateURI } from 'otplib';
import type { Executor } from '../../db/client.ts';
import type { PasskeyRow } from '../../db/schema/index.ts';
import {
  challengeOf,
  proofOf,
  randomRecoveryCode,
  openTotpSecret,
  recoveryCodeHash,
  sealTotpSecret,
  secondFactor,
  secondFactorSettings,
  storeChallenge,
  takeChallenge,
  totpStepOf,
  WEBAUTHN_CHALLENGE_TTL_MS,
} from '../../db/second-factor.ts';
import { securityLog, type SecurityContext } from '../../db/security-events.ts';
import { stepUp } from '../../db/step-up.ts';
import { userRepository } from '../../db/users.ts';
import { BRAND } from '../../integrations/mail/templates.ts';
import { AppError, fieldError, isUniqueViolation } from '../../lib/errors.ts';
import { verifyPassword } from '../../lib/password.ts';
import { qrDataUrl } from '../../lib/qr.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import type { ServiceDeps } from '../deps.ts';
import { factorsRepository } from './factors.repository.ts';

const toPasskeyItem = (row: PasskeyRow): PasskeyItem => ({
  id: row.id,
  name: row.name,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
});

export type FactorsService = ReturnType<typeof createFactorsService>;

/**
 * The account's second factors (Profile): the authenticator app with its recovery codes, and
 * passkeys. Removing a factor is a step-up action; removing the last one needs the password and
 * a current proof of the factor in the request itself (which then counts as the step-up).
 */
export function createFactorsService({
  db,
  config,
  sessions,
  now,
}: Pick<ServiceDeps, 'db' | 'config' | 'sessions' | 'now'>) {
  const settings = secondFactorSettings(config);

  /** A fresh set of recovery codes for `userId` in place of the old one: the codes to show once. */
  async function newRecoveryCodes(
    tx: Executor,
    userId: number,
    at: Date,
    context: SecurityContext,
  ): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODES_PER_SET }, randomRecoveryCode);
    await factorsRepository.replaceRecoveryCodes(
      tx,
      userId,
      codes.map((code) => recoveryCodeHash(settings, userId, code)),
      at,
    );
    await securityLog.record(tx, userId, 'recovery_codes_created', at, context, {
      count: codes.length,
    });
    return codes;
  }

  /** How many factors (a confirmed authenticator, each passkey) the account has. */
  async function factorCount(tx: Executor, userId: number): Promise<number> {
    const [totp, keys] = await Promise.all([
      factorsRepository.totpOf(tx, userId),
      factorsRepository.passkeysOf(tx, userId),
    ]);
    return (totp?.confirmedAt ? 1 : 0) + keys.length;
  }

  /**
   * May `user` remove one of `count` factors? With others left, a fresh step-up. The last one:
   * the password and a proof of a current factor in `body` (a wrong factor's proof is also
   * second_factor_failed); that proof is then the sign-in's step-up too. A wrong password or
   * proof is a step-up strike (stepUp.attempt), as anywhere a stolen sign-in could guess them:
   * the 5th in a row ends the sign-in.
   */
  async function authorizeRemoval(
    user: AuthUser,
    count: number,
    body: RemoveFactorRequest,
    at: Date,
    context: SecurityContext,
  ): Promise<boolean> {
    if (count > 1) {
      await stepUp.require(db, user, at);
      return false;
    }
    const given = proofOf(body);
    if (body.password === undefined || given === null)
      throw fieldError(
        422,
        body.password === undefined ? 'password' : 'code',
        'SECOND_FACTOR_REQUIRED_TO_REMOVE',
      );
    const row = await userRepository.findById(db, user.id);
    const { sessionId } = user;
    // the strikes are kept per sign-in: a token without one has nowhere to keep them
    if (!row || !sessionId) throw new AppError(401, 'UNAUTHORIZED');
    const [proof, field] = given;
    let refusal = fieldError(422, 'password', 'CURRENT_PASSWORD_WRONG');
    const { verdict, ended } = await stepUp.attempt(
      db,
      { id: user.id, sessionId },
      'password',
      at,
      context,
      async (tx) => {
        if (!(await verifyPassword(row.passwordHash, body.password!))) return 'wrong';
        const method = await secondFactor.verify(tx, user.id, proof, at, settings, context);
        if (!method) {
          await securityLog.record(tx, user.id, 'second_factor_failed', at, context, {
            purpose: 'remove_factor',
          });
          refusal = fieldError(422, field, 'SECOND_FACTOR_INVALID');
          return 'wrong';
        }
        await stepUp.proved(tx, user.id, sessionId, method, at, context);
        return 'right';
      },
    );
    // its access tokens stop at once, on every instance
    if (ended.length > 0) await sessions.revoke(ended);
    if (verdict === 'ended') throw new AppError(401, 'SESSION_EXPIRED');
    if (verdict !== 'right') throw refusal;
    return true;
  }

  async function list(userId: number): Promise<FactorsResponse> {
    const [totp, keys, recovery] = await Promise.all([
      factorsRepository.totpOf(db, userId),
      factorsRepository.passkeysOf(db, userId),
      factorsRepository.recoveryState(db, userId),
    ]);
    return {
      totp: {
        enabled: Boolean(totp?.confirmedAt),
        since: totp?.confirmedAt?.toISOString() ?? null,
      },
      passkeys: keys.map(toPasskeyItem),
      recovery_codes: {
        left: recovery.left,
        created_at: recovery.createdAt?.toISOString() ?? null,
      },
    };
  }

  return {
    list,

    /**
     * A new authenticator secret (replacing an unconfirmed one): the otpauth URI (issuer
     * TradeHost, the e-mail as the account), its QR code and the base32 secret for typing in.
     */
    async startTotp(userId: number): Promise<TotpEnrolment> {
      const user = await userRepository.findById(db, userId);
      if (!user) throw new AppError(401, 'UNAUTHORIZED');
      const secret = generateSecret();
      await db.transaction(async (tx) => {
        const current = await factorsRepository.lockTotp(tx, userId);
        if (current?.confirmedAt) throw new AppError(409, 'TOTP_ALREADY_ON');
        await factorsRepository.putPendingTotp(
          tx,
          userId,
          sealTotpSecret(settings, userId, secret),
          now(),
        );
      });
      const uri = generateURI({ issuer: BRAND, label: user.email, secret });
      return { uri, secret, qr: await qrDataUrl(uri) };
    },

    /**
     * The first code from the app turns the authenticator on and makes ten recovery codes, shown
     * this once. A wrong code changes nothing.
     */
    async confirmTotp(
      userId: number,
      code: string,
      context: SecurityContext,
    ): Promise<RecoveryCodesResponse> {
      const at = now();
      const codes = await db.transaction(async (tx) => {
        await factorsRepository.lockAccount(tx, userId);
        const current = await factorsRepository.lockTotp(tx, userId);
        if (!current) throw new AppError(409, 'TOTP_NOT_STARTED');
        if (current.confirmedAt) throw new AppError(409, 'TOTP_ALREADY_ON');
        const secret = openTotpSecret(settings, userId, current.secret);
        const step = await totpStepOf(secret, code, at, null);
        if (step === null) return null;
        await factorsRepository.confirmTotp(tx, userId, step, at);
        await securityLog.record(tx, userId, 'totp_enabled', at, context);
        return newRecoveryCodes(tx, userId, at, context);
      });
      if (!codes) throw fieldError(422, 'code', 'SECOND_FACTOR_INVALID');
      return { recovery_codes: codes };
    },

    /** Turns the authenticator off (see authorizeRemoval); with it went the last factor, the codes go too. */
    async removeTotp(
      user: AuthUser,
      body: RemoveFactorRequest,
      context: SecurityContext,
    ): Promise<FactorsResponse> {
      const at = now();
      const totp = await factorsRepository.totpOf(db, user.id);
      if (!totp?.confirmedAt) throw new AppError(404, 'TOTP_NOT_ON');
      const last = await authorizeRemoval(user, await factorCount(db, user.id), body, at, context);
      await db.transaction(async (tx) => {
        if (!(await factorsRepository.deleteTotp(tx, user.id))) return;
        if (last || (await factorCount(tx, user.id)) === 0)
          await factorsRepository.deleteRecoveryCodes(tx, user.id);
        await securityLog.record(tx, user.id, 'totp_disabled', at, context);
      });
      return list(user.id);
    },

    /** A new set of ten recovery codes in place of the old (a step-up action). */
    async regenerateRecoveryCodes(
      user: AuthUser,
      context: SecurityContext,
    ): Promise<RecoveryCodesResponse> {
      const at = now();
      if ((await factorCount(db, user.id)) === 0)
        throw new AppError(409, 'RECOVERY_CODES_NEED_FACTOR');
      await stepUp.require(db, user, at);
      const codes = await db.transaction((tx) => newRecoveryCodes(tx, user.id, at, context));
      return { recovery_codes: codes };
    },

    /** Options for navigator.credentials.create(), with a challenge kept 5 minutes. */
    async passkeyRegistrationOptions(
      userId: number,
    ): Promise<PublicKeyCredentialCreationOptionsJSON> {
      const user = await userRepository.findById(db, userId);
      if (!user) throw new AppError(401, 'UNAUTHORIZED');
      const keys = await factorsRepository.passkeysOf(db, userId);
      const options = await generateRegistrationOptions({
        rpName: BRAND,
        rpID: settings.rpID,
        userName: user.email,
        userDisplayName: user.name,
        attestationType: 'none',
        timeout: WEBAUTHN_CHALLENGE_TTL_MS,
        excludeCredentials: keys.map((key) => ({
          id: key.credentialId,
          transports: key.transports,
        })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      });
      await storeChallenge(db, userId, options.challenge, 'register', now());
      return options;
    },

    /**
     * Keeps the passkey the browser made for our challenge, under `name`. When it turns the
     * second factor on and the account has no unused recovery codes, ten are made with it, shown
     * this once (as the authenticator app's confirmation does): a passkey-only account that loses
     * its device can still sign in.
     */
    async registerPasskey(
      userId: number,
      name: string,
      response: PasskeyAttestation,
      context: SecurityContext,
    ): Promise<PasskeyAdded> {
      const at = now();
      const challenge = challengeOf(response);
      if (!challenge || !(await takeChallenge(db, userId, challenge, 'register', at)))
        throw fieldError(422, 'response', 'PASSKEY_INVALID');
      let verified;
      try {
        verified = await verifyRegistrationResponse({
          response: response as RegistrationResponseJSON,
          expectedChallenge: challenge,
          expectedOrigin: settings.origin,
          expectedRPID: settings.rpID,
          requireUserVerification: false,
        });
      } catch {
        verified = undefined;
      }
      if (!verified?.verified) throw fieldError(422, 'response', 'PASSKEY_INVALID');
      const { credential } = verified.registrationInfo;
      try {
        return await db.transaction(async (tx) => {
          await factorsRepository.lockAccount(tx, userId);
          const first =
            (await factorCount(tx, userId)) === 0 &&
            (await factorsRepository.recoveryState(tx, userId)).left === 0;
          const row = await factorsRepository.insertPasskey(tx, {
            userId,
            credentialId: credential.id,
            publicKey: Buffer.from(credential.publicKey).toString('base64url'),
            counter: credential.counter,
            transports: credential.transports ?? response.response.transports ?? [],
            name,
            createdAt: at,
            lastUsedAt: null,
          });
          await securityLog.record(tx, userId, 'passkey_added', at, context, { name });
          if (!first) return toPasskeyItem(row);
          return {
            ...toPasskeyItem(row),
            recovery_codes: await newRecoveryCodes(tx, userId, at, context),
          };
        });
      } catch (error) {
        if (isUniqueViolation(error, 'passkeys_credential_id_key'))
          throw new AppError(409, 'PASSKEY_ALREADY_ADDED');
        throw error;
      }
    },

    async renamePasskey(userId: number, id: number, name: string): Promise<PasskeyItem> {
      const row = await factorsRepository.renamePasskey(db, userId, id, name);
      if (!row) throw new AppError(404, 'PASSKEY_NOT_FOUND');
      return toPasskeyItem(row);
    },

    /** Removes a passkey (see authorizeRemoval); with it went the last factor, the codes go too. */
    async removePasskey(
      user: AuthUser,
      id: number,
      body: RemoveFactorRequest,
      context: SecurityContext,
    ): Promise<FactorsResponse> {
      const at = now();
      const keys = await factorsRepository.passkeysOf(db, user.id);
      if (!keys.some((key) => key.id === id)) throw new AppError(404, 'PASSKEY_NOT_FOUND');
      const last = await authorizeRemoval(user, await factorCount(db, user.id), body, at, context);
      await db.transaction(async (tx) => {
        const removed = await factorsRepository.deletePasskey(tx, user.id, id);
        if (!removed) return;
        if (last || (await factorCount(tx, user.id)) === 0)
          await factorsRepository.deleteRecoveryCodes(tx, user.id);
        await securityLog.record(tx, user.id, 'passkey_removed', at, context, {
          name: removed.name,
        });
      });
      return list(user.id);
    },

    /** A passkey challenge for the proof removing the last factor takes (or any other check). */
    async passkeyRequestOptions(userId: number): Promise<PublicKeyCredentialRequestOptionsJSON> {
      return secondFactor.passkeyRequestOptions(db, userId, now(), settings);
    },
  };
}
