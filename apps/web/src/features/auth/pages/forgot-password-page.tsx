import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AuthCard } from '../components/auth-card';
import { DevMailboxLink } from '../components/dev-mailbox-link';
import { ForgotCodeStep } from '../components/forgot-code-step';
import { ForgotEmailStep } from '../components/forgot-email-step';
import { useDocumentTitle } from '../components/use-document-title';
import styles from '../components/auth-card.module.css';

export function Component() {
  const { t } = useTranslation('auth');
  useDocumentTitle(t('forgot.docTitle'));
  /** The e-mail the code went to: set, the page asks for the code. */
  const [codeSentTo, setCodeSentTo] = useState<string | null>(null);
  const [draftEmail, setDraftEmail] = useState('');

  return (
    <AuthCard
      title={t('forgot.title')}
      lead={
        codeSentTo ? (
          <Trans
            t={t}
            i18nKey="forgot.codeLead"
            values={{ email: codeSentTo }}
            components={{ email: <strong /> }}
          />
        ) : (
          t('forgot.emailLead')
        )
      }
      footer={
        <Link to="/login" className={styles.link}>
          {t('forgot.toLogin')}
        </Link>
      }
    >
      {codeSentTo ? (
        <>
          <ForgotCodeStep
            key={codeSentTo}
            email={codeSentTo}
            onChangeEmail={() => {
              setDraftEmail(codeSentTo);
              setCodeSentTo(null);
            }}
          />
          <DevMailboxLink />
        </>
      ) : (
        <ForgotEmailStep defaultEmail={draftEmail} onCodeSent={setCodeSentTo} />
      )}
    </AuthCard>
  );
}
