import { SECURITY_EVENTS_PER_PAGE, type SecurityEvent } from '@tradehost/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../shared/lib/api-error';
import { formatDateTime } from '../../../shared/lib/format-date';
import { Pagination, pageCountOf } from '../../../shared/ui/pagination/pagination';
import { EmptyState, ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { useGetActivityQuery } from '../api/profile-api';
import { ProfileSection } from './profile-section';
import { deviceName } from './sessions-section';
import styles from './profile.module.css';

/** The events a reader should look at twice: someone else may be trying the account. */
const WARNING_KINDS = new Set<SecurityEvent['kind']>([
  'sign_in_failed',
  'sign_in_locked',
  'second_factor_failed',
  'token_reuse',
  'step_up_failed',
]);

function EventRow({ event }: { event: SecurityEvent }) {
  const { t, i18n } = useTranslation('profile');
  const warning = WARNING_KINDS.has(event.kind);
  return (
    <li className={`${styles.session} ${styles.event}`}>
      <span className={styles.sessionDevice}>
        {warning ? <span className={styles.warningMark}>{t('activity.attention')}</span> : null}
        {t(`activity.kinds.${event.kind}`)}
        {event.current_session ? (
          <span className={styles.badge}>{t('activity.thisSession')}</span>
        ) : null}
      </span>
      <dl className={styles.sessionTimes}>
        <div>
          <dt className="visually-hidden">{t('activity.when')}:</dt>
          <dd>
            <time dateTime={event.at}>{formatDateTime(event.at, i18n.language)}</time>
          </dd>
        </div>
        <div>
          <dt>{t('activity.device')}:</dt>
          <dd>{deviceName(t, event)}</dd>
        </div>
        {event.ip ? (
          <div>
            <dt>{t('activity.address')}:</dt>
            <dd>{event.ip}</dd>
          </div>
        ) : null}
      </dl>
    </li>
  );
}

/**
 * "Account activity": the account's security log (sign-ins and their failures, locks, factor and
 * password changes, ended sessions, step-ups, reveals), newest first, a page at a time, with the
 * address and the device of each.
 */
export function ActivitySection() {
  const { t } = useTranslation('profile');
  const [page, setPage] = useState(1);
  const { data, isLoading, isFetching, isError, error, refetch } = useGetActivityQuery(page, {
    refetchOnMountOrArgChange: true,
  });
  const events = data?.data;
  const total = data?.meta.total ?? 0;
  const pageCount = pageCountOf(total, SECURITY_EVENTS_PER_PAGE);

  let body;
  if (isLoading) body = <LoadingState>{t('activity.loading')}</LoadingState>;
  else if (isError || !events)
    body = (
      <ErrorState
        title={t('activity.loadFailed')}
        detail={errorText(t, error)}
        retryLabel={t('retry')}
        onRetry={() => void refetch()}
      />
    );
  else if (total === 0) body = <EmptyState>{t('activity.empty')}</EmptyState>;
  else
    body = (
      <>
        <ul className={styles.sessions} aria-label={t('activity.title')} aria-busy={isFetching}>
          {events.map((event) => (
            <EventRow key={event.id} event={event} />
          ))}
        </ul>
        <Pagination
          page={page}
          pageCount={pageCount}
          onPageChange={setPage}
          label={t('activity.pages')}
          range={pageCount > 1 ? t('activity.range', { count: total }) : undefined}
        />
      </>
    );

  return (
    <ProfileSection title={t('activity.title')} lead={t('activity.lead')} wide>
      {body}
    </ProfileSection>
  );
}
