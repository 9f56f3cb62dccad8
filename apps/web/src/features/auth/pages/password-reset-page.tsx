import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { buttonClassName } from '../../../shared/ui/form';
import { AuthCard } from '../components/auth-card';
import { clearResetSession, readResetSession } from '../components/reset-session';
import { ResetPasswordForm } from '../components/reset-password-form';
import { useDocumentTitle } from '../components/use-document-title';
import { useFocusOnMount } from '../components/use-focus-on-mount';
import styles from '../components/auth-card.module.css';

function PasswordChanged() {
  const { t } = useTranslation('auth');
  const titleRef = useFocusOnMount<HTMLHeadingElement>();
  return (
    <AuthCard title={t('reset.done.title')} titleRef={titleRef}>
      <div className={styles.notice}>
        <p className={styles.text} role="status">
          {t('reset.done.text')}
        </p>
        <Link to="/login" className={buttonClassName({ variant: 'primary', fullWidth: true })}>
          {t('reset.done.toLogin')}
        </Link>
      </div>
    </AuthCard>
  );
}

export function Component() {
  const { t } = useTranslation('auth');
  const location = useLocation();
  // location state from the code step; sessionStorage when the page was reloaded
  const [session] = useState(() => readResetSession(location.state));
  const [done, setDone] = useState(false);
  useDocumentTitle(t(done ? 'reset.done.docTitle' : 'reset.docTitle'));

  if (done) return <PasswordChanged />;

  if (!session) {
    return (
      <AuthCard title={t('reset.missing.title')}>
        <div className={styles.notice}>
          <p className={styles.text}>{t('reset.missing.text')}</p>
          <Link
            to="/forgot-password"
            className={buttonClassName({ variant: 'primary', fullWidth: true })}
          >
            {t('reset.missing.toForgot')}
          </Link>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={t('reset.title')}
      lead={
        <Trans
          t={t}
          i18nKey="reset.lead"
          values={{ email: session.email }}
          components={{ email: <strong /> }}
        />
      }
      footer={
        <Link to="/login" className={styles.link}>
          {t('reset.toLogin')}
        </Link>
      }
    >
      <ResetPasswordForm
        session={session}
        onPasswordReset={() => {
          clearResetSession();
          setDone(true);
        }}
      />
    </AuthCard>
  );
}
