import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, hasErrorCode } from './api-error';

export interface Failure {
  text: string;
  /** The refusal needs money on the balance: the alert offers the top-up. */
  needsTopUp: boolean;
  /** Changes on every failure, so the same text shown twice is announced and focused again. */
  serial: number;
}

/**
 * The alert of a failed call in a dialog or a form: the server's message (the code's
 * translation, else its text), focused when it appears so that it is read out.
 */
export function useFailure() {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<Failure | null>(null);
  const alertRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (failure) alertRef.current?.focus();
  }, [failure]);

  const fail = useCallback(
    (error: unknown) =>
      setFailure((previous) => ({
        text: errorText(t, error),
        needsTopUp: hasErrorCode(error, 'INSUFFICIENT_FUNDS_PAYMENT'),
        serial: (previous?.serial ?? 0) + 1,
      })),
    [t],
  );
  const clear = useCallback(() => setFailure(null), []);
  return { failure, alertRef, fail, clear };
}
