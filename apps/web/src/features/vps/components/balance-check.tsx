import { Link } from 'react-router';
import { useBalances } from '../../auth/api/use-current-user';
import { useVpsFormat } from '../lib/use-vps-format';
import { ICON_PATHS, StrokeIcon } from '../../../shared/ui/icon/stroke-icon';
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
          <StrokeIcon size={16} strokeLinejoin="miter" d={ICON_PATHS.warning} />
          <span>
            {t('balance.short', { amount: cents(shortCents) })} <TopUpLink />
          </span>
        </p>
      ) : null}
    </div>
  );
}
