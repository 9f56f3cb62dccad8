import { useRef, useState } from 'react';
import { useFormIntent, type FormIntent } from '../../../shared/lib/form-intent';
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
 * Every decision of the operator area (a payment confirmed or rejected, a test server approved
 * or rejected, an operation retried or failed): sends it under the intent's key; a success
 * (with its toast) and a stale 409 settle the dialog; any other failure is handed back for the
 * dialog to show (the key is kept when the answer may have been lost).
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

/** A decision on screen: its kind (confirm, reject, retry…) and its subject (the row). */
export interface Decision<K extends string, S> {
  kind: K;
  subject: S;
}

export interface DecisionsOptions<K extends string, S, N> {
  /** The 409 codes that mean the subject has moved on (decided by someone else, finished). */
  staleCodes: readonly string[];
  /** The notice above the list once `decision` has settled; undefined for none. */
  noticeOf: (settlement: Settlement<unknown>, decision: Decision<K, S>) => N | undefined;
}

/**
 * A list's decisions on its rows, one at a time in a dialog (ConfirmDecisionDialog,
 * ReasonDecisionDialog): the decision on screen (`pending`), its dialog's props, its call
 * (decide() under one intent: one Idempotency-Key per decision) and the notice above the list.
 * Cancelled, the focus goes back to the row's button; settled, to the list's heading
 * (`headingRef`: the row's buttons go with the decision).
 */
export function useDecisions<K extends string, S, N = string>({
  staleCodes,
  noticeOf,
}: DecisionsOptions<K, S, N>) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const openerRef = useRef<HTMLElement | null>(null);
  const intent = useFormIntent();
  const [pending, setPending] = useState<Decision<K, S> | null>(null);
  const [open, setOpen] = useState(false);
  const [notice, setNotice] = useState<N | null>(null);

  const settle = (settlement: Settlement<unknown>) => {
    openerRef.current = headingRef.current;
    setOpen(false);
    const next = pending ? noticeOf(settlement, pending) : undefined;
    if (next !== undefined) setNotice(next);
  };

  return {
    headingRef,
    pending,
    notice,
    clearNotice: () => setNotice(null),
    /** Opens the dialog of `kind` on `subject`, from the row's button `opener`. */
    start: (kind: K, subject: S, opener: HTMLElement) => {
      openerRef.current = opener;
      setNotice(null);
      setPending({ kind, subject });
      setOpen(true);
    },
    /** The pending decision's call, for the dialog's `run`. */
    decide: <R>(options: Pick<DecideOptions<R>, 'fingerprint' | 'send' | 'successText'>) =>
      decide({ ...options, intent, staleCodes, onSettled: settle }),
    /** The dialog's open state and where its focus returns. */
    dialog: { open, onOpenChange: setOpen, returnFocusTo: openerRef },
  };
}
