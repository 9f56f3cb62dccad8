import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, fieldErrorText } from '../../../shared/lib/api-error';

/**
 * Translators for the form errors: `field` for a react-hook-form message (an
 * error code from the contracts, or a server text), `request` for a failed
 * call (the shell's errorText: the code's translation, else the server text).
 */
export function useErrorText() {
  const { t } = useTranslation('errors');
  const field = useCallback(
    (message: string | undefined): string | undefined => fieldErrorText(t, message),
    [t],
  );
  const request = useCallback((error: unknown): string => errorText(t, error), [t]);
  return { field, request };
}
