import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './auth-card.module.css';

export const DEV_MAILBOX_URL = '/api/dev/mailbox';

/**
 * Without SMTP the API keeps outgoing mail in a development mailbox (never in
 * production, where the route does not exist). Where it answers, the screens
 * that say "we sent you an e-mail" link to it, so a developer can go on.
 */
export function DevMailboxLink() {
  const { t } = useTranslation('auth');
  const [available, setAvailable] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    fetch(`${DEV_MAILBOX_URL}.json`, { signal: controller.signal })
      .then((response) => setAvailable(response.ok))
      .catch(() => undefined);
    return () => controller.abort();
  }, []);
  if (!available) return null;
  return (
    <p className={styles.muted}>
      {t('devMailbox.lead')}{' '}
      <a className={styles.link} href={DEV_MAILBOX_URL} target="_blank" rel="noreferrer">
        {t('devMailbox.link')}
      </a>
    </p>
  );
}
