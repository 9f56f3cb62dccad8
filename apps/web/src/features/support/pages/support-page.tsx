import { useId, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { usePageVisible } from '../../../shared/lib/use-page-visible';
import { Button } from '../../../shared/ui/form';
import fieldStyles from '../../../shared/ui/form/field.module.css';
import { Page, useDocumentTitle } from '../../../shared/ui/page/page';
import { Pagination, pageCountOf } from '../../../shared/ui/pagination/pagination';
import segments from '../../../shared/ui/segments/segments.module.css';
import { EmptyState, ErrorState, LoadingState } from '../../../shared/ui/states/states';
import {
  LIST_POLL_MS,
  TICKETS_PER_PAGE,
  useGetSupportDepartmentsQuery,
  useGetTicketsQuery,
  type TicketStatusFilter,
} from '../api/support-api';
import { NewTicketDialog } from '../components/new-ticket-dialog';
import styles from '../components/support.module.css';
import { TicketList } from '../components/ticket-list';
import { useSupportFormat } from '../lib/use-support-format';
import { useFallbackPolling } from '../../../shared/live/live-state';

const STATUS_FILTERS = ['all', 'open', 'new', 'processing', 'closed'] as const;
type StatusOption = (typeof STATUS_FILTERS)[number];

function statusOf(value: string | null): StatusOption {
  return STATUS_FILTERS.includes(value as StatusOption) ? (value as StatusOption) : 'all';
}

function positive(value: string | null): number | undefined {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : undefined;
}

/**
 * Route module (lazy): the support section (SPEC 2: the ticket list and a ticket dialog). The
 * list filters by status and department, a page at a time, newest activity first, with the
 * tickets the staff answered marked; the address keeps the filters and the page
 * (?status=&department=&page=). "New ticket" opens the form; ?new=<department code> opens it with
 * that department chosen (the FAQ's "Write to support").
 */
export function Component() {
  const f = useSupportFormat();
  const { t } = f;
  useDocumentTitle(t('title'));
  const headingId = useId();
  const newButton = useRef<HTMLButtonElement>(null);
  const [params, setParams] = useSearchParams();
  const status = statusOf(params.get('status'));
  const departmentId = positive(params.get('department'));
  const page = positive(params.get('page')) ?? 1;
  const newFor = params.get('new');
  const visible = usePageVisible();
  // staff answers come as live updates; polled only while those are down
  const listPoll = useFallbackPolling(LIST_POLL_MS);

  const departments = useGetSupportDepartmentsQuery();
  const { data, isFetching, isError, refetch } = useGetTicketsQuery(
    {
      ...(status !== 'all' ? { status: status as TicketStatusFilter } : {}),
      ...(departmentId ? { departmentId } : {}),
      page,
    },
    { pollingInterval: visible ? listPoll : 0 },
  );

  const update = (changes: Record<string, string | null>, replace = false) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null) next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace },
    );
  const filter = (changes: Record<string, string | null>) => update({ ...changes, page: null });
  const openForm = () => update({ new: '' });
  const closeForm = () => update({ new: null }, true);

  const rows = data?.data ?? [];
  const total = data?.meta.total ?? 0;
  const perPage = data?.meta.per_page ?? TICKETS_PER_PAGE;
  const filtered = status !== 'all' || departmentId !== undefined;

  const newTicket = (
    <Button ref={newButton} onClick={openForm}>
      {t('new')}
    </Button>
  );

  let content;
  if (!data && isFetching) {
    content = <LoadingState>{t('list.loading')}</LoadingState>;
  } else if (isError && !isFetching && !data) {
    content = (
      <ErrorState
        title={t('list.loadFailed')}
        retryLabel={t('retry')}
        onRetry={() => void refetch()}
      />
    );
  } else if (rows.length === 0) {
    content = filtered ? (
      <EmptyState
        title={t('list.noMatchTitle')}
        action={
          <Button variant="secondary" onClick={() => filter({ status: null, department: null })}>
            {t('list.showAll')}
          </Button>
        }
      >
        {t('list.noMatchText')}
      </EmptyState>
    ) : (
      <EmptyState
        title={t('list.emptyTitle')}
        action={<Button onClick={openForm}>{t('new')}</Button>}
      >
        {t('list.emptyText')}
      </EmptyState>
    );
  } else {
    content = (
      <div className={styles.results} aria-busy={isFetching || undefined}>
        <TicketList tickets={rows} departments={departments.data} label={t('list.label')} />
      </div>
    );
  }

  const from = (page - 1) * perPage + 1;
  return (
    <Page title={t('title')} lead={t('description')} actions={newTicket}>
      <section className={styles.section} aria-labelledby={headingId}>
        <h2 id={headingId} className="visually-hidden">
          {t('list.label')}
        </h2>
        <div className={styles.toolbar}>
          <fieldset className={styles.filter}>
            <legend className={fieldStyles.label}>{t('list.status')}</legend>
            <div className={segments.segments}>
              {STATUS_FILTERS.map((option) => (
                <label key={option} className={segments.segment}>
                  <input
                    type="radio"
                    className={segments.radio}
                    name={`${headingId}-status`}
                    value={option}
                    checked={status === option}
                    onChange={() => filter({ status: option === 'all' ? null : option })}
                  />
                  <span className={segments.text}>{t(`list.filters.${option}`)}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className={fieldStyles.field}>
            <label htmlFor={`${headingId}-department`} className={fieldStyles.label}>
              {t('list.department')}
            </label>
            <select
              id={`${headingId}-department`}
              className={`${fieldStyles.input} ${styles.select}`}
              value={departmentId ? String(departmentId) : ''}
              onChange={(event) => filter({ department: event.target.value || null })}
            >
              <option value="">{t('list.allDepartments')}</option>
              {(departments.data ?? []).map((department) => (
                <option key={department.id} value={String(department.id)}>
                  {f.department(department)}
                </option>
              ))}
            </select>
          </div>
        </div>
        <p className={styles.count} role="status">
          {data && !isFetching ? t('list.count', { count: total }) : ''}
        </p>
        {content}
        {rows.length > 0 ? (
          <Pagination
            page={page}
            pageCount={pageCountOf(total, perPage)}
            onPageChange={(next) => update({ page: next > 1 ? String(next) : null })}
            label={t('list.pages')}
            range={t('list.range', {
              from,
              to: Math.min(total, from + rows.length - 1),
              total,
            })}
          />
        ) : null}
      </section>
      {newFor !== null ? (
        <NewTicketDialog
          departmentCode={newFor || undefined}
          onClose={closeForm}
          returnFocusTo={newButton}
        />
      ) : null}
    </Page>
  );
}
