import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { currentUser } from '../../plugins/auth.ts';

/** Unknown recipients a user may name in an hour (typos), before transfers pause for them. */
export const RECIPIENT_MISSES_PER_HOUR = 20;
const WINDOW_MS = 3600_000;

/**
 * A transfer's preview names the recipient, and a transfer to an unknown e-mail answers "E-mail
 * does not exist" (SPEC): both tell whether an e-mail has an account. So each user may name at
 * most RECIPIENT_MISSES_PER_HOUR unknown recipients an hour (counted for all the instances
 * together, in Redis with REDIS_URL); past that, every preview and transfer of theirs answers
 * 429 TOO_MANY_REQUESTS with Retry-After until the hour is over, the known recipients too, so the
 * answers stop telling. (An instance learns of the pause at its own first miss past the limit:
 * behind several instances, one lookup more per instance may still answer.)
 */
export function recipientLookups(app: FastifyInstance) {
  const missesOf = app.rateLimiter({
    max: RECIPIENT_MISSES_PER_HOUR,
    timeWindow: WINDOW_MS,
    keyGenerator: (request) => `transfer-recipient-misses-${currentUser(request).id}`,
  });
  // users paused on this instance, until when (ms)
  const paused = new Map<number, number>();

  const refuse = (reply: FastifyReply, untilMs: number) => {
    reply.header('retry-after', String(Math.max(1, Math.ceil((untilMs - Date.now()) / 1000))));
    return new AppError(429, 'TOO_MANY_REQUESTS');
  };

  return {
    /** Before the lookup: 429 while the user is paused. */
    check(request: FastifyRequest, reply: FastifyReply): void {
      const userId = currentUser(request).id;
      const until = paused.get(userId);
      if (until === undefined) return;
      if (until > Date.now()) throw refuse(reply, until);
      paused.delete(userId);
    },

    /**
     * After a failure: an unknown recipient is counted, and the one past the limit pauses the
     * user (and is answered 429 itself). Gives back what to throw.
     */
    async counted(request: FastifyRequest, reply: FastifyReply, error: unknown): Promise<unknown> {
      if (!(error instanceof AppError) || error.code !== 'RECIPIENT_NOT_FOUND') return error;
      const limit = await missesOf(request);
      if (!limit.isExceeded) return error;
      const until = Date.now() + limit.ttlInSeconds * 1000;
      paused.set(currentUser(request).id, until);
      return refuse(reply, until);
    },
  };
}
