import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { FormAlert } from '../../../shared/ui/form';
import { useVerifyEmailMutation } from '../api/auth-api';
import { useErrorText } from './use-error-text';

const VERIFY_PARAM = 'verify';

/**
 * The e-mail confirmation link lands on /login?verify=<token>: confirm it once
 * (StrictMode runs effects twice; the ref remembers the token already sent),
 * drop the token from the address bar, and show how it went.
 */
export function VerifyEmailStatus() {
  const { t } = useTranslation('auth');
  const errorText = useErrorText();
  const [searchParams, setSearchParams] = useSearchParams();
  const token = searchParams.get(VERIFY_PARAM);
  const [verify, result] = useVerifyEmailMutation();
  const sentToken = useRef<string | null>(null);

  useEffect(() => {
    if (token === null || sentToken.current === token) return;
    sentToken.current = token;
    void verify({ token });
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        next.delete(VERIFY_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [token, verify, setSearchParams]);

  if (result.isUninitialized && token === null) return null;
  if (result.isUninitialized || result.isLoading) {
    return <FormAlert tone="info">{t('verify.pending')}</FormAlert>;
  }
  if (result.isSuccess) {
    return <FormAlert tone="success">{t('verify.success')}</FormAlert>;
  }
  return <FormAlert tone="error">{errorText.request(result.error)}</FormAlert>;
}
