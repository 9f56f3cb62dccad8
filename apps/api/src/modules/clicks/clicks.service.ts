import { createHmac } from 'node:crypto';
import { SUCCESS_MESSAGES, type MessageResponse } from '@tradehost/contracts';
import { fieldError } from '../../lib/errors.ts';
import type { ServiceDeps } from '../deps.ts';
import { userRepository } from '../../db/users.ts';
import { clicksRepository } from './clicks.repository.ts';

export type ClicksService = ReturnType<typeof createClicksService>;

export function createClicksService({
  db,
  now,
  config,
}: Pick<ServiceDeps, 'db' | 'now' | 'config'>) {
  /** The visitor as the count knows them: a keyed hash of address and browser, never the address. */
  const visitorOf = (visitor: { ip: string | undefined; userAgent: string | undefined }) =>
    createHmac('sha256', config.partner.visitorKey)
      .update(`${visitor.ip ?? ''}\n${visitor.userAgent ?? ''}`)
      .digest('base64url');

  return {
    /**
     * A visit through a partner link; the code is matched case-insensitively. Counted at most
     * once per code, visitor and day (UTC), and not at all when the code's owner is signed in.
     */
    async record(
      code: string,
      visitor: { ip: string | undefined; userAgent: string | undefined; userId: number | null },
    ): Promise<MessageResponse> {
      const partnerId = await userRepository.findIdByReferralCode(db, code);
      if (partnerId === undefined) throw fieldError(422, 'referral_code', 'PARTNER_CODE_INVALID');
      if (partnerId !== visitor.userId) {
        const at = now();
        await clicksRepository.insert(db, {
          partnerId,
          day: at.toISOString().slice(0, 10),
          visitor: visitorOf(visitor),
          createdAt: at,
        });
      }
      return { message: SUCCESS_MESSAGES.CLICK_RECORDED, code: 'CLICK_RECORDED' };
    },
  };
}
