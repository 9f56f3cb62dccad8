import * as z from 'zod/mini';
import { noWebAddress, singleLine } from './input.ts';
import { EMAIL_MAX, NAME_MAX, PARTNER_CODE_MAX, PASSWORD_MAX, PASSWORD_MIN } from './limits.ts';

/**
 * Account contracts. Validation messages are error codes (see errors.ts): the
 * API turns them into the English texts of the spec, the console into the
 * reader's language.
 *
 * Written with `zod/mini` (functions and `.check(...)` instead of methods): the same validation
 * and JSON Schema as classic zod at a fraction of its size in the console, whose forms use these
 * schemas. The API's fastify-type-provider-zod works on zod/v4/core, so it takes them as they
 * are. The package has no side effects (package.json), so a bundle that imports only constants
 * or error codes from it gets no zod.
 */

// The limits are a module of their own: a bundle that needs one of them (the console's first
// view needs PARTNER_CODE_MAX) does not reach the schemas, hence zod, through it.
export {
  CODE_LENGTH,
  EMAIL_MAX,
  NAME_MAX,
  PARTNER_CODE_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
} from './limits.ts';

export const emailSchema = z.pipe(
  z
    .string({ error: 'EMAIL_INVALID' })
    .check(z.trim(), z.maxLength(EMAIL_MAX, { error: 'EMAIL_INVALID' })),
  z.email({ error: 'EMAIL_INVALID' }),
);

export const passwordSchema = z
  .string({ error: 'PASSWORD_TOO_SHORT' })
  .check(
    z.minLength(PASSWORD_MIN, { error: 'PASSWORD_TOO_SHORT' }),
    z.maxLength(PASSWORD_MAX, { error: 'PASSWORD_TOO_LONG' }),
  );

export const otpCodeSchema = z
  .string({ error: 'CODE_FORMAT' })
  .check(z.regex(/^\d{6}$/, { error: 'CODE_FORMAT' }));

/**
 * A person's name: trimmed, 1 to NAME_MAX characters, one line and no web address, as it stands
 * in mails (sign-up and the profile).
 */
export const nameSchema = z
  .string({ error: 'NAME_REQUIRED' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'NAME_REQUIRED' }),
    z.maxLength(NAME_MAX, { error: 'NAME_TOO_LONG' }),
    singleLine(),
    noWebAddress(),
  );

export function passwordsMatch(value: {
  password: string;
  password_confirmation: string;
}): boolean {
  return value.password === value.password_confirmation;
}
export const passwordsDiffer = { error: 'PASSWORDS_DIFFER', path: ['password_confirmation'] };

export const signupRequestSchema = z
  .object({
    name: nameSchema,
    email: emailSchema,
    password: passwordSchema,
    password_confirmation: z.string({ error: 'PASSWORDS_DIFFER' }),
    consent: z.literal(true, { error: 'CONSENT_REQUIRED' }),
    partner_code: z.pipe(
      z.optional(
        z
          .string()
          .check(z.trim(), z.maxLength(PARTNER_CODE_MAX, { error: 'PARTNER_CODE_INVALID' })),
      ),
      z.transform((code) => (code ? code : undefined)),
    ),
    /** The console's language at sign-up: the account's and its e-mails' language. */
    language: z.optional(z.enum(['en', 'ru'])),
  })
  .check(z.refine(passwordsMatch, passwordsDiffer));
export type SignupRequest = z.input<typeof signupRequestSchema>;

/** `code` names the text in SUCCESS_MESSAGES so the console can translate it. */
export const signupResponseSchema = z.object({
  message: z.string(),
  code: z.optional(z.string()),
});

export const verifyEmailRequestSchema = z.object({
  token: z
    .string({ error: 'VERIFY_LINK_INVALID' })
    .check(z.minLength(1, { error: 'VERIFY_LINK_INVALID' }), z.maxLength(200)),
});
export type VerifyEmailRequest = z.infer<typeof verifyEmailRequestSchema>;

export const loginRequestSchema = z.object({
  email: emailSchema,
  password: z
    .string({ error: 'REQUIRED' })
    .check(z.minLength(1, { error: 'REQUIRED' }), z.maxLength(PASSWORD_MAX)),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

// the refresh attempt's header and window (refresh-attempt.ts: zod-free, for the first view)
export {
  REFRESH_ATTEMPT_HEADER,
  REFRESH_ATTEMPT_PATTERN,
  REFRESH_RETRY_MS,
} from './refresh-attempt.ts';

/** An access token and the moment it expires (ISO-8601, UTC). */
export const tokenResponseSchema = z.object({
  token: z.string(),
  expires: z.iso.datetime(),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

export const forgotPasswordRequestSchema = z.object({ email: emailSchema });
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequestSchema>;

export const checkForgotOtpRequestSchema = z.object({ email: emailSchema, code: otpCodeSchema });
export type CheckForgotOtpRequest = z.infer<typeof checkForgotOtpRequestSchema>;

export const resetPasswordRequestSchema = z
  .object({
    email: emailSchema,
    code: otpCodeSchema,
    password: passwordSchema,
    password_confirmation: z.string({ error: 'PASSWORDS_DIFFER' }),
  })
  .check(z.refine(passwordsMatch, passwordsDiffer));
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

/** `code` names the text in SUCCESS_MESSAGES so the console can translate it. */
export const messageResponseSchema = z.object({
  message: z.string(),
  code: z.optional(z.string()),
});
export type MessageResponse = z.infer<typeof messageResponseSchema>;

export const LANGUAGES = ['en', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];
export const languageSchema = z.enum(LANGUAGES);

/**
 * `role` of a user payload: 'admin' for anyone holding any operator role (the console's gate to
 * the operator area), 'user' otherwise. Which parts of the area are theirs: OPERATOR_ROLES.
 */
export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/**
 * An operator's roles; a user may hold several. `support`: tickets, canned replies, departments,
 * FAQ. `billing`: payments and crypto confirmations, balance corrections, partner withdrawals,
 * partner settings and promocodes, monitoring prices. `vps`: rates, servers, operations, test
 * servers. `monitoring`: monitoring accounts and subscriptions. `admin`: everything, and granting
 * and revoking roles.
 */
export const OPERATOR_ROLES = ['support', 'billing', 'vps', 'monitoring', 'admin'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];
export const operatorRoleSchema = z.enum(OPERATOR_ROLES, { error: 'OPERATOR_ROLE_INVALID' });

/** Money goes over the wire as dollars with at most two decimals. */
export const userSchema = z.object({
  id: z.int(),
  created_at: z.iso.datetime(),
  email: z.string(),
  name: z.string(),
  language: languageSchema,
  role: z.enum(ROLES),
  /**
   * The signed-in user's operator roles (empty for a customer), always sent by the API; optional
   * here only so a payload without it reads as no roles.
   */
  operator_roles: z.optional(z.array(operatorRoleSchema)),
  email_verified_at: z.nullable(z.iso.datetime()),
  referral_code: z.string(),
  photo_path: z.nullable(z.string()),
  telegram_link: z.nullable(z.string()),
  telegram_mon_link: z.nullable(z.string()),
  balance: z.number(),
  balance_partner: z.number(),
});
export type User = z.infer<typeof userSchema>;

export const changeLanguageRequestSchema = z.object({ language: z.enum(['EN', 'RU']) });
export type ChangeLanguageRequest = z.infer<typeof changeLanguageRequestSchema>;

/** Which optional pages the console shows. Both default to true when absent. */
export const permissionsSchema = z.object({
  partner: z._default(z.boolean(), true),
  monitoring: z._default(z.boolean(), true),
});
export type Permissions = z.infer<typeof permissionsSchema>;
export const DEFAULT_PERMISSIONS: Permissions = { partner: true, monitoring: true };

export const ALERT_LEVELS = ['info', 'warning', 'danger'] as const;
/** A notice the provider shows every signed-in user, in both languages. */
export const alertSchema = z.object({
  id: z.int(),
  level: z.enum(ALERT_LEVELS),
  text_en: z.string(),
  text_ru: z.string(),
});
export type Alert = z.infer<typeof alertSchema>;
export const alertResponseSchema = z.object({ alert: z.nullable(alertSchema) });
export type AlertResponse = z.infer<typeof alertResponseSchema>;

export const clickCreateRequestSchema = z.object({
  referral_code: z
    .string({ error: 'PARTNER_CODE_INVALID' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'PARTNER_CODE_INVALID' }),
      z.maxLength(PARTNER_CODE_MAX, { error: 'PARTNER_CODE_INVALID' }),
    ),
});
export type ClickCreateRequest = z.infer<typeof clickCreateRequestSchema>;
