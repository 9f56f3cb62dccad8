import { useId } from 'react';
import { Link, useParams } from 'react-router';
import { isApiRequestError } from '../../../shared/lib/api-error';
import { routeIdOf } from '../../../shared/lib/route-id';
import { usePageVisible } from '../../../shared/lib/use-page-visible';
import { buttonClassName } from '../../../shared/ui/form';
import { EmptyState, ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { useDocumentTitle } from '../../../shared/ui/page/page';
import {
  TICKET_POLL_MS,
  useGetSupportDepartmentsQuery,
  useGetTicketQuery,
} from '../api/support-api';
import { CloseTicket } from '../components/close-ticket';
import { ReplyBox } from '../components/reply-box';
import styles from '../components/support.module.css';
import { Thread } from '../components/thread';
import { TicketStatusBadge } from '../components/ticket-status-badge';
import { useSupportFormat } from '../lib/use-support-format';
import { useFallbackPolling } from '../../../shared/live/live-state';

const TITLE_ID = 'support-ticket-title';

function BackLink() {
  const { t } = useSupportFormat();
  return (
    <Link to="/support" className={styles.back}>
      <span aria-hidden="true">←</span> {t('ticket.back')}
    </Link>
  );
}

/** A ticket that is not there, or not the reader's (the API answers 404 for both). */
function NotFound() {
  const { t } = useSupportFormat();
  useDocumentTitle(t('ticket.notFoundTitle'));
  return (
    <div className={styles.ticketPage}>
      <BackLink />
      <h1 className={styles.pageTitle}>{t('ticket.notFoundTitle')}</h1>
      <EmptyState>{t('ticket.notFoundText')}</EmptyState>
      <div>
        <Link to="/support" className={buttonClassName({ variant: 'secondary' })}>
          {t('ticket.toList')}
        </Link>
      </div>
    </div>
  );
}

/**
 * Route module (lazy): one ticket's dialog. The thread is asked again every 10 s while the page
 * is shown, so the staff's answers and status changes appear without a reload; reading it marks
 * it read. A closed ticket says that writing resumes it; an open one can be closed.
 */
export function Component() {
  const { ticketId } = useParams();
  const id = routeIdOf(ticketId);
  if (id === null) return <NotFound />;
  return <TicketDialog key={id} id={id} />;
}

function TicketDialog({ id }: { id: number }) {
  const f = useSupportFormat();
  const { t } = f;
  const replyTitleId = useId();
  const visible = usePageVisible();
  // staff answers come as live updates; polled only while those are down
  const poll = useFallbackPolling(TICKET_POLL_MS);
  useDocumentTitle(t('ticket.documentTitle', { id }));
  const { data, error, isFetching, refetch } = useGetTicketQuery(id, {
    pollingInterval: visible ? poll : 0,
  });
  const departments = useGetSupportDepartmentsQuery();

  if (isApiRequestError(error) && error.status === 404) return <NotFound />;
  if (!data) {
    return (
      <div className={styles.ticketPage}>
        <BackLink />
        <h1 className={styles.pageTitle}>{t('ticket.documentTitle', { id })}</h1>
        {error && !isFetching ? (
          <ErrorState
            title={t('ticket.loadFailed')}
            retryLabel={t('retry')}
            onRetry={() => void refetch()}
          />
        ) : (
          <LoadingState>{t('ticket.loading')}</LoadingState>
        )}
      </div>
    );
  }

  const { ticket, messages } = data;
  const department = departments.data?.find((d) => d.id === ticket.department_id);
  return (
    <div className={styles.ticketPage}>
      <BackLink />
      <header className={styles.ticketHeader}>
        <div className={styles.ticketHeading}>
          <p className={styles.ticketKicker}>{t('list.number', { id: ticket.id })}</p>
          <h1 id={TITLE_ID} tabIndex={-1} className={styles.pageTitle}>
            {ticket.title}
          </h1>
          <div className={styles.ticketFacts}>
            <TicketStatusBadge status={ticket.status} />
            <span>{f.department(department)}</span>
            <span>
              {t('ticket.opened')}{' '}
              <time dateTime={ticket.created_at}>{f.dateTime(ticket.created_at)}</time>
            </span>
          </div>
        </div>
        {ticket.status !== 'closed' ? (
          <div className={styles.ticketActions}>
            <CloseTicket ticket={ticket} fallbackFocusId={TITLE_ID} />
          </div>
        ) : null}
      </header>
      {error ? <p className={styles.stale}>{t('ticket.refreshFailed')}</p> : null}
      <Thread messages={messages} />
      <ReplyBox ticket={ticket} titleId={replyTitleId} />
    </div>
  );
}
