import * as z from 'zod/mini';
import { pageMetaSchema, pagingFields } from './balance.ts';
import { personSchema, reasonField } from './input.ts';

/*
 * Four eyes on money (OPERATOR_APPROVAL_ABOVE): an operator's balance adjustment or partner
 * payout above the threshold waits for a second operator's approval before it takes effect.
 */

export const MONEY_APPROVAL_KINDS = ['adjustment', 'payout'] as const;
export type MoneyApprovalKind = (typeof MONEY_APPROVAL_KINDS)[number];
export const MONEY_APPROVAL_STATUSES = ['pending', 'approved', 'declined'] as const;
export type MoneyApprovalStatus = (typeof MONEY_APPROVAL_STATUSES)[number];

export const moneyApprovalSchema = z.object({
  id: z.int(),
  created_at: z.iso.datetime(),
  kind: z.enum(MONEY_APPROVAL_KINDS),
  status: z.enum(MONEY_APPROVAL_STATUSES),
  /** The operator who asked for it; never the one who approves it. */
  requested_by: personSchema,
  /** Whose money: the adjusted user, the withdrawing partner. */
  user: personSchema,
  /** Signed dollars for an adjustment (credit > 0); the withdrawal's amount for a payout. */
  amount: z.number(),
  /** Adjustment: the purse and the reason the user will see. */
  account: z.nullable(z.enum(['balance', 'balance_partner'])),
  reason: z.nullable(z.string()),
  /** Payout: the withdrawal and the payment's reference. */
  withdrawal_id: z.nullable(z.int()),
  reference: z.nullable(z.string()),
  decided_by: z.nullable(personSchema),
  decided_at: z.nullable(z.iso.datetime()),
  decline_reason: z.nullable(z.string()),
});
export type MoneyApproval = z.infer<typeof moneyApprovalSchema>;

export const moneyApprovalsQuerySchema = z.object({
  /** pending: oldest first; all: newest first. */
  status: z._default(z.enum(['pending', 'all']), 'pending'),
  ...pagingFields(20),
});
export const moneyApprovalsPageSchema = z.object({
  data: z.array(moneyApprovalSchema),
  meta: pageMetaSchema,
});
/** A request created pending (202), or one decided (approve, decline). */
export const moneyApprovalResponseSchema = z.object({
  approval: moneyApprovalSchema,
  message: z.string(),
  code: z.string(),
});
export type MoneyApprovalResponse = z.infer<typeof moneyApprovalResponseSchema>;
export const declineApprovalSchema = z.object({ reason: reasonField() });
