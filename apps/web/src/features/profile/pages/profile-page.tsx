import { useTranslation } from 'react-i18next';
import { useGetUserQuery } from '../../auth/api/auth-api';
import { errorText } from '../../../shared/lib/api-error';
import { Page, useDocumentTitle } from '../../../shared/ui/page/page';
import { ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { AccountSection } from '../components/account-section';
import { ActivitySection } from '../components/activity-section';
import { AvatarSection } from '../components/avatar-section';
import { ChatBotSection } from '../components/chat-bot-section';
import { PasswordSection } from '../components/password-section';
import { SecondFactorSection } from '../components/second-factor-section';
import { SessionsSection } from '../components/sessions-section';
import styles from '../components/profile.module.css';

/**
 * Route module (lazy): the profile (SPEC 2: avatar, password change, chat-bot link), with the
 * name, the e-mail, the language and the sessions. The user is the one the header shows
 * (GET /user/auth): every change here invalidates it, so the header follows.
 */
export function Component() {
  const { t } = useTranslation('profile');
  useDocumentTitle(t('title'));
  const { data: user, isLoading, isError, error, refetch } = useGetUserQuery();

  let content;
  if (isLoading) content = <LoadingState>{t('loading')}</LoadingState>;
  else if (isError || !user)
    content = (
      <ErrorState
        title={t('loadFailed')}
        detail={errorText(t, error)}
        retryLabel={t('retry')}
        onRetry={() => void refetch()}
      />
    );
  else
    content = (
      <div className={styles.grid}>
        <AvatarSection user={user} />
        <AccountSection user={user} />
        <PasswordSection email={user.email} />
        <SecondFactorSection email={user.email} />
        <ChatBotSection />
        <SessionsSection />
        <ActivitySection />
      </div>
    );

  return (
    <Page title={t('title')} lead={t('description')}>
      {content}
    </Page>
  );
}
