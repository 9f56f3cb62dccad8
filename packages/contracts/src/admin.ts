import * as z from 'zod/mini';
import {
  pageOf,
  pagingFields,
  paymentSchema,
  PAYMENT_STATUSES,
  signedAmountSchema,
} from './balance.ts';
import { moneyApprovalSchema } from './approvals.ts';
import { operatorRoleSchema } from './auth.ts';
import { idSchema, personSchema, reasonField } from './input.ts';

/**
 * The operator area: the crypto review queue, users' ledgers, adjustments, audit, and who the
 * operators are. Which operator role reaches which route: README, "Operators and their roles".
 */

const reasonSchema = reasonField();

export const userRefSchema = personSchema;
export type UserRef = z.infer<typeof userRefSchema>;

/**
 * What the chain explorer last saw of a crypto payment's TXID (CRYPTO_EXPLORER): where it paid,
 * how much, how deep, and the verdict against the request. Absent when no explorer reads the
 * network: the operator checks the TXID by hand against `pay_amount`.
 */
export const chainCheckSchema = z.object({
  checked_at: z.iso.datetime(),
  /** trongrid, esplora. */
  driver: z.string(),
  /**
   * not_found: the explorer does not know the TXID (yet); unconfirmed: it pays the request
   * exactly, not yet `required` blocks deep; confirmed: credited by itself; mismatch: it does not
   * pay the request (`reason`); unpriced: it pays our wallet, no exact amount was fixed to compare;
   * unavailable: the explorer did not answer (asked again at the next check).
   */
  state: z.enum(['not_found', 'unconfirmed', 'confirmed', 'mismatch', 'unpriced', 'unavailable']),
  reason: z.nullable(z.enum(['destination', 'token', 'amount', 'before_request'])),
  to: z.nullable(z.string()),
  amount: z.nullable(z.string()),
  token: z.nullable(z.string()),
  confirmations: z.nullable(z.int()),
  required: z.int(),
});
export type ChainCheck = z.infer<typeof chainCheckSchema>;

export const adminPaymentSchema = z.extend(paymentSchema, {
  user: userRefSchema,
  reviewed_by: z.nullable(userRefSchema),
  reviewed_at: z.nullable(z.iso.datetime()),
  /** Crypto: the explorer's last look at the TXID; absent or null without one. */
  chain: z.optional(z.nullable(chainCheckSchema)),
});
export type AdminPayment = z.infer<typeof adminPaymentSchema>;

export const adminPaymentsQuerySchema = z.object({
  status: z._default(z.enum(PAYMENT_STATUSES), 'under_review'),
  method: z.optional(z.enum(['card', 'ewallet', 'crypto', 'balance'])),
  ...pagingFields(20),
});
export const adminPaymentsPageSchema = pageOf(adminPaymentSchema);

export const rejectPaymentRequestSchema = z.object({ reason: reasonSchema });
export type RejectPaymentRequest = z.infer<typeof rejectPaymentRequestSchema>;
export const adminPaymentResponseSchema = z.object({
  payment: adminPaymentSchema,
  message: z.string(),
  code: z.optional(z.string()),
});

export const adminUserSchema = z.object({
  id: z.int(),
  created_at: z.iso.datetime(),
  email: z.string(),
  name: z.string(),
  role: z.enum(['user', 'admin']),
  balance: z.number(),
  balance_partner: z.number(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUsersQuerySchema = z.object({
  query: z._default(z.string().check(z.trim(), z.maxLength(254)), ''),
  ...pagingFields(20),
});
export const adminUsersPageSchema = pageOf(adminUserSchema);
export const adminUserResponseSchema = z.object({ user: adminUserSchema });

export const LEDGER_ACCOUNTS = ['balance', 'balance_partner'] as const;
export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];
export const LEDGER_KINDS = [
  'topup',
  'transfer',
  'charge',
  'withdrawal',
  'adjustment',
  'partner_move',
  'refund',
  'reward',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export const ledgerEntrySchema = z.object({
  id: z.int(),
  transaction_id: z.int(),
  created_at: z.iso.datetime(),
  kind: z.enum(LEDGER_KINDS),
  account: z.enum(LEDGER_ACCOUNTS),
  /** Signed dollars: credit > 0, debit < 0. */
  amount: z.number(),
  /** Dollars on the account after this entry. */
  balance_after: z.number(),
  /** An operator's own text (a correction's reason), or the English text of an old row. */
  memo: z.nullable(z.string()),
  /**
   * What the system wrote, to be put into words in the reader's language: a LedgerMemo's code
   * and params (ledger-memo.ts; read them with ledgerMemoOf). Not narrowed here, so a code this
   * build does not know still reaches the console, which then shows `memo`.
   */
  memo_code: z.nullable(z.string()),
  memo_params: z.nullable(z.record(z.string(), z.unknown())),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;
export const ledgerQuerySchema = z.object(pagingFields(50));
export const ledgerPageSchema = pageOf(ledgerEntrySchema);

export const adjustmentRequestSchema = z.object({
  account: z._default(z.enum(LEDGER_ACCOUNTS), 'balance'),
  /** Signed dollars: "25" credits, "-25" debits. */
  amount: signedAmountSchema,
  reason: reasonSchema,
});
export type AdjustmentRequest = z.input<typeof adjustmentRequestSchema>;
export const adjustmentResponseSchema = z.object({
  user: adminUserSchema,
  entry: ledgerEntrySchema,
  /** The request a second operator approved, when the adjustment needed one. */
  approval: z.optional(moneyApprovalSchema),
  message: z.string(),
  code: z.optional(z.string()),
});
export type AdjustmentResponse = z.infer<typeof adjustmentResponseSchema>;

export const AUDIT_ACTIONS = [
  'payment.confirm',
  'payment.reject',
  'balance.adjust',
  // four eyes (OPERATOR_APPROVAL_ABOVE): `details.approval_id`
  'balance.adjust_requested',
  'balance.adjust_declined',
  'payment.mismatch',
  'payment.expired',
  // who may act as an operator: `details.role`, and `details.by: 'cli'` (actor null) when the
  // command line did it
  'operator.grant',
  'operator.revoke',
  // an operator's sign-in and step-up (copied from the security log)
  'operator.sign_in',
  'operator.step_up',
] as const;
export const auditEntrySchema = z.object({
  id: z.int(),
  created_at: z.iso.datetime(),
  /** Null for the system (a gateway's notification). */
  actor: z.nullable(userRefSchema),
  action: z.string(),
  subject_type: z.string(),
  subject_id: z.nullable(z.string()),
  target_user: z.nullable(userRefSchema),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditQuerySchema = z.object(pagingFields(50));
export const auditPageSchema = pageOf(auditEntrySchema);

/** One role an operator holds: who gave it (null: the command line or the move to roles) and when. */
export const operatorRoleGrantSchema = z.object({
  role: operatorRoleSchema,
  granted_by: z.nullable(userRefSchema),
  granted_at: z.iso.datetime(),
});
export type OperatorRoleGrant = z.infer<typeof operatorRoleGrantSchema>;

/** A user who holds operator roles; `second_factor`: without one the operator area refuses them. */
export const operatorSchema = z.object({
  user: userRefSchema,
  roles: z.array(operatorRoleGrantSchema),
  second_factor: z.boolean(),
});
export type Operator = z.infer<typeof operatorSchema>;
export const operatorsResponseSchema = z.object({ data: z.array(operatorSchema) });
export type OperatorsResponse = z.infer<typeof operatorsResponseSchema>;

/** POST /api/admin/operators/:id/roles (step-up): gives the user a role. */
export const grantRoleRequestSchema = z.object({ role: operatorRoleSchema });
export type GrantRoleRequest = z.infer<typeof grantRoleRequestSchema>;
/** DELETE /api/admin/operators/:id/roles/:role (step-up). */
export const operatorRoleParamsSchema = z.object({
  id: idSchema('bigserial'),
  role: operatorRoleSchema,
});
/** The user's roles after a grant or a revoke (unchanged when they already held it, or did not). */
export const operatorResponseSchema = z.object({ operator: operatorSchema });
export type OperatorResponse = z.infer<typeof operatorResponseSchema>;
