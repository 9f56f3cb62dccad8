import { addMonths, rentalPrice } from '@tradehost/contracts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { billing } from '../../db/billing.ts';
import { partnerRewards } from '../../db/partner-rewards.ts';
import { insertOperation, type OperationRow } from './vps.operations.ts';
import { vpsRepository, type RateRow, type ServerRow } from './vps.repository.ts';
import { pluralEn, pluralRu } from '../../lib/plural.ts';
import { numero } from '../../lib/numero.ts';

/**
 * Renewal, by hand (the user picks a period) or by auto-renewal (the lifecycle, with the server's
 * renew_months): one charge at the rate's current price less the period's discount (promocodes
 * are for the first month of an order only), paid-until moved forward, the lifecycle's warning
 * marks cleared. A Blocked server becomes Active again and a `reactivate` operation boots it.
 */

export interface Renewed {
  server: ServerRow;
  chargedCents: number;
  balanceCents: number;
  /** The operation that boots a server that was Blocked, else null. */
  operation: OperationRow | null;
}

/** "VPS #12 Trader, London (LD4): 3 months" in both languages. */
export function chargeDescriptions(
  serverId: number,
  rate: { name: string; location: string },
  what: { months: number } | { upgradeTo: string },
): { descriptionEn: string; descriptionRu: string } {
  const head = `${rate.name}, ${rate.location}`;
  if ('upgradeTo' in what) {
    return {
      descriptionEn: `VPS #${serverId} ${head}: upgrade to ${what.upgradeTo}`,
      descriptionRu: `VPS ${numero(serverId)} ${head}: переход на тариф ${what.upgradeTo}`,
    };
  }
  return {
    descriptionEn: `VPS #${serverId} ${head}: ${what.months} ${pluralEn(what.months, 'month', 'months')}`,
    descriptionRu: `VPS ${numero(serverId)} ${head}: ${what.months} ${monthsRu(what.months)}`,
  };
}

const monthsRu = (months: number) => pluralRu(months, 'месяц', 'месяца', 'месяцев');

/** The price of `months` of a rate now, in cents, with the period's discount. */
export async function renewalPriceCents(
  db: Executor,
  rateId: number,
  months: number,
): Promise<{ totalCents: number; rate: RateRow }> {
  const rate = await vpsRepository.rate(db, rateId);
  if (!rate) throw new AppError(404, 'RATE_NOT_FOUND');
  const price = rentalPrice({
    monthlyCents: rate.monthlyPriceCents,
    months,
    periodDiscountPercent: await vpsRepository.periodDiscount(db, months),
  });
  return { totalCents: price.totalCents, rate };
}

/**
 * Renews a server in the caller's transaction. The caller has locked the server row
 * (SELECT ... FOR UPDATE) so two renewals cannot both read the old paid-until.
 */
export async function renewServer(
  tx: Executor,
  input: { server: ServerRow; months: number; actorId: number | null; now: Date },
): Promise<Renewed> {
  const { server, months, now } = input;
  if (server.status === 'revoked') throw new AppError(409, 'SERVER_REVOKED');
  if (server.status === 'provisioning') throw new AppError(409, 'SERVER_NOT_READY');
  if (server.status === 'failed') throw new AppError(409, 'SERVER_NOT_ACTIVE');
  const { totalCents, rate } = await renewalPriceCents(tx, server.rateId, months);
  const charged = await billing.charge(tx, {
    userId: server.userId,
    amountCents: totalCents,
    actorId: input.actorId !== server.userId ? input.actorId : null,
    ...chargeDescriptions(server.id, rate, { months }),
  });
  // a renewal is final once paid: its partner rewards
  await partnerRewards.grant(tx, charged.chargeId, now);
  // a lapsed server's new period starts now: the days it was blocked are not paid for
  const from = server.paidUntil.getTime() > now.getTime() ? server.paidUntil : now;
  const wasBlocked = server.status === 'blocked';
  const operation = wasBlocked
    ? await insertOperation(tx, {
        serverId: server.id,
        kind: 'reactivate',
        actorId: input.actorId,
      })
    : null;
  const updated = await vpsRepository.updateServer(tx, server.id, {
    paidUntil: addMonths(from, months),
    status: wasBlocked ? 'active' : server.status,
    isTrial: false,
    blockedAt: null,
    warned3dAt: null,
    warned1dAt: null,
    autoRenewFailedAt: null,
  });
  return {
    server: updated,
    chargedCents: totalCents,
    balanceCents: charged.balanceCents,
    operation,
  };
}
