/**
 * Idempotency keys of money-moving calls. One key per intent (a filled-in form): the same key
 * goes with every retry of that intent (a lost answer, a double click), so the API moves the
 * money once; a definitive answer (success or a refusal) ends the intent and the next submit
 * gets a new key.
 */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  // randomUUID needs a secure context; a console opened over plain http on a LAN address lacks one
  return randomHex();
}

/** 128 random bits as 32 hex digits (getRandomValues works outside a secure context too). */
export function randomHex(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Whether a failure leaves the intent open (no answer, or the server did not finish): retry with the same key. */
export function keepsIntent(status: number | undefined): boolean {
  return status === undefined || status === 0 || status === 409 || status >= 500;
}

/** The key of the current intent: `current()` until `settle()`, then a new one. */
export function createIntent(): { current(): string; settle(): void } {
  let key = newIdempotencyKey();
  return {
    current: () => key,
    settle: () => {
      key = newIdempotencyKey();
    },
  };
}
