import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AuthCard } from '../components/auth-card';
import { LoginForm } from '../components/login-form';
import { useDocumentTitle } from '../components/use-document-title';
import { VerifyEmailStatus } from '../components/verify-email-status';
import styles from '../components/auth-card.module.css';

export function Component() {
  const { t } = useTranslation('auth');
  useDocumentTitle(t('login.docTitle'));
  return (
    <AuthCard
      title={t('login.title')}
      lead={t('login.lead')}
      footer={
        <>
          {t('login.noAccount')}{' '}
          <Link to="/signup" className={styles.link}>
            {t('login.toSignup')}
          </Link>
        </>
      }
    >
      <VerifyEmailStatus />
      <LoginForm />
    </AuthCard>
  );
}
