/**
 * The English texts of successful answers (`{ message, code }`). The console
 * shows its own translation of `code` and falls back to `message`.
 */
export const SUCCESS_MESSAGES = {
  SIGNUP_DONE: 'Registration complete. Check your e-mail and follow the link to confirm it.',
  EMAIL_VERIFIED: 'Your e-mail is confirmed. You can sign in now.',
  LOGGED_OUT: 'You have signed out',
  RESET_CODE_SENT: 'A 6-digit code has been sent to your e-mail',
  CODE_VALID: 'The code is correct',
  PASSWORD_RESET: 'Your password has been changed. You can sign in now.',
  LANGUAGE_CHANGED: 'The language has been changed',
  PASSWORD_CHANGED: 'Your password has been changed. Your other sessions are signed out.',
  SESSIONS_REVOKED: 'You have signed out everywhere else',
  SESSION_ENDED: 'The session has been ended',
  STEP_UP_DONE: 'Confirmed: you can continue',
  TELEGRAM_UNLINKED: 'The Telegram chat has been unlinked',
  CLICK_RECORDED: 'The click has been recorded',
  PAYMENT_CREATED: 'The payment has been created. Complete it on the payment page.',
  BALANCE_MOVED: 'The partner balance has been moved to the balance',
  WITHDRAWAL_RECEIVED: 'The withdrawal request has been received',
  PROMOCODE_CREATED: 'The promocode has been created',
  PROMOCODE_DELETED: 'The promocode has been deleted',
  CRYPTO_REQUESTED: 'Send exactly this amount to the address within 24 hours',
  CRYPTO_SUBMITTED: 'The payment has been sent for review',
  TRANSFER_DONE: 'The transfer is complete',
  PAYMENT_CONFIRMED: 'The payment is confirmed and the balance credited',
  PAYMENT_REJECTED: 'The payment has been rejected',
  BALANCE_ADJUSTED: 'The balance has been adjusted',
  APPROVAL_REQUESTED: 'Sent for approval: it takes effect when a second operator approves it',
  APPROVAL_APPROVED: 'Approved: it has taken effect',
  APPROVAL_DECLINED: 'Declined: nothing has changed',
  TICKET_CREATED: 'The ticket has been created',
  TICKET_MESSAGE_SENT: 'The message has been sent',
  TICKET_RESUMED: 'The ticket has been resumed',
  TICKET_CLOSE_DONE: 'The ticket has been closed',
  FAQ_CREATED: 'The question has been added to the FAQ',
  FAQ_UPDATED: 'The question has been saved',
  FAQ_DELETED: 'The question has been deleted from the FAQ',
} as const;

export type SuccessCode = keyof typeof SUCCESS_MESSAGES;
