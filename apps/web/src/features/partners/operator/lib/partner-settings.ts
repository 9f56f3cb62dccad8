import { toNestErrors } from '@hookform/resolvers';
import { partnerSettingsSchema, type PartnerSettings } from '@tradehost/contracts';
import type { FieldError, Resolver, ResolverResult } from 'react-hook-form';

/** The partner settings as the form holds them: the texts typed. */
export interface SettingsFormValues {
  reward_percents: string[];
  discount_tiers: { active_referrals: string; discount: string }[];
}

/** At most this many tiers (the contract's rule). */
export const TIERS_MAX = 10;

/** What can be wrong with one field (operator:partner.settings.errors.<problem>). */
export const SETTINGS_PROBLEMS = [
  'percent',
  'referrals',
  'referralsOrder',
  'discount',
  'discountOrder',
] as const;
export type SettingsProblem = (typeof SETTINGS_PROBLEMS)[number];

// 0 to 50 with at most two decimals, a comma taken for the point ("2,5")
const PERCENT = /^\d{1,2}(?:\.\d{1,2})?$/;
// whole numbers below 10^9: within the database's integer
const WHOLE = /^\d{1,9}$/;

export const formValuesOf = (settings: PartnerSettings): SettingsFormValues => ({
  reward_percents: settings.reward_percents.map(String),
  discount_tiers: settings.discount_tiers.map((tier) => ({
    active_referrals: String(tier.active_referrals),
    discount: String(tier.discount),
  })),
});

/**
 * The form's values checked field by field with the rules of partnerSettingsSchema (each level
 * 0-50 % in whole basis points; tiers from 0 active referrals, each with more referrals and no
 * smaller discount, 1-90 %), so that each refusal lands on its field; the settings to send when
 * there is none.
 */
export function checkSettings(values: SettingsFormValues): {
  settings: PartnerSettings;
  problems: Record<string, SettingsProblem>;
} {
  const problems: Record<string, SettingsProblem> = {};
  const reward_percents = values.reward_percents.map((typed, level) => {
    const text = typed.trim().replace(',', '.');
    const percent = Number(text);
    if (!PERCENT.test(text) || percent > 50) problems[`reward_percents.${level}`] = 'percent';
    return percent;
  });
  const discount_tiers = values.discount_tiers.map((tier) => ({
    active_referrals: Number(tier.active_referrals.trim()),
    discount: Number(tier.discount.trim()),
  }));
  values.discount_tiers.forEach((tier, i) => {
    const { active_referrals: referrals, discount } = discount_tiers[i]!;
    const previous = discount_tiers[i - 1];
    const at = `discount_tiers.${i}`;
    const before = `discount_tiers.${i - 1}`;
    // compared with the tier above unless that one is not a number of the kind asked for
    if (!WHOLE.test(tier.active_referrals.trim()) || (i === 0 && referrals !== 0))
      problems[`${at}.active_referrals`] = 'referrals';
    else if (
      previous &&
      problems[`${before}.active_referrals`] !== 'referrals' &&
      !(referrals > previous.active_referrals)
    )
      problems[`${at}.active_referrals`] = 'referralsOrder';
    if (!WHOLE.test(tier.discount.trim()) || discount < 1 || discount > 90)
      problems[`${at}.discount`] = 'discount';
    else if (
      previous &&
      problems[`${before}.discount`] !== 'discount' &&
      discount < previous.discount
    )
      problems[`${at}.discount`] = 'discountOrder';
  });
  return { settings: { reward_percents, discount_tiers }, problems };
}

/**
 * The form's resolver: checkSettings' refusals on their fields (the problem as the message);
 * then the contract's schema itself, whose refusal (its error code) goes to the form's root.
 */
export const settingsResolver: Resolver<SettingsFormValues, unknown, PartnerSettings> = (
  values,
  _context,
  options,
): ResolverResult<SettingsFormValues, PartnerSettings> => {
  const { settings, problems } = checkSettings(values);
  const fields = Object.entries(problems);
  if (fields.length > 0) {
    const errors: Record<string, FieldError> = {};
    for (const [path, problem] of fields) errors[path] = { type: 'validate', message: problem };
    return { values: {}, errors: toNestErrors(errors, options) };
  }
  const parsed = partnerSettingsSchema.safeParse(settings);
  if (parsed.success) return { values: parsed.data, errors: {} };
  const message = parsed.error.issues[0]?.message ?? 'VALIDATION';
  const root: FieldError = { type: 'validate', message };
  return { values: {}, errors: { root } };
};
