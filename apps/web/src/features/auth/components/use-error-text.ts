import { ERROR_MESSAGES, isErrorCode } from '@tradehost/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../shared/lib/api-error';

/**
 * Translators for the form errors: `field` for a react-hook-form message (an
 * error code from the contracts, or a server text), `request` for a failed
 * call (the shell's errorText: the code's translation, else the server text).
 */
export function useErrorText() {
  const { t } = useTranslation('errors');
  const field = useCallback(
    (message: string | undefined): string | undefined => {
      if (!message) return undefined;
      if (isErrorCode(message)) return t(message, { defaultValue: ERROR_MESSAGES[message] });
      return message;
    },
    [t],
  );
  const request = useCallback((error: unknown): string => errorText(t, error), [t]);
  return { field, request };
}
