import * as z from 'zod/mini';
import {
  amountSchema,
  pageMetaSchema,
  pagingFields,
  periodSchema,
  type Period,
  WALLET_MAX,
  withdrawalSchema,
} from './balance.ts';
import { moneyApprovalSchema } from './approvals.ts';
import { personSchema, reasonField, singleLine } from './input.ts';

/**
 * The partner programme's reads (SPEC 7, /user/partner*): the partner's code and balances, the
 * levels table, statistics over a period and the network. Money is in dollars; percentages are
 * percent (10 = 10 %).
 */

export const PARTNER_LEVELS = [1, 2, 3] as const;

export const partnerInfoSchema = z.object({
  referral_code: z.string(),
  /** The partner link: the console's sign-up with `?ref=CODE`. */
  link: z.string(),
  /** A QR code of the link: an SVG data URL. */
  link_qr_url: z.string(),
  level_1_referral_active_count: z.int(),
  level_2_referral_active_count: z.int(),
  level_3_referral_active_count: z.int(),
  /** The smallest withdrawal minimum of the methods offered (each method has its own). */
  partnerMinWithdrawal: z.number(),
  balances: z.object({
    /** In the partner balance: may be withdrawn or moved to the main balance. */
    available: z.number(),
    /** Rewards in their hold, not yet in the partner balance. */
    pending: z.number(),
  }),
  /** Days a reward is pending before it becomes available. */
  hold_days: z.int(),
  /** The percentage of each level, levels 1 to 3. */
  reward_percents: z.array(z.number()),
});
export type PartnerInfo = z.infer<typeof partnerInfoSchema>;

/** SPEC's client level stats row: level, percent, clients, turnover, reward. */
export const partnerLevelSchema = z.object({
  level: z.int(),
  /** The level's percentage now. */
  rewardForLevel: z.number(),
  /** Referrals on this level. */
  userCount: z.int(),
  /** The turnover the level's rewards were counted on (what its referrals paid), in dollars. */
  rewardCount: z.number(),
  /** The rewards of the level (pending and available), in dollars. */
  rewardSum: z.number(),
});
export type PartnerLevel = z.infer<typeof partnerLevelSchema>;
export const partnerLevelsResponseSchema = z.object({ data: z.array(partnerLevelSchema) });
export type PartnerLevelsResponse = z.infer<typeof partnerLevelsResponseSchema>;

/** The statistics' period: the calendar picker's range. */
export const partnerPeriodSchema = periodSchema;
export type PartnerPeriod = Period;

export const partnerInfoDataSchema = z.object({
  /** Rewards by day (UTC), the days with any. */
  rewardData: z.array(z.object({ date: z.string(), amount: z.number() })),
  /** Clicks, registrations and first payments by day (UTC), the days with any. */
  conversionData: z.array(
    z.object({
      date: z.string(),
      clicks: z.int(),
      registrations: z.int(),
      paying_clients: z.int(),
    }),
  ),
  stats: z.object({
    clicks: z.int(),
    registrations: z.int(),
    /** First-level referrals registered in the period who have paid since. */
    paying_clients: z.int(),
    /** registrations / clicks, null without clicks. */
    conversion: z.nullable(z.number()),
    /** What the partner's referrals (all levels) paid in the period, in dollars. */
    turnover: z.number(),
    rewards_pending: z.number(),
    rewards_available: z.number(),
  }),
});
export type PartnerInfoData = z.infer<typeof partnerInfoDataSchema>;

export const NETWORK_SEARCH_MAX = 100;

/** One page of the network: the partner's referrals (or one referral's) a level down. */
export const partnerNetworkQuerySchema = z.object({
  /** Whose referrals: a referral of the partner within levels 1-2; absent, the partner's own. */
  parent_id: z.optional(z.coerce.number().check(z.int(), z.positive())),
  /** Part of an e-mail or a name, searched among all three levels. */
  search: z.optional(z.string().check(z.trim(), z.maxLength(NETWORK_SEARCH_MAX))),
  ...pagingFields(),
});
export type PartnerNetworkQuery = z.input<typeof partnerNetworkQuerySchema>;

export const partnerNetworkNodeSchema = z.object({
  id: z.int(),
  /** Masked: the first letter of the name part and the domain (j***@example.com). */
  email: z.string(),
  registered_at: z.iso.datetime(),
  /** 1-3: below the partner. */
  level: z.int(),
  /** Has an active paid server or monitoring subscription now. */
  active: z.boolean(),
  /** Their own referrals (the level below), 0 on level 3: the tree stops there. */
  referrals: z.int(),
  /** What they have paid (charges not refunded), in dollars. */
  turnover: z.number(),
  /** What the partner has earned from their payments, in dollars. */
  rewards: z.number(),
});
export type PartnerNetworkNode = z.infer<typeof partnerNetworkNodeSchema>;
export const partnerNetworkResponseSchema = z.object({
  data: z.array(partnerNetworkNodeSchema),
  meta: pageMetaSchema,
});
export type PartnerNetworkResponse = z.infer<typeof partnerNetworkResponseSchema>;

// ---- withdrawals ---------------------------------------------------------------------------

/**
 * The withdrawal methods the product knows, with the wallet format of each; which of them are
 * offered, and their minimums, is configuration (PARTNER_WITHDRAWAL_METHODS).
 */
export const WITHDRAWAL_METHODS = {
  'USDT-TRC20': {
    name: 'USDT (TRC-20)',
    wallet: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
    example: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
  },
  BTC: {
    name: 'Bitcoin',
    wallet: /^(bc1[02-9ac-hj-np-z]{11,71}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/,
    example: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  },
  PAYEER: { name: 'Payeer', wallet: /^P\d{7,12}$/, example: 'P1000000' },
} as const;
export type WithdrawalMethodId = keyof typeof WITHDRAWAL_METHODS;
export const WITHDRAWAL_METHOD_IDS = Object.keys(WITHDRAWAL_METHODS) as WithdrawalMethodId[];
/** Working days (Monday to Friday) within which a request is processed (SPEC 9). */
export const WITHDRAWAL_WORKING_DAYS = 5;

/** The day `days` working days (Monday-Friday, UTC) after `from`, at the same time. */
export function addWorkingDays(from: Date, days: number): Date {
  const at = new Date(from);
  for (let left = days; left > 0;) {
    at.setUTCDate(at.getUTCDate() + 1);
    const weekday = at.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return at;
}

export const withdrawalMethodSchema = z.object({
  id: z.enum(WITHDRAWAL_METHOD_IDS as [WithdrawalMethodId, ...WithdrawalMethodId[]]),
  name: z.string(),
  /** Dollars. */
  minimum: z.number(),
  /** What an address of this method looks like. */
  wallet_example: z.string(),
});
export type WithdrawalMethod = z.infer<typeof withdrawalMethodSchema>;

export const createWithdrawalSchema = z.object({
  method: z.string({ error: 'WITHDRAWAL_METHOD_INVALID' }).check(
    z.trim(),
    z.refine((id) => id in WITHDRAWAL_METHODS, { error: 'WITHDRAWAL_METHOD_INVALID' }),
  ),
  wallet: z
    .string({ error: 'WALLET_REQUIRED' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'WALLET_REQUIRED' }),
      z.maxLength(WALLET_MAX, { error: 'WALLET_INVALID' }),
      singleLine(),
    ),
  amount: amountSchema,
});
export type CreateWithdrawalRequest = z.input<typeof createWithdrawalSchema>;

export const partnerPaymentsSchema = z.object({
  /** The methods offered, each with its minimum. */
  data: z.array(withdrawalMethodSchema),
  /** The partner balance, in dollars. */
  available: z.number(),
  /** The request being processed (one at a time), or null. */
  open: z.nullable(withdrawalSchema),
});
export type PartnerPayments = z.infer<typeof partnerPaymentsSchema>;

export const createWithdrawalResponseSchema = z.object({
  withdrawal: withdrawalSchema,
  /** The partner balance left, in dollars. */
  available: z.number(),
  message: z.string(),
  code: z.optional(z.string()),
});
export type CreateWithdrawalResponse = z.infer<typeof createWithdrawalResponseSchema>;

// ---- the operator's side ----------------------------------------------------------------------

export const adminWithdrawalSchema = z.extend(withdrawalSchema, {
  user: personSchema,
  /** Open past its due date. */
  overdue: z.boolean(),
  processed_by: z.nullable(personSchema),
  /** The latest payout asked for above OPERATOR_APPROVAL_ABOVE: pending, approved or declined. */
  approval: z.nullable(moneyApprovalSchema),
});
export type AdminWithdrawal = z.infer<typeof adminWithdrawalSchema>;

export const ADMIN_WITHDRAWAL_FILTERS = ['open', 'all'] as const;
export const adminWithdrawalsQuerySchema = z.object({
  /** open: Received and Under review, oldest first; all: every request, newest first. */
  status: z._default(z.enum(ADMIN_WITHDRAWAL_FILTERS), 'open'),
  ...pagingFields(20),
});
export const adminWithdrawalsPageSchema = z.object({
  data: z.array(adminWithdrawalSchema),
  meta: pageMetaSchema,
});
export const adminWithdrawalResponseSchema = z.object({
  withdrawal: adminWithdrawalSchema,
  message: z.string(),
  code: z.optional(z.string()),
});
export const PAYOUT_REFERENCE_MAX = 200;
export const payWithdrawalSchema = z.object({
  reference: z
    .string({ error: 'REFERENCE_REQUIRED' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'REFERENCE_REQUIRED' }),
      z.maxLength(PAYOUT_REFERENCE_MAX, { error: 'REFERENCE_REQUIRED' }),
      singleLine(),
    ),
});
export const rejectWithdrawalSchema = z.object({ reason: reasonField() });

// ---- partner promocodes -----------------------------------------------------------------------

/** A partner promocode's name: letters and digits, unique across the product (any case). */
export const PARTNER_PROMOCODE_NAME = /^[A-Za-z0-9]{3,32}$/;
/** Promocodes a partner may have at once (deleted ones not counted). */
export const PARTNER_PROMOCODES_MAX = 20;

export const partnerPromocodeSchema = z.object({
  id: z.int(),
  name: z.string(),
  /** Percent off a 1-month rental. */
  discount: z.int(),
  times_used: z.int(),
  created_at: z.iso.datetime(),
});
export type PartnerPromocode = z.infer<typeof partnerPromocodeSchema>;
/** SPEC 7: the list is in `data.data` (the answer's `data`). */
export const partnerPromocodesSchema = z.object({ data: z.array(partnerPromocodeSchema) });
export type PartnerPromocodes = z.infer<typeof partnerPromocodesSchema>;

export const discountTierSchema = z.object({
  /** From this many active first-level referrals on. */
  active_referrals: z.int(),
  discount: z.int(),
});
export type DiscountTier = z.infer<typeof discountTierSchema>;

export const availableDiscountSchema = z.object({
  /** The discounts the partner's promocodes may give now. */
  available_discounts: z.array(z.int()),
  /** The partner's active first-level referrals, which decide the tier. */
  active_referrals: z.int(),
  tiers: z.array(discountTierSchema),
  /** The next tier up, or null at the top. */
  next_tier: z.nullable(discountTierSchema),
});
export type AvailableDiscount = z.infer<typeof availableDiscountSchema>;

export const createPromocodeSchema = z.object({
  name: z
    .string({ error: 'PROMOCODE_NAME_INVALID' })
    .check(z.trim(), z.regex(PARTNER_PROMOCODE_NAME, { error: 'PROMOCODE_NAME_INVALID' })),
  discount: z.coerce
    .number({ error: 'DISCOUNT_NOT_AVAILABLE' })
    .check(z.int({ error: 'DISCOUNT_NOT_AVAILABLE' })),
});
export type CreatePromocodeRequest = z.input<typeof createPromocodeSchema>;
export const createPromocodeResponseSchema = z.object({
  promocode: partnerPromocodeSchema,
  message: z.string(),
  code: z.optional(z.string()),
});

/** The operator's settings of the programme: each level's percentage and the discount tiers. */
export const partnerSettingsSchema = z.object({
  /** Levels 1-3, percent with at most two decimals, 0 to 50. */
  reward_percents: z
    .array(
      z.number({ error: 'PERCENT_INVALID' }).check(
        // whole basis points: 2.5 and 10.25 are, 10.125 is not
        z.refine((p) => p >= 0 && p <= 50 && Math.abs(p * 100 - Math.round(p * 100)) < 1e-9, {
          error: 'PERCENT_INVALID',
        }),
      ),
    )
    .check(z.length(3, { error: 'PERCENT_INVALID' })),
  /** From 0 active referrals up, each tier with more referrals and no smaller discount. */
  discount_tiers: z
    .array(
      z.object({
        active_referrals: z.int({ error: 'TIERS_INVALID' }).check(
          z.minimum(0, { error: 'TIERS_INVALID' }),
          // the column is a 32-bit integer
          z.maximum(2_147_483_647, { error: 'TIERS_INVALID' }),
        ),
        discount: z
          .int({ error: 'TIERS_INVALID' })
          .check(
            z.minimum(1, { error: 'TIERS_INVALID' }),
            z.maximum(90, { error: 'TIERS_INVALID' }),
          ),
      }),
    )
    .check(
      z.minLength(1, { error: 'TIERS_INVALID' }),
      z.maxLength(10, { error: 'TIERS_INVALID' }),
      z.refine(
        (tiers) =>
          tiers[0]?.active_referrals === 0 &&
          tiers.every(
            (tier, i) =>
              i === 0 ||
              (tier.active_referrals > tiers[i - 1]!.active_referrals &&
                tier.discount >= tiers[i - 1]!.discount),
          ),
        { error: 'TIERS_INVALID' },
      ),
    ),
});
export type PartnerSettings = z.infer<typeof partnerSettingsSchema>;

// ---- the operator's view of one user's partnership ---------------------------------------------

export const PARTNER_REWARD_STATUSES = ['pending', 'available', 'cancelled'] as const;
export type PartnerRewardStatus = (typeof PARTNER_REWARD_STATUSES)[number];
/** The rewards the operator's summary of a partner lists, newest first. */
export const PARTNER_SUMMARY_REWARDS = 20;

/** One reward of the partner's, as the operator reads it. */
export const adminPartnerRewardSchema = z.object({
  id: z.int(),
  /** The charge it was counted on. */
  charge_id: z.int(),
  /** 1-3: how far below the partner the payer is. */
  level: z.int(),
  /** The referral whose payment it is. */
  from_user: personSchema,
  /** What the referral paid, in dollars, and the level's percentage when it was granted. */
  base: z.number(),
  percent: z.number(),
  amount: z.number(),
  status: z.enum(PARTNER_REWARD_STATUSES),
  created_at: z.iso.datetime(),
  /**
   * Available: when it reached the partner balance. Pending: when its hold ends (it moves at the
   * release job's next run after that). Cancelled (a refund during the hold): null.
   */
  available_at: z.nullable(z.iso.datetime()),
});
export type AdminPartnerReward = z.infer<typeof adminPartnerRewardSchema>;

/** GET /admin/partner/users/:id: a user's figures in the partner programme. */
export const adminPartnerSummarySchema = z.object({
  user: personSchema,
  referral_code: z.string(),
  link: z.string(),
  /** Who brought the user in (their level-1 referrer), or null. */
  referrer: z.nullable(personSchema),
  /** Active referrals on levels 1 to 3. */
  active_referrals: z.array(z.int()),
  balances: z.object({ available: z.number(), pending: z.number() }),
  hold_days: z.int(),
  /** The levels table, as the partner sees it (SPEC's client level stats rows). */
  levels: z.array(partnerLevelSchema),
  /** The latest PARTNER_SUMMARY_REWARDS rewards, newest first. */
  rewards: z.array(adminPartnerRewardSchema),
});
export type AdminPartnerSummary = z.infer<typeof adminPartnerSummarySchema>;

/**
 * GET /admin/partner/users/:id/network: the user's first-level referrals, newest first, or with
 * `search` the matches on all three levels; paged like the partner's own network.
 */
export const adminPartnerNetworkQuerySchema = z.object({
  /** Part of an e-mail or a name, searched among all three levels. */
  search: z.optional(z.string().check(z.trim(), z.maxLength(NETWORK_SEARCH_MAX))),
  ...pagingFields(),
});
export type AdminPartnerNetworkQuery = z.input<typeof adminPartnerNetworkQuerySchema>;

/** One referral as the operator reads it: the partner's node with the e-mail unmasked. */
export const adminPartnerNetworkNodeSchema = z.extend(partnerNetworkNodeSchema, {
  /** The referral's address as it is (operators see e-mails everywhere). */
  email: z.string(),
});
export type AdminPartnerNetworkNode = z.infer<typeof adminPartnerNetworkNodeSchema>;
export const adminPartnerNetworkResponseSchema = z.object({
  data: z.array(adminPartnerNetworkNodeSchema),
  meta: pageMetaSchema,
});
export type AdminPartnerNetworkResponse = z.infer<typeof adminPartnerNetworkResponseSchema>;
