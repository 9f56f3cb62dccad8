import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { FormAlert } from '../../../shared/ui/form';

const VERIFY_PARAM = 'verify';

// The call (and the API behind it) loads only when a confirmation link brought the reader here.
const VerifyEmailRequest = lazy(() =>
  import('./verify-email-request').then((module) => ({ default: module.VerifyEmailRequest })),
);

/**
 * The e-mail confirmation link lands on /login?verify=<token>: confirm it once (StrictMode runs
 * effects twice; the ref remembers the token already taken), drop the token from the address
 * bar, and show how it went.
 */
export function VerifyEmailStatus() {
  const { t } = useTranslation('auth');
  const [searchParams, setSearchParams] = useSearchParams();
  const token = searchParams.get(VERIFY_PARAM);
  // the link's token, kept once it has left the address bar
  const [linkToken, setLinkToken] = useState(token);
  const takenToken = useRef<string | null>(null);

  useEffect(() => {
    if (token === null || takenToken.current === token) return;
    takenToken.current = token;
    setLinkToken(token);
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        next.delete(VERIFY_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [token, setSearchParams]);

  if (linkToken === null) return null;
  const pending = <FormAlert tone="info">{t('verify.pending')}</FormAlert>;
  return (
    <Suspense fallback={pending}>
      <VerifyEmailRequest key={linkToken} token={linkToken} pending={pending} />
    </Suspense>
  );
}
