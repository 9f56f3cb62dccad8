import { z } from 'zod';

/**
 * Account contracts. Validation messages are error codes (see errors.ts): the
 * API turns them into the English texts of the spec, the console into the
 * reader's language.
 */

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const NAME_MAX = 100;
export const EMAIL_MAX = 254;
export const CODE_LENGTH = 6;
export const PARTNER_CODE_MAX = 32;

export const emailSchema = z
  .string({ error: 'EMAIL_INVALID' })
  .trim()
  .max(EMAIL_MAX, { error: 'EMAIL_INVALID' })
  .pipe(z.email({ error: 'EMAIL_INVALID' }));

export const passwordSchema = z
  .string({ error: 'PASSWORD_TOO_SHORT' })
  .min(PASSWORD_MIN, { error: 'PASSWORD_TOO_SHORT' })
  .max(PASSWORD_MAX, { error: 'PASSWORD_TOO_LONG' });

export const otpCodeSchema = z
  .string({ error: 'CODE_FORMAT' })
  .regex(/^\d{6}$/, { error: 'CODE_FORMAT' });

const nameSchema = z
  .string({ error: 'NAME_REQUIRED' })
  .trim()
  .min(1, { error: 'NAME_REQUIRED' })
  .max(NAME_MAX, { error: 'NAME_TOO_LONG' });

function passwordsMatch(value: { password: string; password_confirmation: string }): boolean {
  return value.password === value.password_confirmation;
}
const passwordsDiffer = { error: 'PASSWORDS_DIFFER', path: ['password_confirmation'] };

export const signupRequestSchema = z
  .object({
    name: nameSchema,
    email: emailSchema,
    password: passwordSchema,
    password_confirmation: z.string({ error: 'PASSWORDS_DIFFER' }),
    consent: z.literal(true, { error: 'CONSENT_REQUIRED' }),
    partner_code: z
      .string()
      .trim()
      .max(PARTNER_CODE_MAX, { error: 'PARTNER_CODE_INVALID' })
      .optional()
      .transform((code) => (code ? code : undefined)),
    /** The console's language at sign-up: the account's and its e-mails' language. */
    language: z.enum(['en', 'ru']).optional(),
  })
  .refine(passwordsMatch, passwordsDiffer);
export type SignupRequest = z.input<typeof signupRequestSchema>;

/** `code` names the text in SUCCESS_MESSAGES so the console can translate it. */
export const signupResponseSchema = z.object({ message: z.string(), code: z.string().optional() });

export const verifyEmailRequestSchema = z.object({
  token: z
    .string({ error: 'VERIFY_LINK_INVALID' })
    .min(1, { error: 'VERIFY_LINK_INVALID' })
    .max(200),
});
export type VerifyEmailRequest = z.infer<typeof verifyEmailRequestSchema>;

export const loginRequestSchema = z.object({
  email: emailSchema,
  password: z.string({ error: 'REQUIRED' }).min(1, { error: 'REQUIRED' }).max(PASSWORD_MAX),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

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
  .refine(passwordsMatch, passwordsDiffer);
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

/** `code` names the text in SUCCESS_MESSAGES so the console can translate it. */
export const messageResponseSchema = z.object({ message: z.string(), code: z.string().optional() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

export const LANGUAGES = ['en', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];
export const languageSchema = z.enum(LANGUAGES);

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Money goes over the wire as dollars with at most two decimals. */
export const userSchema = z.object({
  id: z.number().int(),
  created_at: z.iso.datetime(),
  email: z.string(),
  name: z.string(),
  language: languageSchema,
  role: z.enum(ROLES),
  email_verified_at: z.iso.datetime().nullable(),
  referral_code: z.string(),
  photo_path: z.string().nullable(),
  telegram_link: z.string().nullable(),
  telegram_mon_link: z.string().nullable(),
  balance: z.number(),
  balance_partner: z.number(),
});
export type User = z.infer<typeof userSchema>;

export const changeLanguageRequestSchema = z.object({ language: z.enum(['EN', 'RU']) });
export type ChangeLanguageRequest = z.infer<typeof changeLanguageRequestSchema>;

/** Which optional pages the console shows. Both default to true when absent. */
export const permissionsSchema = z.object({
  partner: z.boolean().default(true),
  monitoring: z.boolean().default(true),
});
export type Permissions = z.infer<typeof permissionsSchema>;
export const DEFAULT_PERMISSIONS: Permissions = { partner: true, monitoring: true };

export const ALERT_LEVELS = ['info', 'warning', 'danger'] as const;
/** A notice the provider shows every signed-in user, in both languages. */
export const alertSchema = z.object({
  id: z.number().int(),
  level: z.enum(ALERT_LEVELS),
  text_en: z.string(),
  text_ru: z.string(),
});
export type Alert = z.infer<typeof alertSchema>;
export const alertResponseSchema = z.object({ alert: alertSchema.nullable() });
export type AlertResponse = z.infer<typeof alertResponseSchema>;

export const clickCreateRequestSchema = z.object({
  referral_code: z
    .string({ error: 'PARTNER_CODE_INVALID' })
    .trim()
    .min(1, { error: 'PARTNER_CODE_INVALID' })
    .max(PARTNER_CODE_MAX, { error: 'PARTNER_CODE_INVALID' }),
});
export type ClickCreateRequest = z.infer<typeof clickCreateRequestSchema>;
