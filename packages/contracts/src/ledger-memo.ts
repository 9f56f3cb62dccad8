import * as z from 'zod/mini';
import { GATEWAY_METHODS } from './balance.ts';

/**
 * What the system says about a ledger transaction it wrote: a code and its parameters, stored
 * with the transaction (ledger_transactions.memo_code, memo_params) and put into words by the
 * console in the reader's language. The ledger's `memo` keeps an operator's own text (a balance
 * correction's reason) and the English text of rows older than the codes.
 */

const id = z.int().check(z.positive());
const text = z.string();

export const ledgerMemoSchema = z.discriminatedUnion('code', [
  /** A card or e-wallet payment the gateway reported paid. */
  z.object({
    code: z.literal('topup_gateway'),
    params: z.object({
      payment_id: id,
      method: z.enum(GATEWAY_METHODS),
      /** The gateway's id: `sandbox`, `payeer`. */
      gateway: text,
      /** The gateway's id of the operation. */
      operation_id: text,
    }),
  }),
  /** A crypto payment an operator confirmed. */
  z.object({
    code: z.literal('topup_crypto'),
    params: z.object({ payment_id: id, network: text, txid: text }),
  }),
  /** A purchase paid from the balance: the charge's own line in both languages. */
  z.object({
    code: z.literal('charge'),
    params: z.object({ description_en: text, description_ru: text }),
  }),
  /** The order of a server that could not be created, given back. */
  z.object({ code: z.literal('vps_create_refund'), params: z.object({ server_id: id }) }),
  /** An upgrade that failed, given back. */
  z.object({ code: z.literal('vps_upgrade_refund'), params: z.object({ server_id: id }) }),
  /** An upgrade still waiting when its server was revoked, given back. */
  z.object({ code: z.literal('vps_upgrade_revoked_refund'), params: z.object({ server_id: id }) }),
  /**
   * A transfer between users: its id (the transfers row) and both parties by id, which an
   * e-mail change does not make wrong.
   */
  z.object({
    code: z.literal('transfer'),
    params: z.object({ transfer_id: id, from_user_id: id, to_user_id: id }),
  }),
  /** A partner moving their partner balance to their main balance (a deposit by `balance`). */
  z.object({ code: z.literal('partner_move'), params: z.object({}) }),
  /** A partner's withdrawal request: the amount leaves the partner balance. */
  z.object({ code: z.literal('partner_withdrawal'), params: z.object({ method: text }) }),
  /** A withdrawal request an operator cancelled: the amount comes back. */
  z.object({
    code: z.literal('partner_withdrawal_cancelled'),
    params: z.object({ withdrawal_id: id }),
  }),
  /** A partner reward, due after its hold, reaching the partner balance. */
  z.object({
    code: z.literal('partner_reward'),
    params: z.object({
      level: z.int().check(z.gte(1), z.lte(3)),
      charge_id: id,
    }),
  }),
]);
export type LedgerMemo = z.infer<typeof ledgerMemoSchema>;
export type LedgerMemoCode = LedgerMemo['code'];

/**
 * A ledger row's code and params as one LedgerMemo, or null: no code (an operator's text, an
 * old row), or one this build does not know or whose params do not fit (then the row's stored
 * memo is what there is to show).
 */
export function ledgerMemoOf(row: {
  memo_code: string | null;
  memo_params: Record<string, unknown> | null;
}): LedgerMemo | null {
  if (row.memo_code === null) return null;
  const parsed = ledgerMemoSchema.safeParse({ code: row.memo_code, params: row.memo_params });
  return parsed.success ? parsed.data : null;
}
