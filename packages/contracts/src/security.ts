import * as z from 'zod/mini';
import { otpCodeSchema } from './auth.ts';
import { pageOf, pagingFields } from './balance.ts';
import { passkeyAssertionSchema, recoveryCodeInputSchema } from './factors.ts';
import { PASSWORD_MAX } from './limits.ts';

/**
 * Account security (issue 41): the security log the profile shows as "Account activity", and
 * step-up, the fresh proof asked for before money or secrets leave.
 */

/** What the security log records, one kind per event. */
export const SECURITY_EVENT_KINDS = [
  'sign_in',
  'sign_in_failed',
  'sign_in_locked',
  'second_factor_failed',
  'sign_out',
  'session_ended',
  'sessions_ended',
  'session_expired',
  'token_reuse',
  'password_changed',
  'password_reset_requested',
  'password_reset',
  'email_changed',
  'totp_enabled',
  'totp_disabled',
  'recovery_codes_created',
  'recovery_code_used',
  'passkey_added',
  'passkey_removed',
  'step_up',
  'step_up_failed',
  'vps_password_revealed',
  'monitoring_key_revealed',
  'monitoring_key_regenerated',
  'telegram_linked',
] as const;
export type SecurityEventKind = (typeof SECURITY_EVENT_KINDS)[number];

/** One event of "Account activity"; `browser` and `os` are read from its User-Agent. */
export const securityEventSchema = z.object({
  id: z.int(),
  kind: z.enum(SECURITY_EVENT_KINDS),
  at: z.iso.datetime(),
  ip: z.nullable(z.string()),
  browser: z.nullable(z.string()),
  os: z.nullable(z.string()),
  /** The event happened in the sign-in that asks. */
  current_session: z.boolean(),
  detail: z.record(z.string(), z.unknown()),
});
export type SecurityEvent = z.infer<typeof securityEventSchema>;

export const SECURITY_EVENTS_PER_PAGE = 20;
export const securityEventsQuerySchema = z.object(pagingFields(SECURITY_EVENTS_PER_PAGE));
export type SecurityEventsQuery = z.infer<typeof securityEventsQuerySchema>;
export const securityEventsResponseSchema = pageOf(securityEventSchema);
export type SecurityEventsResponse = z.infer<typeof securityEventsResponseSchema>;

/** How long a proof (the password, or a second factor) lets money and secrets leave. */
export const STEP_UP_WINDOW_MS = 5 * 60_000;

/** The proofs a step-up may be given with, in the order the console offers them. */
export const STEP_UP_METHODS = ['password', 'totp', 'passkey', 'recovery_code'] as const;
export type StepUpMethod = (typeof STEP_UP_METHODS)[number];

/**
 * The answer 403 STEP_UP_REQUIRED carries: the proofs this account can give (the password when
 * no second factor is on; the factors it has otherwise).
 */
export const stepUpRequiredSchema = z.object({
  message: z.string(),
  code: z.literal('STEP_UP_REQUIRED'),
  methods: z.array(z.enum(STEP_UP_METHODS)),
});
export type StepUpRequired = z.infer<typeof stepUpRequiredSchema>;

/**
 * POST /api/user/auth/step-up: one proof of the owner. `password` when the account has no second
 * factor; else `code` (the authenticator's 6 digits), `recovery_code`, or `passkey` (the
 * browser's AuthenticationResponseJSON to the options of POST /api/user/auth/step-up/passkey-options,
 * whose challenge it names).
 */
export const stepUpRequestSchema = z
  .object({
    password: z.optional(
      z
        .string({ error: 'REQUIRED' })
        .check(z.minLength(1, { error: 'REQUIRED' }), z.maxLength(PASSWORD_MAX)),
    ),
    code: z.optional(otpCodeSchema),
    recovery_code: z.optional(recoveryCodeInputSchema),
    passkey: z.optional(passkeyAssertionSchema),
  })
  .check(
    z.refine(
      (body) =>
        [body.password, body.code, body.recovery_code, body.passkey].filter(
          (proof) => proof !== undefined,
        ).length === 1,
      { error: 'REQUIRED' },
    ),
  );
export type StepUpRequest = z.infer<typeof stepUpRequestSchema>;

/** The proof a step-up request gives. */
export function stepUpMethodOf(body: StepUpRequest): StepUpMethod {
  if (body.password !== undefined) return 'password';
  if (body.code !== undefined) return 'totp';
  if (body.passkey !== undefined) return 'passkey';
  return 'recovery_code';
}
