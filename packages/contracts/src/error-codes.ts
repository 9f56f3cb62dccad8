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
  TEXT_CHARACTERS_INVALID: 'The text contains characters that are not allowed',
  BODY_NOT_ACCEPTED: 'This request takes no data',
  BODY_TOO_DEEP: 'The data is nested too deeply',
  // money (SPEC 8 gives the first six texts)
  INSUFFICIENT_FUNDS_PAYMENT: 'Insufficient funds for payment',
  INSUFFICIENT_FUNDS_TRANSFER: 'Insufficient funds for the transfer',
  RECIPIENT_NOT_FOUND: 'E-mail does not exist',
  TRANSFER_FAILED: 'An error occurred during the transfer. Please try again later',
  TXID_TAKEN: 'The transaction id has already been taken',
  TXID_IN_USE: 'This txid is already in use.',
  INCORRECT_DATA: 'Incorrect data - contact support',
  TRANSFER_TO_SELF: 'You cannot transfer money to yourself',
  INSUFFICIENT_FUNDS: 'Insufficient funds',
  AMOUNT_INVALID: 'Enter an amount in dollars with at most two decimals',
  AMOUNT_BELOW_MINIMUM: 'The amount is below the minimum for this method',
  AMOUNT_ABOVE_MAXIMUM: 'The amount is above the maximum for this method',
  METHOD_UNAVAILABLE: 'This payment method is not available',
  NETWORK_UNKNOWN: 'This network is not supported',
  WALLET_REQUIRED: 'Enter your wallet address',
  WALLET_INVALID: 'The wallet address is invalid',
  TXID_REQUIRED: 'Enter the transaction id (TXID)',
  TXID_INVALID: 'The transaction id is invalid',
  PERIOD_INVALID: 'The period is invalid',
  IDEMPOTENCY_KEY_REQUIRED: 'The Idempotency-Key header is required',
  IDEMPOTENCY_KEY_INVALID: 'The Idempotency-Key header is invalid',
  IDEMPOTENCY_KEY_REUSED: 'This Idempotency-Key was used for a different request',
  IDEMPOTENCY_KEY_IN_PROGRESS: 'A request with this Idempotency-Key is still in progress',
  PAYMENT_ALREADY_REVIEWED: 'This payment has already been reviewed',
  REASON_REQUIRED: 'A reason is required',
  REASON_TOO_LONG: 'The reason is too long',
  SIGNATURE_INVALID: 'The signature is invalid',
  PAYMENT_MISMATCH: 'The amount or currency does not match the order',
  // VPS
  RATE_NOT_FOUND: 'This rate is not available',
  PERIOD_UNKNOWN: 'Choose a rental period of 1, 3, 6 or 12 months',
  PROMOCODE_NOT_FOUND: 'Promocode not found',
  PROMOCODE_ONE_MONTH: 'A promocode gives a discount on a 1-month rental only',
  PROMOCODE_INVALID: 'A promocode is 3 to 32 letters, digits, "-" or "_"',
  PROMOCODE_TAKEN: 'This promocode already exists',
  DISCOUNT_INVALID: 'A discount is a whole percentage from 0 to 90',
  SOURCE_REQUIRED: 'Tell us how you heard about us',
  SOURCE_OTHER_TOO_LONG: 'The answer is too long',
  SEARCH_INVALID: 'Search by the server number (digits)',
  COMMENT_TOO_LONG: 'The comment is too long (200 characters at most)',
  SERVER_NOT_FOUND: 'Server not found',
  SERVER_NOT_READY: 'The server is still being created',
  SERVER_NOT_ACTIVE: 'The server is not active',
  SERVER_REVOKED: 'The server has been revoked and can no longer be renewed',
  SERVER_ALREADY_RUNNING: 'The server is already running',
  SERVER_ALREADY_STOPPED: 'The server is already shut down',
  OPERATION_IN_PROGRESS:
    'Another operation is running on this server. Try again when it has finished (1-2 minutes)',
  OPERATION_NOT_STUCK: 'This operation is not stuck',
  OPERATION_FINISHED: 'This operation has already finished',
  UPGRADE_PENDING: 'An upgrade request is already being processed',
  UPGRADE_RATE_INVALID: 'Choose a larger rate than the current one',
  UPGRADE_DATE_INVALID: 'Choose a date from today to the day before the paid-until date',
  UPGRADE_NOT_FOR_TRIAL: 'A test server cannot be upgraded',
  TEST_SERVER_TAKEN: 'You have already ordered a test server',
  TEST_REQUEST_ALREADY_DECIDED: 'This request has already been processed',
  HYPERVISOR_UNAVAILABLE: 'The servers are unavailable right now. Please try again later',
  SERVICE_BUSY: 'The service is busy. Please try again later',
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
