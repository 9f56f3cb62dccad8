import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../shared/lib/format-money';
import { useBalances } from '../../auth/api/use-current-user';
import styles from './balance.module.css';

/** The balance and the partner balance, in full (the header shows the short form). */
export function BalanceSummary() {
  const { t, i18n } = useTranslation('balance');
  const { balance, partner, isLoading } = useBalances();
  const money = (dollars: number | undefined) =>
    dollars === undefined ? '—' : formatMoney(dollars, i18n.language);
  return (
    <section className={styles.summary} aria-label={t('summary.label')} aria-busy={isLoading}>
      <div className={styles.stat}>
        <h2 className={styles.statLabel}>{t('summary.balance')}</h2>
        <p className={styles.statValue} data-testid="summary-balance">
          {money(balance)}
        </p>
        <p className={styles.statHint}>{t('summary.balanceHint')}</p>
      </div>
      <div className={styles.stat}>
        <h2 className={styles.statLabel}>{t('summary.partner')}</h2>
        <p className={styles.statValue} data-testid="summary-partner">
          {money(partner)}
        </p>
        <p className={styles.statHint}>{t('summary.partnerHint')}</p>
      </div>
    </section>
  );
}
