import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AuthCard } from '../components/auth-card';
import { SignupForm } from '../components/signup-form';
import { SignupSent } from '../components/signup-sent';
import { useDocumentTitle } from '../components/use-document-title';
import styles from '../components/auth-card.module.css';

export function Component() {
  const { t } = useTranslation('auth');
  const [sentTo, setSentTo] = useState<string | null>(null);
  useDocumentTitle(t(sentTo ? 'signup.sent.docTitle' : 'signup.docTitle'));

  if (sentTo) return <SignupSent email={sentTo} />;
  return (
    <AuthCard
      title={t('signup.title')}
      lead={t('signup.lead')}
      footer={
        <>
          {t('signup.haveAccount')}{' '}
          <Link to="/login" className={styles.link}>
            {t('signup.toLogin')}
          </Link>
        </>
      }
    >
      <SignupForm onSignedUp={setSentTo} />
    </AuthCard>
  );
}
