import { SESSIONS_PER_PAGE, type UserSession } from '@tradehost/contracts';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../shared/lib/api-error';
import { formatDateTime } from '../../../shared/lib/format-date';
import { Dialog, DialogActions } from '../../../shared/ui/dialog/dialog';
import { Button, FormAlert } from '../../../shared/ui/form';
import { Pagination, pageCountOf } from '../../../shared/ui/pagination/pagination';
import { EmptyState, ErrorState, LoadingState } from '../../../shared/ui/states/states';
import {
  useEndSessionMutation,
  useGetSessionsQuery,
  useSignOutOthersMutation,
} from '../api/profile-api';
import { ProfileSection } from './profile-section';
import styles from './profile.module.css';

/** "Chrome on Windows" in the reader's language, from the names the API read off the User-Agent. */
export function deviceName(
  t: TFunction<'profile'>,
  { browser, os }: Pick<UserSession, 'browser' | 'os'>,
): string {
  if (browser && os) return t('sessions.device', { browser, os });
  if (browser) return t('sessions.browserOnly', { browser });
  if (os) return t('sessions.osOnly', { os });
  return t('sessions.unknownDevice');
}

function SessionRow({
  session,
  onEnd,
}: {
  session: UserSession;
  /** Asks to end this sign-in (not offered for this device: signing out does that). */
  onEnd: (session: UserSession) => void;
}) {
  const { t, i18n } = useTranslation('profile');
  return (
    <li className={`${styles.session} ${styles.sessionRow}`}>
      <span className={styles.sessionDevice}>
        {deviceName(t, session)}
        {session.current ? <span className={styles.badge}>{t('sessions.thisDevice')}</span> : null}
      </span>
      <dl className={styles.sessionTimes}>
        <div>
          <dt>{t('sessions.signedIn')}:</dt>
          <dd>
            <time dateTime={session.created_at}>
              {formatDateTime(session.created_at, i18n.language)}
            </time>
          </dd>
        </div>
        <div>
          <dt>{t('sessions.lastUsed')}:</dt>
          <dd>
            <time dateTime={session.last_used_at}>
              {formatDateTime(session.last_used_at, i18n.language)}
            </time>
          </dd>
        </div>
      </dl>
      {session.current ? null : (
        <Button
          variant="secondary"
          className={styles.sessionEnd}
          aria-label={t('sessions.endLabel', { device: deviceName(t, session) })}
          onClick={() => onEnd(session)}
        >
          {t('sessions.end')}
        </Button>
      )}
    </li>
  );
}

type Outcome = { tone: 'success' | 'error'; text: string; serial: number };

/**
 * Where the account is signed in (one row per sign-in, this device first and marked, then newest
 * use first), a page at a time, and "sign out everywhere else" after a confirmation.
 */
export function SessionsSection() {
  const { t } = useTranslation('profile');
  const [page, setPage] = useState(1);
  // the page shown stays while the next one loads (RTK Query keeps the last answer in `data`);
  // a page is asked for afresh each time it is shown: sign-ins end elsewhere meanwhile
  const { data, isLoading, isFetching, isError, error, refetch } = useGetSessionsQuery(page, {
    refetchOnMountOrArgChange: true,
  });
  const sessions = data?.data;
  const total = data?.meta.total ?? 0;
  const pageCount = pageCountOf(total, SESSIONS_PER_PAGE);
  const [signOutOthers, { isLoading: signingOut }] = useSignOutOthersMutation();
  const [confirming, setConfirming] = useState(false);
  const [endSession, { isLoading: ending }] = useEndSessionMutation();
  const [toEnd, setToEnd] = useState<UserSession | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const others = data?.others ?? 0;
  // sign-ins ended meanwhile (elsewhere, or expired) can leave this page past the last one
  if (data && page > pageCount) setPage(pageCount);

  const report = (tone: Outcome['tone'], text: string) =>
    setOutcome((previous) => ({ tone, text, serial: (previous?.serial ?? 0) + 1 }));

  const confirm = async () => {
    try {
      const { revoked } = await signOutOthers().unwrap();
      setPage(1);
      report(
        'success',
        revoked > 0 ? t('sessions.signedOut', { count: revoked }) : t('sessions.noneSignedOut'),
      );
    } catch (failure) {
      report('error', errorText(t, failure));
    } finally {
      setConfirming(false);
    }
  };

  const confirmEnd = async (session: UserSession) => {
    try {
      await endSession(session.id).unwrap();
      report('success', t('sessions.ended', { device: deviceName(t, session) }));
    } catch (failure) {
      report('error', errorText(t, failure));
    } finally {
      setToEnd(null);
    }
  };

  let body;
  if (isLoading) body = <LoadingState>{t('sessions.loading')}</LoadingState>;
  else if (isError || !sessions)
    body = (
      <ErrorState
        title={t('sessions.loadFailed')}
        detail={errorText(t, error)}
        retryLabel={t('retry')}
        onRetry={() => void refetch()}
      />
    );
  else if (total === 0) body = <EmptyState>{t('sessions.empty')}</EmptyState>;
  else
    body = (
      <>
        <ul className={styles.sessions} aria-label={t('sessions.title')} aria-busy={isFetching}>
          {sessions.map((session) => (
            <SessionRow key={session.id} session={session} onEnd={setToEnd} />
          ))}
        </ul>
        <Pagination
          page={page}
          pageCount={pageCount}
          onPageChange={setPage}
          label={t('sessions.pages')}
          range={pageCount > 1 ? t('sessions.range', { count: total }) : undefined}
        />
      </>
    );

  return (
    <ProfileSection title={t('sessions.title')} lead={t('sessions.lead')} wide>
      {outcome ? (
        <FormAlert key={outcome.serial} tone={outcome.tone}>
          {outcome.text}
        </FormAlert>
      ) : null}
      {body}
      {total > 0 ? (
        <div className={styles.actions}>
          {others > 0 ? (
            <Button variant="secondary" onClick={() => setConfirming(true)}>
              {t('sessions.signOutOthers')}
            </Button>
          ) : (
            <p className={styles.muted}>{t('sessions.onlyThis')}</p>
          )}
        </div>
      ) : null}
      {confirming ? (
        <Dialog
          open
          onOpenChange={setConfirming}
          title={t('sessions.confirmTitle')}
          description={t('sessions.confirmText')}
          closeLabel={t('close')}
          busy={signingOut}
        >
          <DialogActions>
            <Button variant="secondary" disabled={signingOut} onClick={() => setConfirming(false)}>
              {t('cancel')}
            </Button>
            <Button
              loading={signingOut}
              loadingText={t('sessions.signingOut')}
              onClick={() => void confirm()}
            >
              {t('sessions.confirm')}
            </Button>
          </DialogActions>
        </Dialog>
      ) : null}
      {toEnd ? (
        <Dialog
          open
          onOpenChange={(open) => (open ? undefined : setToEnd(null))}
          title={t('sessions.endTitle')}
          description={t('sessions.endText', { device: deviceName(t, toEnd) })}
          closeLabel={t('close')}
          busy={ending}
        >
          <DialogActions>
            <Button variant="secondary" disabled={ending} onClick={() => setToEnd(null)}>
              {t('cancel')}
            </Button>
            <Button
              loading={ending}
              loadingText={t('sessions.ending')}
              onClick={() => void confirmEnd(toEnd)}
            >
              {t('sessions.endConfirm')}
            </Button>
          </DialogActions>
        </Dialog>
      ) : null}
    </ProfileSection>
  );
}
