import { SUCCESS_MESSAGES, type MessageResponse } from '@tradehost/contracts';
import { fieldError } from '../../lib/errors.ts';
import type { ServiceDeps } from '../deps.ts';
import { userRepository } from '../user/user.repository.ts';
import { clicksRepository } from './clicks.repository.ts';

export type ClicksService = ReturnType<typeof createClicksService>;

const USER_AGENT_MAX = 512;

export function createClicksService({ db, now }: Pick<ServiceDeps, 'db' | 'now'>) {
  return {
    /** One visit through a partner link; the code is matched case-insensitively. */
    async record(
      code: string,
      visitor: { ip: string | undefined; userAgent: string | undefined },
    ): Promise<MessageResponse> {
      const partnerId = await userRepository.findIdByReferralCode(db, code);
      if (partnerId === undefined) throw fieldError(422, 'referral_code', 'PARTNER_CODE_INVALID');
      await clicksRepository.insert(db, {
        partnerId,
        createdAt: now(),
        ip: visitor.ip ?? null,
        userAgent: visitor.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      });
      return { message: SUCCESS_MESSAGES.CLICK_RECORDED, code: 'CLICK_RECORDED' };
    },
  };
}
