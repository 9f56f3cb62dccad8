import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClassName } from '../../../shared/ui/form';
import { StrokeIcon } from '../../../shared/ui/icon/stroke-icon';
import { AuthCard } from './auth-card';
import { DevMailboxLink } from './dev-mailbox-link';
import { useFocusOnMount } from './use-focus-on-mount';
import styles from './auth-card.module.css';

/** What replaces the sign-up form once the account is created. */
export function SignupSent({ email }: { email: string }) {
  const { t } = useTranslation('auth');
  const titleRef = useFocusOnMount<HTMLHeadingElement>();
  return (
    <AuthCard title={t('signup.sent.title')} titleRef={titleRef}>
      <div className={styles.notice}>
        <StrokeIcon className={styles.icon} strokeWidth={1.5}>
          <rect x="3" y="5" width="18" height="14" rx="2" />
          <path d="m3 7 9 6 9-6" />
        </StrokeIcon>
        <p className={styles.text} role="status">
          <Trans
            t={t}
            i18nKey="signup.sent.text"
            values={{ email }}
            components={{ email: <strong /> }}
          />
        </p>
        <p className={styles.muted}>{t('signup.sent.spam')}</p>
        <DevMailboxLink />
        <Link to="/login" className={buttonClassName({ variant: 'primary', fullWidth: true })}>
          {t('signup.sent.toLogin')}
        </Link>
      </div>
    </AuthCard>
  );
}
