import type { MonitoringAccount } from '@tradehost/contracts';
import { Link } from 'react-router';
import { buttonClassName } from '../../../shared/ui/form';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import { ActivationKey } from './activation-key';
import styles from './monitoring.module.css';

/**
 * An account no data has reached yet (no deal, no snapshot): no figures, which would all read
 * 0.00 % and $0.00, but what it waits for and how to get there: the subscription's key, the
 * publisher attached in the account's terminal, the guide. The page fills in by itself.
 */
export function WaitingForData({ account }: { account: MonitoringAccount }) {
  const { t } = useMonitoringFormat();
  return (
    <section className={`${styles.section} ${styles.waiting}`} aria-labelledby="waiting-title">
      <div className={styles.checks}>
        <h2 id="waiting-title" className={styles.sectionTitle}>
          {t('waiting.title')}
        </h2>
        <p className={styles.muted}>{t('waiting.lead', { login: account.login })}</p>
      </div>
      <ol className={styles.steps}>
        <li>
          <div className={styles.checks}>
            {t('waiting.key')}
            <ActivationKey subscriptionId={account.subscription_id} regenerate={false} />
          </div>
        </li>
        <li>{t('waiting.attach', { login: account.login, platform: account.platform })}</li>
        <li>{t('waiting.fill')}</li>
      </ol>
      <p className={styles.row}>
        <Link to="/online-monitoring/guide" className={buttonClassName({ variant: 'secondary' })}>
          {t('waiting.guide')}
        </Link>
      </p>
    </section>
  );
}
