import * as z from 'zod/mini';
import { otpCodeSchema, tokenResponseSchema } from './auth.ts';
import { singleLine } from './input.ts';
import { PASSWORD_MAX } from './limits.ts';

/**
 * The second factor (issue 41): an authenticator app (TOTP, RFC 6238) with ten one-time recovery
 * codes, and passkeys (WebAuthn). Managed under /api/user/factors; asked for at sign-in after
 * the password (POST /api/user/auth/second-factor) and by step-up.
 */

/** How the second step of a sign-in (or a step-up) can be given. */
export const SECOND_FACTOR_METHODS = ['totp', 'passkey', 'recovery_code'] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

/** How many recovery codes a set has. */
export const RECOVERY_CODES_PER_SET = 10;
/** The longest recovery code taken as typed (a code is 11 characters; spaces may come along). */
export const RECOVERY_CODE_TYPED_MAX = 64;
export const PASSKEY_NAME_MAX = 64;
/** How long the half-session of a sign-in waiting for its second factor lives, and its tries. */
export const SECOND_FACTOR_SIGN_IN_TTL_MS = 5 * 60_000;
export const SECOND_FACTOR_SIGN_IN_TRIES = 5;

const base64url = (max: number) =>
  z
    .string({ error: 'PASSKEY_INVALID' })
    .check(
      z.maxLength(max, { error: 'PASSKEY_INVALID' }),
      z.regex(/^[A-Za-z0-9_-]*={0,2}$/, { error: 'PASSKEY_INVALID' }),
    );

/** What the browser's navigator.credentials.get() answered (AuthenticationResponseJSON). */
export const passkeyAssertionSchema = z.object({
  id: base64url(1024),
  rawId: base64url(1024),
  type: z.literal('public-key', { error: 'PASSKEY_INVALID' }),
  response: z.object({
    clientDataJSON: base64url(4096),
    authenticatorData: base64url(4096),
    // an ML-DSA-44 signature is 2,420 bytes (3,227 characters): @simplewebauthn offers ML-DSA-44
    // first where the runtime has it, and Chromium's authenticators take it
    signature: base64url(4096),
    userHandle: z.optional(base64url(256)),
  }),
  clientExtensionResults: z._default(z.record(z.string(), z.unknown()), {}),
  authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'])),
});
export type PasskeyAssertion = z.infer<typeof passkeyAssertionSchema>;

/** What navigator.credentials.create() answered (RegistrationResponseJSON). */
export const passkeyAttestationSchema = z.object({
  id: base64url(1024),
  rawId: base64url(1024),
  type: z.literal('public-key', { error: 'PASSKEY_INVALID' }),
  response: z.object({
    clientDataJSON: base64url(4096),
    attestationObject: base64url(16384),
    authenticatorData: z.optional(base64url(16384)),
    transports: z.optional(z.array(z.string().check(z.maxLength(32))).check(z.maxLength(10))),
    publicKeyAlgorithm: z.optional(z.int()),
    publicKey: z.optional(base64url(4096)),
  }),
  clientExtensionResults: z._default(z.record(z.string(), z.unknown()), {}),
  authenticatorAttachment: z.optional(z.enum(['platform', 'cross-platform'])),
});
export type PasskeyAttestation = z.infer<typeof passkeyAttestationSchema>;

export const recoveryCodeInputSchema = z
  .string({ error: 'SECOND_FACTOR_INVALID' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'REQUIRED' }),
    z.maxLength(RECOVERY_CODE_TYPED_MAX, { error: 'SECOND_FACTOR_INVALID' }),
  );

/** One proof of the second factor: exactly one of `code`, `recovery_code`, `passkey`. */
const proofFields = {
  code: z.optional(otpCodeSchema),
  recovery_code: z.optional(recoveryCodeInputSchema),
  passkey: z.optional(passkeyAssertionSchema),
};
const proofCount = (body: { code?: unknown; recovery_code?: unknown; passkey?: unknown }) =>
  [body.code, body.recovery_code, body.passkey].filter((proof) => proof !== undefined).length;

/** The name a passkey is known by in the list: one line, 1 to 64 characters. */
export const passkeyNameSchema = z
  .string({ error: 'PASSKEY_NAME_REQUIRED' })
  .check(
    z.trim(),
    z.minLength(1, { error: 'PASSKEY_NAME_REQUIRED' }),
    z.maxLength(PASSKEY_NAME_MAX, { error: 'PASSKEY_NAME_TOO_LONG' }),
    singleLine(),
  );

// --- sign-in -----------------------------------------------------------------------------------

/**
 * The answer to a right password when the account has a second factor: a half-session `token`
 * (5 minutes, 5 tries, good for nothing but the second step), the ways to give it.
 */
export const secondFactorChallengeSchema = z.object({
  second_factor: z.object({
    token: z.string(),
    methods: z.array(z.enum(SECOND_FACTOR_METHODS)),
    expires: z.iso.datetime(),
  }),
});
export type SecondFactorChallenge = z.infer<typeof secondFactorChallengeSchema>;

/** POST /api/user/auth/login: the session, or the second step it waits for. */
export const loginResponseSchema = z.union([tokenResponseSchema, secondFactorChallengeSchema]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const isSecondFactorChallenge = (answer: LoginResponse): answer is SecondFactorChallenge =>
  'second_factor' in answer;

const pendingToken = z
  .string({ error: 'SIGN_IN_PENDING_EXPIRED' })
  .check(
    z.minLength(1, { error: 'SIGN_IN_PENDING_EXPIRED' }),
    z.maxLength(200, { error: 'SIGN_IN_PENDING_EXPIRED' }),
  );

/** POST /api/user/auth/second-factor: the half-session's token and one proof. */
export const secondFactorSignInRequestSchema = z
  .object({ token: pendingToken, ...proofFields })
  .check(z.refine((body) => proofCount(body) === 1, { error: 'SECOND_FACTOR_PROOF_REQUIRED' }));
export type SecondFactorSignInRequest = z.infer<typeof secondFactorSignInRequestSchema>;

/** POST /api/user/auth/second-factor/passkey-options: the half-session asks for a challenge. */
export const pendingSignInRequestSchema = z.object({ token: pendingToken });
export type PendingSignInRequest = z.infer<typeof pendingSignInRequestSchema>;

/** Options for navigator.credentials.get() / create() as @simplewebauthn makes them. */
export const passkeyOptionsSchema = z.record(z.string(), z.unknown());

// --- the factors page --------------------------------------------------------------------------

export const passkeyItemSchema = z.object({
  id: z.int(),
  name: z.string(),
  created_at: z.iso.datetime(),
  last_used_at: z.nullable(z.iso.datetime()),
});
export type PasskeyItem = z.infer<typeof passkeyItemSchema>;

/** GET /api/user/factors. */
export const factorsResponseSchema = z.object({
  totp: z.object({
    enabled: z.boolean(),
    /** When the authenticator was confirmed; null while off. */
    since: z.nullable(z.iso.datetime()),
  }),
  passkeys: z.array(passkeyItemSchema),
  recovery_codes: z.object({
    /** Unused codes of the current set (0 when none was made). */
    left: z.int(),
    /** When the current set was made; null when there is none. */
    created_at: z.nullable(z.iso.datetime()),
  }),
});
export type FactorsResponse = z.infer<typeof factorsResponseSchema>;

/** POST /api/user/factors/totp: a new secret to enter in the authenticator app. */
export const totpEnrolmentSchema = z.object({
  /** The otpauth:// URI the QR code holds (issuer TradeHost, the e-mail as the account). */
  uri: z.string(),
  /** The secret in base32, for typing in by hand. */
  secret: z.string(),
  /** The QR code of `uri`, an SVG data URL. */
  qr: z.string(),
});
export type TotpEnrolment = z.infer<typeof totpEnrolmentSchema>;

export const totpConfirmRequestSchema = z.object({ code: otpCodeSchema });
export type TotpConfirmRequest = z.infer<typeof totpConfirmRequestSchema>;

/** A new set of recovery codes, shown this once. */
export const recoveryCodesResponseSchema = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponseSchema>;

/**
 * Removing a factor: a fresh step-up is enough while another factor stays; removing the last one
 * needs the account's password and a current proof (a code, a recovery code or a passkey) here.
 */
export const removeFactorRequestSchema = z
  .object({
    password: z.optional(
      z
        .string({ error: 'CURRENT_PASSWORD_REQUIRED' })
        .check(
          z.minLength(1, { error: 'CURRENT_PASSWORD_REQUIRED' }),
          z.maxLength(PASSWORD_MAX, { error: 'CURRENT_PASSWORD_WRONG' }),
        ),
    ),
    ...proofFields,
  })
  .check(z.refine((body) => proofCount(body) <= 1, { error: 'SECOND_FACTOR_PROOF_REQUIRED' }));
export type RemoveFactorRequest = z.input<typeof removeFactorRequestSchema>;

export const passkeyRegisterRequestSchema = z.object({
  name: passkeyNameSchema,
  response: passkeyAttestationSchema,
});
export type PasskeyRegisterRequest = z.input<typeof passkeyRegisterRequestSchema>;

/**
 * POST /api/user/factors/passkeys: the passkey added. When it turned the second factor on and the
 * account had no unused recovery codes, ten are made with it (`recovery_codes`, shown this once,
 * as after the authenticator app's first code): a passkey-only account is not locked out when its
 * device is lost.
 */
export const passkeyAddedSchema = z.extend(passkeyItemSchema, {
  recovery_codes: z.optional(z.array(z.string())),
});
export type PasskeyAdded = z.infer<typeof passkeyAddedSchema>;

export const passkeyRenameRequestSchema = z.object({ name: passkeyNameSchema });
export type PasskeyRenameRequest = z.infer<typeof passkeyRenameRequestSchema>;
