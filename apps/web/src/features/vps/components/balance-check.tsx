import { Link } from 'react-router';
import { useBalances } from '../../auth/api/use-current-user';
import { useVpsFormat } from '../lib/use-vps-format';
import styles from './vps.module.css';

export const TOP_UP_PATH = '/balance-operations?tab=topup';

/** The link to the top-up, where a payment is short of money. */
export function TopUpLink() {
  const { t } = useVpsFormat();
  return (
    <Link className={styles.topUp} to={TOP_UP_PATH}>
      {t('balance.topUp')}
    </Link>
  );
}

/**
 * The reader's balance beside a price, and when it is short, by how much with a link to the
 * top-up. Nothing is refused here: the API has the last word (a balance may change meanwhile).
 */
export function BalanceCheck({ totalCents }: { totalCents: number | null }) {
  const { t, money, cents } = useVpsFormat();
  const { balance } = useBalances();
  if (balance === undefined) return null;
  const shortCents = totalCents === null ? 0 : totalCents - Math.round(balance * 100);
  return (
    <div className={styles.balanceCheck}>
      <p className={styles.balanceLine}>
        <span>{t('balance.yours')}</span>
        <span className={styles.money} data-testid="vps-balance">
          {money(balance)}
        </span>
      </p>
      {shortCents > 0 ? (
        <p className={styles.short} role="status">
          <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
            <path
              d="M12 8v5M12 16.5v.5M10.3 3.9 2.4 18a2 2 0 0 0 1.7 3h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
            />
          </svg>
          <span>
            {t('balance.short', { amount: cents(shortCents) })} <TopUpLink />
          </span>
        </p>
      ) : null}
    </div>
  );
}
