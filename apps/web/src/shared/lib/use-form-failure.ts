import { useCallback, useEffect, useRef, useState } from 'react';
import type { FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { applyFieldErrors, errorText, type FailingForm } from './api-error';

export interface FormFailure {
  text: string;
  /** Changes on every failure, so the same text shown twice is announced and focused again. */
  serial: number;
  focus: boolean;
}

/**
 * The form-level alert of a failed submit (as the auth forms do it): the server's field errors
 * on their fields, its message (the code's translation, else its text) in the alert, and the
 * focus on the first field that got one, else on the alert.
 */
export function useFormFailure() {
  const { t } = useTranslation();
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const alertRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (failure?.focus) alertRef.current?.focus();
  }, [failure]);

  const fail = useCallback(
    <T extends FieldValues>(error: unknown, form?: FailingForm<T>) => {
      const firstField = form ? applyFieldErrors(error, form.fields, form.setError) : undefined;
      setFailure((previous) => ({
        text: errorText(t, error),
        serial: (previous?.serial ?? 0) + 1,
        focus: !firstField,
      }));
      if (firstField) form?.setFocus(firstField);
    },
    [t],
  );
  const clear = useCallback(() => setFailure(null), []);

  return { failure, alertRef, fail, clear };
}
