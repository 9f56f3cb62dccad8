import { centsToDollars, type Withdrawal } from '@tradehost/contracts';
import type { withdrawals } from './schema/index.ts';

/** A withdrawal as the API shows it: the balance history's fourth list and the partner's page. */
export function toWithdrawal(row: typeof withdrawals.$inferSelect): Withdrawal {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    amount: centsToDollars(row.amountCents),
    method: row.method,
    wallet: row.wallet,
    status: row.status,
    due_at: row.dueAt.toISOString(),
    processed_at: row.processedAt?.toISOString() ?? null,
    payout_reference: row.payoutReference,
    reason: row.reason,
  };
}
