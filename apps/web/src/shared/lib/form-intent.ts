import { useState } from 'react';
import { isApiRequestError } from './api-error';
import { createIntent, keepsIntent } from './idempotency';

/**
 * The Idempotency-Key of one money-moving form or action (idempotency.ts): one key per intent.
 * The same key goes with every retry of the same payload while the last attempt left the intent
 * open (no answer, 409 in progress, 5xx); a success or a definitive refusal ends it, and so does
 * a change of the payload (the API would refuse the old key with a different body).
 */
export class FormIntent {
  private readonly intent = createIntent();
  private payload: string | null = null;
  private sending = false;

  /**
   * The key to send `payload` with: the form's values, or a fingerprint of the action (its
   * kind, its subject and its fields) such as `confirm:42`.
   */
  keyFor(payload: unknown): string {
    const fingerprint = JSON.stringify(payload);
    if (this.payload !== null && this.payload !== fingerprint) this.intent.settle();
    this.payload = fingerprint;
    return this.intent.current();
  }

  /**
   * An attempt to send `payload`: its key, or null while the previous attempt has no answer yet
   * (a second click that came before the button was disabled sends nothing).
   */
  start(payload: unknown): string | null {
    if (this.sending) return null;
    this.sending = true;
    return this.keyFor(payload);
  }

  /** The money moved (or the request was accepted): the next submit is a new intent. */
  succeeded(): void {
    this.sending = false;
    this.end();
  }

  /** A failure: kept for a retry when the server may not have finished, ended otherwise. */
  failed(error: unknown): void {
    this.sending = false;
    const status = isApiRequestError(error) ? error.status : undefined;
    if (!keepsIntent(status)) this.end();
  }

  private end(): void {
    this.intent.settle();
    this.payload = null;
  }
}

/** A FormIntent that lives as long as the component (a screen's or a form's). */
export function useFormIntent(): FormIntent {
  const [intent] = useState(() => new FormIntent());
  return intent;
}
