import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { FormAlertTone } from '../../../shared/ui/form';

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

  return { message, alertRef, show, clear };
}
