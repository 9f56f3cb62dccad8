/**
 * Every error the API can answer with: a stable code and the English text of
 * SPEC.md section 8. The console shows its own translation of the code and
 * falls back to the text.
 */
export const ERROR_MESSAGES = {
  VALIDATION: 'The data is invalid',
  REQUIRED: 'This field is required',
  NAME_REQUIRED: 'Name is required',
  NAME_TOO_LONG: 'Name is too long',
  EMAIL_INVALID: 'E-mail is invalid',
  EMAIL_TAKEN: 'E-mail is already used',
  PARTNER_CODE_INVALID: 'Invalid partner code',
  PASSWORD_TOO_SHORT: 'Password must be at least 8 characters',
  PASSWORD_TOO_LONG: 'Password is too long',
  PASSWORDS_DIFFER: 'Passwords do not match',
  CONSENT_REQUIRED: 'You must accept the offer and the privacy policy',
  CODE_FORMAT: 'The code must be 6 digits',
  LOGIN_NOT_FOUND: 'Login or password not found',
  EMAIL_NOT_VERIFIED: 'Email not verified',
  VERIFY_LINK_INVALID: 'The confirmation link is invalid',
  VERIFY_LINK_EXPIRED: 'The confirmation link has expired',
  EMAIL_ALREADY_VERIFIED: 'The e-mail is already confirmed',
  CODE_INVALID: 'Code is invalid or expired',
  EMAIL_NOT_FOUND: 'Email not found',
  UNAUTHORIZED: 'Unauthorized',
  SESSION_EXPIRED: 'The session has expired, please sign in again',
  FORBIDDEN: 'Forbidden',
  ORIGIN_REJECTED: 'The request origin is not allowed',
  NOT_FOUND: 'Not found',
  TOO_MANY_REQUESTS: 'Too much requests - try later ...',
  PAYLOAD_TOO_LARGE: 'The request is too large',
  BAD_REQUEST: 'The request is malformed',
  UNSUPPORTED_MEDIA_TYPE: 'The content type is not supported',
  INTERNAL: 'Internal server error',
} as const;

export type ErrorCode = keyof typeof ERROR_MESSAGES;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_MESSAGES, value);
}

/** The code whose English text is `message`, when there is one. */
export function errorCodeOf(message: string): ErrorCode | undefined {
  return (Object.keys(ERROR_MESSAGES) as ErrorCode[]).find(
    (code) => ERROR_MESSAGES[code] === message,
  );
}
