import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { FieldValues } from 'react-hook-form';
import { applyFieldErrors, type FailingForm } from '../../../shared/lib/api-error';
import type { FormAlertTone } from '../../../shared/ui/form';
import { useErrorText } from './use-error-text';

export interface FormMessage {
  tone: FormAlertTone;
  text: ReactNode;
  detail?: ReactNode;
  /** Move the focus to the alert (after a failed submit with no field to focus). */
  focus: boolean;
  /** Changes on every show, so the same text shown twice is focused again. */
  serial: number;
}

/** The form-level alert: its message, and a ref that takes focus when asked. */
export function useFormMessage() {
  const [message, setMessage] = useState<FormMessage | null>(null);
  const alertRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (message?.focus) alertRef.current?.focus();
  }, [message]);

  const show = useCallback(
    (
      tone: FormAlertTone,
      text: ReactNode,
      options: { detail?: ReactNode; focus?: boolean } = {},
    ) => {
      setMessage((previous) => ({
        tone,
        text,
        detail: options.detail,
        focus: options.focus ?? tone === 'error',
        serial: (previous?.serial ?? 0) + 1,
      }));
    },
    [],
  );
  const clear = useCallback(() => setMessage(null), []);

  const errorText = useErrorText();
  /**
   * After a failed submit: the server's field errors on their fields, its message in the
   * alert, and the focus on the first field that got one, or else on the alert.
   */
  const fail = useCallback(
    <T extends FieldValues>(error: unknown, form: FailingForm<T>, detail?: ReactNode) => {
      const firstField = applyFieldErrors(error, form.fields, form.setError);
      show('error', errorText.request(error), { detail, focus: !firstField });
      if (firstField) form.setFocus(firstField);
    },
    [errorText, show],
  );

  return { message, alertRef, show, clear, fail };
}
