import {
  SECOND_FACTOR_SIGN_IN_TRIES,
  SECOND_FACTOR_SIGN_IN_TTL_MS,
  type SecondFactorChallenge,
  type SecondFactorSignInRequest,
} from '@tradehost/contracts';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { pendingSignIns, type PendingSignInRow } from '../../db/schema/index.ts';
import { proofOf, secondFactor, secondFactorSettings } from '../../db/second-factor.ts';
import { securityLog, type SecurityContext } from '../../db/security-events.ts';
import { AppError, fieldError } from '../../lib/errors.ts';
import { randomToken, sha256Hex } from '../../lib/secrets.ts';
import type { ServiceDeps } from '../deps.ts';

const pendingExpired = () => new AppError(401, 'SIGN_IN_PENDING_EXPIRED');

const pendingRepository = {
  async insert(db: Executor, values: typeof pendingSignIns.$inferInsert): Promise<void> {
    await db.insert(pendingSignIns).values(values);
  },
  async lock(db: Executor, tokenHash: string): Promise<PendingSignInRow | undefined> {
    const [row] = await db
      .select()
      .from(pendingSignIns)
      .where(eq(pendingSignIns.tokenHash, tokenHash))
      .for('update');
    return row;
  },
  async find(db: Executor, tokenHash: string): Promise<PendingSignInRow | undefined> {
    const [row] = await db
      .select()
      .from(pendingSignIns)
      .where(eq(pendingSignIns.tokenHash, tokenHash));
    return row;
  },
  async countTry(db: Executor, id: number, attempts: number): Promise<void> {
    await db.update(pendingSignIns).set({ attempts }).where(eq(pendingSignIns.id, id));
  },
  async use(db: Executor, id: number, at: Date): Promise<void> {
    await db.update(pendingSignIns).set({ usedAt: at }).where(eq(pendingSignIns.id, id));
  },
};

const isLive = (row: PendingSignInRow | undefined, at: Date): row is PendingSignInRow =>
  row !== undefined &&
  row.usedAt === null &&
  row.expiresAt > at &&
  row.attempts < SECOND_FACTOR_SIGN_IN_TRIES;

export type SecondFactorSignIn = ReturnType<typeof createSecondFactorSignIn>;

/**
 * The second step of a sign-in: after the right password, an account with a second factor gets
 * a half-session (pending_sign_ins: only the sha256 of its token kept, SECOND_FACTOR_SIGN_IN_TTL_MS,
 * SECOND_FACTOR_SIGN_IN_TRIES tries). Its token is no access token and comes with no refresh
 * cookie: it opens nothing but this step.
 */
export function createSecondFactorSignIn({
  db,
  config,
  now,
}: Pick<ServiceDeps, 'db' | 'config' | 'now'>) {
  const settings = secondFactorSettings(config);

  return {
    /** Whether `userId`'s sign-in must give a second factor. */
    isOn: (userId: number) => secondFactor.isOn(db, userId),

    /** Starts the half-session of `userId`, whose password was right. */
    async begin(userId: number, context: SecurityContext): Promise<SecondFactorChallenge> {
      const token = randomToken();
      const at = now();
      const expires = new Date(at.getTime() + SECOND_FACTOR_SIGN_IN_TTL_MS);
      await pendingRepository.insert(db, {
        userId,
        tokenHash: sha256Hex(token),
        userAgent: context.userAgent?.slice(0, 512) || null,
        createdAt: at,
        expiresAt: expires,
      });
      return {
        second_factor: {
          token,
          methods: await secondFactor.methods(db, userId),
          expires: expires.toISOString(),
        },
      };
    },

    /**
     * Checks the second step: the user whose sign-in it completes (the half-session is used up).
     * A wrong proof counts a try (second_factor_failed) and is 422 SECOND_FACTOR_INVALID; the
     * last try, an unknown, used or expired token are 401 SIGN_IN_PENDING_EXPIRED.
     */
    async complete(body: SecondFactorSignInRequest, context: SecurityContext): Promise<number> {
      // the contract asks for exactly one proof
      const [proof, field] = proofOf(body)!;
      const at = now();
      const verdict = await db.transaction(async (tx) => {
        const pending = await pendingRepository.lock(tx, sha256Hex(body.token));
        if (!isLive(pending, at)) return { outcome: 'expired' as const };
        const method = await secondFactor.verify(tx, pending.userId, proof, at, settings, context);
        if (method) {
          await pendingRepository.use(tx, pending.id, at);
          return { outcome: 'proved' as const, userId: pending.userId };
        }
        const attempts = pending.attempts + 1;
        await pendingRepository.countTry(tx, pending.id, attempts);
        await securityLog.record(tx, pending.userId, 'second_factor_failed', at, context, {
          purpose: 'sign_in',
          method: field,
          attempts,
        });
        return {
          outcome:
            attempts >= SECOND_FACTOR_SIGN_IN_TRIES ? ('expired' as const) : ('wrong' as const),
        };
      });
      if (verdict.outcome === 'proved') return verdict.userId;
      if (verdict.outcome === 'wrong') throw fieldError(422, field, 'SECOND_FACTOR_INVALID');
      throw pendingExpired();
    },

    /** Passkey options (a challenge) for the half-session `token`. */
    async passkeyOptions(token: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
      const at = now();
      const pending = await pendingRepository.find(db, sha256Hex(token));
      if (!isLive(pending, at)) throw pendingExpired();
      return secondFactor.passkeyRequestOptions(db, pending.userId, at, settings);
    },
  };
}
