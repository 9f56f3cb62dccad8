import { useRef, useState } from 'react';
import { isApiRequestError } from '../../../shared/lib/api-error';
import { createIntent, keepsIntent } from '../../../shared/lib/idempotency';

export interface Intent {
  /**
   * The Idempotency-Key of what is being sent, named by `fingerprint` (the action, its subject
   * and its fields): the same key while the fingerprint stays, a new one when it changes.
   */
  key(fingerprint: string): string;
  /** The call succeeded: the intent is over, the next one gets a new key. */
  succeeded(): void;
  /**
   * The call failed: a definitive refusal ends the intent; no answer, a 409 or a 5xx keeps it
   * (the API may have done it, so a retry must carry the same key).
   */
  failed(error: unknown): void;
}

/** One idempotency key per intent (shared/lib/idempotency), for a screen's money-moving calls. */
export function useIntent(): Intent {
  const [intent] = useState(createIntent);
  const fingerprint = useRef<string | null>(null);
  const [api] = useState<Intent>(() => {
    const renew = () => {
      intent.settle();
      fingerprint.current = null;
    };
    return {
      key(next) {
        if (fingerprint.current !== null && fingerprint.current !== next) intent.settle();
        fingerprint.current = next;
        return intent.current();
      },
      succeeded: renew,
      failed(error) {
        if (!keepsIntent(isApiRequestError(error) ? error.status : undefined)) renew();
      },
    };
  });
  return api;
}
