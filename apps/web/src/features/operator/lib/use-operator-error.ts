import { ERROR_MESSAGES, isErrorCode } from '@tradehost/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, isApiRequestError } from '../../../shared/lib/api-error';

const MISSING = '\u0000missing';

/**
 * The reader's text of an error in the operator screens: the operator wording of the code when
 * it has one (operator:errors.<code>), else the shared one (errors:<code>), else the server's.
 * `field` takes a form message (an error code from the contracts, or a server text).
 */
export function useOperatorError() {
  const { t } = useTranslation('operator');
  const own = useCallback(
    (code: string | undefined): string | undefined => {
      if (!code) return undefined;
      const text = t(`errors.${code}`, { defaultValue: MISSING });
      return text === MISSING ? undefined : text;
    },
    [t],
  );
  const request = useCallback(
    (error: unknown): string =>
      own(isApiRequestError(error) ? error.code : undefined) ?? errorText(t, error),
    [own, t],
  );
  const field = useCallback(
    (message: string | undefined): string | undefined => {
      if (!message) return undefined;
      if (!isErrorCode(message)) return message;
      return own(message) ?? t(`errors:${message}`, { defaultValue: ERROR_MESSAGES[message] });
    },
    [own, t],
  );
  return { request, field };
}

/** The error's code, when it is an API error. */
export const codeOf = (error: unknown): string | undefined =>
  isApiRequestError(error) ? error.code : undefined;
