import type { Language } from '@tradehost/contracts';
import {
  balanceCreditedMail,
  type BalanceCredit,
  type TopUpMethod,
} from '../../integrations/mail/balance-templates.ts';
import { notify, type Recipient } from '../../integrations/mail/notify.ts';
import type { ServiceDeps } from '../deps.ts';
import { userRepository } from '../../db/users.ts';
import { balanceRepository } from './balance.repository.ts';

/** Money paid in from outside (not the user's own partner-balance move, nor an adjustment). */
const isTopUp = (method: string): method is TopUpMethod =>
  method === 'card' || method === 'ewallet' || method === 'crypto';

/**
 * Who hears of a credit where: the operator's decisions by mail too (as a withdrawal paid or
 * cancelled is), the credits of the busy money path (a gateway's top-up the user is watching
 * happen, a transfer) in the chat only, so no mail server stands in that path.
 */
type Channels = 'mail-and-chat' | 'chat';

/** A transfer as its recipient is told of it: the sender, the amount, the balance after it. */
export interface ReceivedTransfer {
  to: Recipient & { name: string };
  /**
   * Whether the recipient linked an account chat, as the transfer's own statement read it:
   * most users link none, and then nothing is rendered nor looked up after the commit, while
   * the transfer's answer waits.
   */
  accountChat: boolean;
  amountCents: number;
  balanceAfterCents: number;
  from: { name: string; email: string };
}

type Told =
  { to: Recipient & { name: string }; credit: BalanceCredit; channels: Channels } | undefined;

export type CreditNotices = ReturnType<typeof createCreditNotices>;

/**
 * "Your balance was credited": money that arrived on a user's main balance from elsewhere (a
 * top-up a gateway paid or an operator confirmed, an operator's credit, a transfer from another
 * user) is told in the user's account chat in Telegram, through the path of `notify()`'s copies
 * (the `telegram-notice` queue), and the operator's decisions by mail too (`Channels`). Called
 * once the credit has committed; it never throws, so a failure cannot undo the credit nor turn
 * its answer into an error. The user's own partner-balance move is not told.
 */
export function createCreditNotices(deps: Pick<ServiceDeps, 'db' | 'config' | 'mailer' | 'log'>) {
  const { db, config, mailer, log } = deps;
  const link = `${config.publicUrl}/balance-operations`;

  async function tell(what: string, find: () => Promise<Told>): Promise<void> {
    try {
      const found = await find();
      if (!found) return;
      const { to, credit, channels } = found;
      const render = (language: Language) =>
        balanceCreditedMail(language, { name: to.name, link, credit });
      if (channels === 'chat') await mailer.copyToChat?.(to.id, render(to.language));
      else await notify(mailer, log, to, render);
    } catch (error) {
      log.error({ err: error, credit: what }, 'a balance credit notice could not be sent');
    }
  }

  return {
    /** A paid top-up: a gateway's (in the chat), or a crypto payment an operator confirmed. */
    paymentPaid: (paymentId: number) =>
      tell(`payment ${paymentId}`, async () => {
        const row = await balanceRepository.paidCredit(db, paymentId);
        if (!row || !isTopUp(row.payment.method)) return undefined;
        const { method, network } = row.payment;
        return {
          to: row.user,
          credit: {
            amountCents: row.amountCents,
            balanceAfterCents: row.balanceAfterCents ?? 0,
            source: { kind: 'payment', paymentId, method, network },
          },
          channels: method === 'crypto' ? 'mail-and-chat' : 'chat',
        };
      }),

    /** The recipient of a transfer (in the chat), from what the transfer's request had. */
    transferReceived: ({
      to,
      accountChat,
      amountCents,
      balanceAfterCents,
      from,
    }: ReceivedTransfer) =>
      tell(`transfer to user ${to.id}`, async () =>
        accountChat
          ? {
              to,
              credit: {
                amountCents,
                balanceAfterCents,
                source: { kind: 'transfer', fromName: from.name, fromEmail: from.email },
              },
              channels: 'chat',
            }
          : undefined,
      ),

    /** An operator's credit to the user's main balance, with its reason. */
    adjusted: (
      userId: number,
      adjustment: { amountCents: number; balanceAfterCents: number; reason: string },
    ) =>
      tell(`adjustment of user ${userId}`, async () => {
        const user = await userRepository.findById(db, userId);
        if (!user) return undefined;
        const { amountCents, balanceAfterCents, reason } = adjustment;
        return {
          to: user,
          credit: { amountCents, balanceAfterCents, source: { kind: 'adjustment', reason } },
          channels: 'mail-and-chat',
        };
      }),
  };
}
