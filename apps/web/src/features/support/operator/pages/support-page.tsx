import type { AdminTicketSummary, SupportQueue } from '@tradehost/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, SelectField } from '../../../../shared/ui/form';
import { useDocumentTitle } from '../../../../shared/ui/page/page';
import {
  useGetAdminDepartmentsQuery,
  useGetAdminTicketsQuery,
  useGetSupportQueuesQuery,
  type AssigneeFilter,
  type TicketStatusFilter,
} from '../api/support-operator-api';
import type { Column } from '../../../operator/components/data-table';
import { ListHeader, RefreshButton, SearchForm } from '../../../operator/components/list-controls';
import { usePageParam } from '../../../operator/components/pagination';
import { PagedTable } from '../../../operator/components/paged-table';
import { Person } from '../../../operator/components/person';
import { QueryStates } from '../../../operator/components/states';
import { SupportNav, TicketStatusBadge } from '../components/support-badges';
import { Badge } from '../../../operator/components/badge';
import { Waiting } from '../../../operator/components/waiting';
import { isOverdue, useFormatters } from '../../../operator/lib/format';
import { oneOf, useFilterParams } from '../../../operator/lib/list-params';
import { useReaderLanguage } from '../../../operator/lib/reader-language';
import { useDepartmentName } from '../lib/support';
import styles from '../../../operator/components/operator.module.css';
import supportStyles from '../components/support.module.css';
import controlStyles from '../../../operator/components/controls.module.css';

const STATUSES: readonly TicketStatusFilter[] = ['open', 'new', 'processing', 'closed', 'all'];
const DEFAULT_STATUS: TicketStatusFilter = 'open';
const ASSIGNEES: readonly AssigneeFilter[] = ['any', 'me', 'none'];
const DEFAULT_ASSIGNEE: AssigneeFilter = 'any';
/** The desk follows new tickets and answers while it is open. */
const POLL_MS = 30_000;
const poll = { pollingInterval: POLL_MS, skipPollingIfUnfocused: true };

/** A department id of the address, when it is one. */
const departmentOf = (value: string | null): number | undefined => {
  const id = Number(value);
  return value && Number.isSafeInteger(id) && id >= 1 ? id : undefined;
};

/**
 * Route module (lazy, admins only): the help desk. Each department's queue (its new and
 * processing tickets, how many wait for an answer and since when), then the tickets, those
 * waiting longest first, filtered by department, status and assignee, or found by number, title
 * or e-mail.
 */
export function Component() {
  const { t } = useTranslation('operator');
  useDocumentTitle(t('support.desk.title'));
  const format = useFormatters();
  const language = useReaderLanguage();
  const queuesId = useId();
  const ticketsId = useId();
  const [params, setFilter] = useFilterParams();
  const status = oneOf(STATUSES, params.get('status')) ?? DEFAULT_STATUS;
  const assignee = oneOf(ASSIGNEES, params.get('assignee')) ?? DEFAULT_ASSIGNEE;
  const departmentId = departmentOf(params.get('department'));
  const search = params.get('search') ?? '';
  const [page, setPage] = usePageParam();

  const queues = useGetSupportQueuesQuery(undefined, poll);
  const departments = useGetAdminDepartmentsQuery();
  const tickets = useGetAdminTicketsQuery(
    { status, assignee, department_id: departmentId, search, page },
    poll,
  );
  const departmentName = useDepartmentName(departments.data?.data);

  const columns: Column<AdminTicketSummary>[] = [
    {
      id: 'ticket',
      header: t('support.desk.columns.ticket'),
      cell: (ticket) => (
        <span className={styles.person}>
          <Link to={`/operator/support/${ticket.id}`}>
            <span className="visually-hidden">{t('number', { id: ticket.id })}</span> {ticket.title}
          </Link>
          <span className={styles.muted} aria-hidden="true">
            {t('number', { id: ticket.id })}
          </span>
        </span>
      ),
    },
    {
      id: 'user',
      header: t('support.desk.columns.user'),
      cell: (ticket) => <Person user={ticket.user} />,
    },
    {
      id: 'department',
      header: t('support.desk.columns.department'),
      cell: (ticket) => departmentName(ticket.department_id),
    },
    {
      id: 'status',
      header: t('support.desk.columns.status'),
      cell: (ticket) => <TicketStatusBadge status={ticket.status} />,
    },
    {
      id: 'waiting',
      header: t('support.desk.columns.waiting'),
      cell: (ticket) => <WaitingCell since={ticket.waiting_since} />,
    },
    {
      id: 'assignee',
      header: t('support.desk.columns.assignee'),
      cell: (ticket) =>
        ticket.assignee ? (
          <span className={styles.email}>{ticket.assignee.email}</span>
        ) : (
          <span className={styles.muted}>{t('support.unassigned')}</span>
        ),
    },
    {
      id: 'activity',
      header: t('support.desk.columns.activity'),
      moment: true,
      cell: (ticket) => format.dateTime(ticket.updated_at),
    },
  ];

  const departmentOptions = [
    { value: '', label: t('support.desk.filters.allDepartments') },
    ...(departments.data?.data ?? []).map((department) => ({
      value: String(department.id),
      label: language === 'ru' ? department.name_ru : department.name_en,
    })),
  ];
  const filtered =
    status !== DEFAULT_STATUS || assignee !== DEFAULT_ASSIGNEE || departmentId || search;

  return (
    <div className={styles.section}>
      <SupportNav />
      <section className={styles.section} aria-labelledby={queuesId}>
        <ListHeader
          headingId={queuesId}
          title={t('support.desk.queuesTitle')}
          lead={t('support.desk.queuesLead')}
        >
          <RefreshButton
            result={{
              isFetching: queues.isFetching || tickets.isFetching,
              refetch: () => {
                void queues.refetch();
                void tickets.refetch();
              },
            }}
          />
        </ListHeader>
        <QueryStates
          result={queues}
          isEmpty={(list) => list.data.length === 0}
          empty={t('support.desk.noQueues')}
        >
          {(list) => (
            <ul className={supportStyles.queues}>
              {list.data.map((queue) => (
                <li key={queue.department.id}>
                  <QueueCard
                    queue={queue}
                    selected={queue.department.id === departmentId}
                    onShow={() => setFilter('department', String(queue.department.id))}
                  />
                </li>
              ))}
            </ul>
          )}
        </QueryStates>
      </section>
      <section className={styles.section} aria-labelledby={ticketsId}>
        <ListHeader
          headingId={ticketsId}
          title={t('support.desk.ticketsTitle')}
          lead={t('support.desk.lead')}
        />
        <div className={controlStyles.filters}>
          <SelectField
            label={t('support.desk.filters.department')}
            options={departmentOptions}
            value={departmentId ? String(departmentId) : ''}
            onChange={(event) => setFilter('department', event.target.value)}
          />
          <SelectField
            label={t('support.desk.filters.status')}
            options={STATUSES.map((value) => ({
              value,
              label: t(`support.desk.filters.statuses.${value}`),
            }))}
            value={status}
            onChange={(event) => setFilter('status', event.target.value, DEFAULT_STATUS)}
          />
          <SelectField
            label={t('support.desk.filters.assignee')}
            options={ASSIGNEES.map((value) => ({
              value,
              label: t(`support.desk.filters.assignees.${value}`),
            }))}
            value={assignee}
            onChange={(event) => setFilter('assignee', event.target.value, DEFAULT_ASSIGNEE)}
          />
          <SearchForm
            label={t('support.desk.search')}
            name="search"
            value={search}
            spellCheck={false}
            maxLength={100}
            submitLabel={t('support.desk.searchSubmit')}
            onSearch={(value) => setFilter('search', value)}
          />
        </div>
        <PagedTable
          result={tickets}
          empty={filtered ? t('support.desk.emptyFiltered') : t('support.desk.empty')}
          labelledBy={ticketsId}
          columns={columns}
          pagesLabel={t('support.desk.pages')}
          onPageChange={setPage}
        />
      </section>
    </div>
  );
}

/** How long the user has waited for an answer, marked once past a day; "Answered" when not. */
function WaitingCell({ since }: { since: string | null }) {
  const { t } = useTranslation('operator');
  if (!since) return <span className={styles.muted}>{t('support.answered')}</span>;
  return (
    <span className={controlStyles.stack}>
      <Waiting since={since} />
      {isOverdue(since) ? <Badge tone="danger">{t('support.overdue')}</Badge> : null}
    </span>
  );
}

/** One department's queue: its open tickets, those waiting for an answer, the longest wait. */
function QueueCard({
  queue,
  selected,
  onShow,
}: {
  queue: SupportQueue;
  selected: boolean;
  onShow: () => void;
}) {
  const { t } = useTranslation('operator');
  const language = useReaderLanguage();
  const titleId = useId();
  const { department } = queue;
  const name = language === 'ru' ? department.name_ru : department.name_en;
  return (
    <article
      className={`${supportStyles.queue} ${selected ? supportStyles.queueSelected : ''}`.trim()}
      aria-labelledby={titleId}
    >
      <h3 id={titleId} className={supportStyles.queueTitle}>
        {name}
        {department.active ? null : <Badge tone="neutral">{t('support.inactive')}</Badge>}
      </h3>
      <dl className={supportStyles.counts}>
        <div>
          <dt>{t('support.desk.queue.new')}</dt>
          <dd>{queue.new_count}</dd>
        </div>
        <div>
          <dt>{t('support.desk.queue.processing')}</dt>
          <dd>{queue.processing_count}</dd>
        </div>
        <div>
          <dt>{t('support.desk.queue.waiting')}</dt>
          <dd>{queue.waiting_count}</dd>
        </div>
      </dl>
      <dl className={supportStyles.oldest}>
        <dt>{t('support.desk.queue.oldest')}</dt>
        <dd>
          {queue.oldest_waiting_since ? (
            <span className={controlStyles.inline}>
              <Waiting since={queue.oldest_waiting_since} />
              {isOverdue(queue.oldest_waiting_since) ? (
                <Badge tone="danger">{t('support.overdue')}</Badge>
              ) : null}
            </span>
          ) : (
            <span className={styles.muted}>{t('support.desk.queue.nobodyWaiting')}</span>
          )}
        </dd>
      </dl>
      <Button variant="secondary" onClick={onShow}>
        {t('support.desk.queue.show')}{' '}
        <span className="visually-hidden">{t('support.desk.queue.showContext', { name })}</span>
      </Button>
    </article>
  );
}
