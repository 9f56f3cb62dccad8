import type { FormIntent } from '../../../shared/lib/form-intent';
import { notify } from '../../../shared/ui/toast/notify';
import { codeOf } from '../lib/use-operator-error';

/**
 * How a decision in a dialog ended: made here (with the server's answer), or the subject had
 * moved on meanwhile (a 409 with one of the `staleCodes`: decided by someone else, finished).
 */
export type Settlement<R> =
  { outcome: 'decided'; result: R } | { outcome: 'stale'; error: unknown };

export interface DecideOptions<R> {
  intent: FormIntent;
  /** A fingerprint of the decision (kind, subject, fields): one Idempotency-Key per intent. */
  fingerprint: string;
  send: (idempotencyKey: string) => Promise<R>;
  /** The toast of a success. */
  successText: (result: R) => string;
  /** The 409 codes that mean "it has moved on": the dialog closes and the list refreshes. */
  staleCodes: readonly string[];
  onSettled: (settlement: Settlement<R>) => void;
}

/**
 * The review queue's decide() for any decision of the operator area: sends it under the
 * intent's key; a success (with its toast) and a stale 409 settle the dialog; any other failure
 * is handed back for the dialog to show (the key is kept when the answer may have been lost).
 */
export async function decide<R>({
  intent,
  fingerprint,
  send,
  successText,
  staleCodes,
  onSettled,
}: DecideOptions<R>): Promise<{ error: unknown } | null> {
  let result: R;
  try {
    result = await send(intent.keyFor(fingerprint));
  } catch (error) {
    intent.failed(error);
    const code = codeOf(error);
    if (!code || !staleCodes.includes(code)) return { error };
    onSettled({ outcome: 'stale', error });
    return null;
  }
  intent.succeeded();
  notify('success', successText(result));
  onSettled({ outcome: 'decided', result });
  return null;
}
