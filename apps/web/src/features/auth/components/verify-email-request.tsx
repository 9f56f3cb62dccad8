import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../shared/ui/form';
import { useVerifyEmailMutation } from '../api/auth-api';
import { useErrorText } from './use-error-text';

export interface VerifyEmailRequestProps {
  token: string;
  /** What shows while the call is under way. */
  pending: ReactNode;
}

/** Sends the confirmation link's token once (StrictMode runs effects twice) and tells the outcome. */
export function VerifyEmailRequest({ token, pending }: VerifyEmailRequestProps) {
  const { t } = useTranslation('auth');
  const errorText = useErrorText();
  const [verify, result] = useVerifyEmailMutation();
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    void verify({ token });
  }, [token, verify]);

  if (result.isUninitialized || result.isLoading) return pending;
  if (result.isSuccess) return <FormAlert tone="success">{t('verify.success')}</FormAlert>;
  return <FormAlert tone="error">{errorText.request(result.error)}</FormAlert>;
}
