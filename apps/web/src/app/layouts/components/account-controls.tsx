import type { User } from '@tradehost/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLogoutMutation } from '../../../features/auth/api/auth-api';
import { formatBalance } from '../../../shared/lib/format-balance';
import { StrokeIcon } from '../../../shared/ui/icon/stroke-icon';
import styles from './account-controls.module.css';

/** The balance in dollars (short form), a link to the balance operations. */
export function BalanceBadge({ balance }: { balance: number | undefined }) {
  const { t, i18n } = useTranslation('common');
  return (
    <Link to="/balance-operations" className={styles.balance}>
      <span className={styles.balanceCaption}>{t('header.balance')}</span>{' '}
      <span className={styles.balanceValue} data-testid="header-balance">
        {/* a dash until the user has loaded, as the balance page's cards: not a false $0 */}
        {balance === undefined ? '—' : formatBalance(balance, i18n.language)}
      </span>
    </Link>
  );
}

/** The avatar (photo, else the name's first letter), a link to the profile. */
export function ProfileButton({ user }: { user: User | undefined }) {
  const { t } = useTranslation('common');
  const name = user?.name.trim() ?? '';
  const letter = name ? Array.from(name)[0]!.toUpperCase() : '';
  return (
    <Link
      to="/profile"
      className={styles.profile}
      aria-label={name ? t('header.profileOf', { name }) : t('header.profile')}
    >
      {user?.photo_path ? (
        <img className={styles.avatarImage} src={user.photo_path} alt="" width="32" height="32" />
      ) : (
        <span className={styles.avatarLetter} aria-hidden="true" data-testid="avatar-letter">
          {letter}
        </span>
      )}
    </Link>
  );
}

/** Ends the session; the app falls back to the signed-out routes whatever the server answers. */
export function LogoutButton({ block = false }: { block?: boolean }) {
  const { t } = useTranslation('common');
  const [logout, { isLoading }] = useLogoutMutation();
  return (
    <button
      type="button"
      className={block ? styles.logoutBlock : styles.logout}
      disabled={isLoading}
      onClick={() => void logout()}
    >
      <StrokeIcon
        size={18}
        strokeWidth={1.7}
        d="M14 4h4a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-4M10 8l-4 4 4 4M6 12h10"
      />
      <span>{isLoading ? t('header.loggingOut') : t('header.logout')}</span>
    </button>
  );
}
