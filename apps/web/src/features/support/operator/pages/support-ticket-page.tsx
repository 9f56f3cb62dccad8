import type { AdminTicketSummary, TicketMessage, TicketStatus } from '@tradehost/contracts';
import { TICKET_STATUSES, ticketOpenConflictSchema } from '@tradehost/contracts';
import { useId, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { errorBody } from '../../../../shared/lib/api-error';
import { Button, FormAlert } from '../../../../shared/ui/form';
import { useDocumentTitle } from '../../../../shared/ui/page/page';
import { EmptyState } from '../../../../shared/ui/states/states';
import { notify } from '../../../../shared/ui/toast/notify';
import {
  useAssignTicketMutation,
  useGetAdminDepartmentsQuery,
  useGetAdminTicketQuery,
  useGetSupportOperatorQuery,
  useSetTicketStatusMutation,
} from '../api/support-operator-api';
import { ConfirmDecisionDialog } from '../../../operator/components/decision-dialogs';
import { Person } from '../../../operator/components/person';
import { ReplyForm } from '../components/reply-form';
import { LoadError, Loading } from '../../../operator/components/states';
import { TicketStatusBadge } from '../components/support-badges';
import { TicketConflictAlert } from '../components/ticket-conflict';
import { TicketThread } from '../components/ticket-thread';
import { Badge } from '../../../operator/components/badge';
import { Waiting } from '../../../operator/components/waiting';
import { isOverdue, useFormatters } from '../../../operator/lib/format';
import { useDepartmentName } from '../lib/support';
import { codeOf, useOperatorError } from '../../../operator/lib/use-operator-error';
import styles from '../../../operator/components/operator.module.css';
import supportStyles from '../components/support.module.css';
import controlStyles from '../../../operator/components/controls.module.css';

/** The thread follows the user's new messages while it is open. */
const POLL_MS = 10_000;
const NOT_FOUND_CODES = ['TICKET_NOT_FOUND', 'NOT_FOUND'];

function ticketIdOf(param: string | undefined): number | null {
  const id = Number(param);
  return Number.isSafeInteger(id) && id >= 1 ? id : null;
}

/**
 * Route module (lazy, admins only): one ticket of the help desk. Its user, department, status and
 * assignee; the thread with the internal notes and status changes; the reply box (a reply or a
 * note, files, canned replies); taking the ticket, giving it back, and its status (closing asks
 * first). The thread is fetched again every 10 seconds while the page is in view.
 */
export function Component() {
  const { t } = useTranslation('operator');
  const ticketId = ticketIdOf(useParams().ticketId);
  const query = useGetAdminTicketQuery(ticketId ?? 0, {
    skip: ticketId === null,
    pollingInterval: POLL_MS,
    skipPollingIfUnfocused: true,
  });
  const data = query.currentData ?? (query.data?.ticket.id === ticketId ? query.data : undefined);
  useDocumentTitle(
    data
      ? t('support.ticket.documentTitle', { id: data.ticket.id, title: data.ticket.title })
      : t('support.desk.title'),
  );

  const back = (
    <Link to="/operator/support" className={styles.backLink}>
      {t('support.ticket.back')}
    </Link>
  );

  if (ticketId === null || (query.isError && NOT_FOUND_CODES.includes(codeOf(query.error) ?? ''))) {
    return (
      <div className={styles.section}>
        {back}
        <EmptyState title={t('support.ticket.notFoundTitle')}>
          {t('support.ticket.notFound')}
        </EmptyState>
      </div>
    );
  }
  if (!data) {
    return (
      <div className={styles.section}>
        {back}
        {query.isError && !query.isFetching ? (
          <LoadError error={query.error} onRetry={() => void query.refetch()} />
        ) : (
          <Loading />
        )}
      </div>
    );
  }

  return (
    <div className={styles.section}>
      {back}
      {/* keyed: another ticket gets a fresh reply box and fresh announcements */}
      <Ticket key={data.ticket.id} ticket={data.ticket} messages={data.messages} />
    </div>
  );
}

function Ticket({
  ticket,
  messages,
}: {
  ticket: AdminTicketSummary;
  messages: readonly TicketMessage[];
}) {
  const { t } = useTranslation('operator');
  const headingId = useId();
  const threadId = useId();
  const replyId = useId();
  const detailsId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const announcement = useNewMessages(messages);

  return (
    <>
      <div>
        <h2 id={headingId} ref={headingRef} tabIndex={-1} className={supportStyles.ticketTitle}>
          <span className={supportStyles.number}>{t('number', { id: ticket.id })}</span>{' '}
          {ticket.title}
        </h2>
      </div>
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
      <div className={supportStyles.ticketLayout}>
        <div className={styles.section}>
          <section className={styles.section} aria-labelledby={threadId}>
            <h3 id={threadId} className={supportStyles.sideTitle}>
              {t('support.ticket.thread')}
            </h3>
            <TicketThread messages={messages} />
          </section>
          <section className={styles.section} aria-labelledby={replyId}>
            <h3 id={replyId} className={supportStyles.sideTitle}>
              {t('support.ticket.answer')}
            </h3>
            <ReplyForm ticket={ticket} />
          </section>
        </div>
        <section className={`${styles.panel} ${supportStyles.side}`} aria-labelledby={detailsId}>
          <h3 id={detailsId} className={supportStyles.sideTitle}>
            {t('support.ticket.details')}
          </h3>
          <TicketFacts ticket={ticket} />
          <TicketActions ticket={ticket} headingRef={headingRef} />
        </section>
      </div>
    </>
  );
}

/** "New message from the user", read out when the polling brings one. */
function useNewMessages(messages: readonly TicketMessage[]): string {
  const { t } = useTranslation('operator');
  const fromUser = messages.filter((message) => message.author_kind === 'user').length;
  const [seen, setSeen] = useState(fromUser);
  const [announcement, setAnnouncement] = useState('');
  // adjusted while rendering (the count the page last showed), not in an effect
  if (fromUser !== seen) {
    setSeen(fromUser);
    if (fromUser > seen) setAnnouncement(t('support.ticket.newMessage'));
  }
  return announcement;
}

function TicketFacts({ ticket }: { ticket: AdminTicketSummary }) {
  const { t } = useTranslation('operator');
  const format = useFormatters();
  const departments = useGetAdminDepartmentsQuery();
  const departmentName = useDepartmentName(departments.data?.data);
  return (
    <dl className={styles.facts}>
      <dt>{t('support.ticket.user')}</dt>
      <dd>
        <Person user={ticket.user} />
      </dd>
      <dt>{t('support.ticket.language')}</dt>
      <dd>{t(`support.languages.${ticket.user_language}`)}</dd>
      <dt>{t('support.ticket.department')}</dt>
      <dd>{departmentName(ticket.department_id)}</dd>
      <dt>{t('support.ticket.status')}</dt>
      <dd>
        <TicketStatusBadge status={ticket.status} />
      </dd>
      <dt>{t('support.ticket.assignee')}</dt>
      <dd>
        {ticket.assignee ? (
          <span className={styles.email}>{ticket.assignee.email}</span>
        ) : (
          <span className={styles.muted}>{t('support.unassigned')}</span>
        )}
      </dd>
      <dt>{t('support.ticket.waiting')}</dt>
      <dd>
        {ticket.waiting_since ? (
          <span className={controlStyles.inline}>
            <Waiting since={ticket.waiting_since} />
            {isOverdue(ticket.waiting_since) ? (
              <Badge tone="danger">{t('support.overdue')}</Badge>
            ) : null}
          </span>
        ) : (
          <span className={styles.muted}>{t('support.answered')}</span>
        )}
      </dd>
      <dt>{t('support.ticket.opened')}</dt>
      <dd>{format.dateTime(ticket.created_at)}</dd>
      <dt>{t('support.ticket.activity')}</dt>
      <dd>{format.dateTime(ticket.updated_at)}</dd>
    </dl>
  );
}

/**
 * Taking the ticket (or giving it back) and moving it between New, Processing and Closed; a close
 * is confirmed first. Each is sent at once, with a toast; a failure shows here.
 */
function TicketActions({
  ticket,
  headingRef,
}: {
  ticket: AdminTicketSummary;
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  const { t } = useTranslation('operator');
  const errorText = useOperatorError();
  const me = useGetSupportOperatorQuery();
  const [assign] = useAssignTicketMutation();
  const [setStatus] = useSetTicketStatusMutation();
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [conflict, setConflict] = useState<number | null>(null);
  const [closing, setClosing] = useState(false);
  // a fresh dialog (no failure of the last time) each time it opens
  const [closeKey, setCloseKey] = useState(0);
  const closeRef = useRef<HTMLElement | null>(null);
  const statusesId = useId();
  const number = t('number', { id: ticket.id });
  const mine = ticket.assignee !== null && ticket.assignee.id === me.data?.id;

  const run = async (key: string, send: () => Promise<unknown>, done: string) => {
    setFailure(null);
    setConflict(null);
    setBusy(key);
    try {
      await send();
      notify('success', done);
    } catch (error) {
      const conflict = errorBody(error, ticketOpenConflictSchema);
      if (conflict) setConflict(conflict.ticket_id);
      else setFailure(errorText.request(error));
    } finally {
      setBusy(null);
    }
  };

  const changeStatus = (status: TicketStatus) =>
    run(
      status,
      () => setStatus({ ticketId: ticket.id, status }).unwrap(),
      t('support.ticket.statusChanged', {
        number,
        status: t(`support.statuses.${status}`),
      }),
    );

  return (
    <>
      <div className={styles.section}>
        <div className={supportStyles.actions}>
          {mine ? null : (
            <Button
              loading={busy === 'assign'}
              onClick={() =>
                void run(
                  'assign',
                  () => assign({ ticketId: ticket.id, assignee: 'me' }).unwrap(),
                  t('support.ticket.assigned', { number }),
                )
              }
            >
              {t('support.ticket.assignToMe')}
            </Button>
          )}
          {ticket.assignee ? (
            <Button
              variant="secondary"
              loading={busy === 'unassign'}
              onClick={() =>
                void run(
                  'unassign',
                  () => assign({ ticketId: ticket.id, assignee: null }).unwrap(),
                  t('support.ticket.unassigned', { number }),
                )
              }
            >
              {t('support.ticket.unassign')}
            </Button>
          ) : null}
        </div>
        <div role="group" aria-labelledby={statusesId} className={styles.section}>
          <p id={statusesId} className={controlStyles.small}>
            {t('support.ticket.changeStatus')}
          </p>
          <div className={supportStyles.actions}>
            {TICKET_STATUSES.filter((status) => status !== ticket.status).map((status) =>
              status === 'closed' ? (
                <Button
                  key={status}
                  variant="secondary"
                  className={styles.danger}
                  onClick={(event) => {
                    closeRef.current = event.currentTarget;
                    setFailure(null);
                    setConflict(null);
                    setCloseKey((key) => key + 1);
                    setClosing(true);
                  }}
                >
                  {t('support.ticket.close')}
                </Button>
              ) : (
                <Button
                  key={status}
                  variant="secondary"
                  loading={busy === status}
                  onClick={() => void changeStatus(status)}
                >
                  {t(`support.ticket.mark.${status}`)}
                </Button>
              ),
            )}
          </div>
        </div>
        {failure ? <FormAlert tone="error">{failure}</FormAlert> : null}
        {conflict ? <TicketConflictAlert ticketId={conflict} /> : null}
      </div>
      {closeKey > 0 ? (
        <ConfirmDecisionDialog
          key={closeKey}
          open={closing}
          onOpenChange={setClosing}
          title={t('support.ticket.closeDialog.title', { number })}
          description={t('support.ticket.closeDialog.question', { number, title: ticket.title })}
          submitLabel={t('support.ticket.closeDialog.submit')}
          submittingLabel={t('support.ticket.closeDialog.submitting')}
          danger
          returnFocusTo={closeRef}
          run={async () => {
            try {
              await setStatus({ ticketId: ticket.id, status: 'closed' }).unwrap();
            } catch (error) {
              return { error };
            }
            notify('success', t('support.ticket.closed', { number }));
            // the Close button goes with the status: the focus goes to the ticket's heading
            closeRef.current = headingRef.current;
            setClosing(false);
            return null;
          }}
        />
      ) : null}
    </>
  );
}
