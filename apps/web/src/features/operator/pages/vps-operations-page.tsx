import { SERVER_OPERATION_STATUSES, type AdminOperation } from '@tradehost/contracts';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useFormIntent } from '../../../shared/lib/form-intent';
import { Button, FormAlert, TextField } from '../../../shared/ui/form';
import { useDocumentTitle } from '../../../shared/ui/page/page';
import {
  useFailOperationMutation,
  useGetAdminVpsOperationsQuery,
  useRetryOperationMutation,
  type OperationFilter,
} from '../api/vps-operator-api';
import type { Column } from '../components/data-table';
import { decide, type Settlement } from '../components/decision';
import { ConfirmDecisionDialog, ReasonDecisionDialog } from '../components/decision-dialogs';
import { SelectField } from '../components/fields';
import { usePageParam } from '../components/pagination';
import { PagedTable } from '../components/paged-table';
import { Person } from '../components/person';
import { OperationStatusBadge } from '../components/vps-badges';
import { useFormatters } from '../lib/format';
import { useOperatorError } from '../lib/use-operator-error';
import styles from '../components/operator.module.css';
import vpsStyles from '../components/vps.module.css';

const ALL = 'all';
const FILTERS: readonly OperationFilter[] = ['stuck', ...SERVER_OPERATION_STATUSES];
const STALE_CODES = ['OPERATION_NOT_STUCK', 'OPERATION_FINISHED'] as const;

function statusParam(value: string | null): OperationFilter | undefined {
  return (FILTERS as readonly string[]).includes(value ?? '')
    ? (value as OperationFilter)
    : undefined;
}

function serverParam(value: string | null): number | undefined {
  const id = Number(value);
  return value && Number.isSafeInteger(id) && id >= 1 ? id : undefined;
}

type Action = { kind: 'retry' | 'fail'; operation: AdminOperation } | null;

/**
 * Route module (lazy, admins only): every hypervisor operation, newest first, by status (with
 * "stuck": queued or running for too long) and by server. A stuck one can be run again or ended
 * as failed with a reason (a failed creation refunds the order, a failed upgrade its charge).
 */
export function Component() {
  const { t } = useTranslation('operator');
  useDocumentTitle(t('vps.operations.title'));
  const format = useFormatters();
  const errorText = useOperatorError();
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const openerRef = useRef<HTMLElement | null>(null);
  const intent = useFormIntent();
  const [params, setParams] = useSearchParams();
  const status = statusParam(params.get('status'));
  const serverId = serverParam(params.get('server_id'));
  const [page, setPage] = usePageParam();
  const query = useGetAdminVpsOperationsQuery({ status, serverId, page });
  const [retry] = useRetryOperationMutation();
  const [fail] = useFailOperationMutation();
  const [action, setAction] = useState<Action>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | undefined>();

  const update = (name: 'status' | 'server_id', value: string | undefined) => {
    setNotice(null);
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      if (value) next.set(name, value);
      else next.delete(name);
      next.delete('page');
      return next;
    });
  };

  const onServer = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get('server') ?? '').trim();
    if (value && serverParam(value) === undefined) {
      setServerError(t('vps.operations.serverInvalid'));
      return;
    }
    setServerError(undefined);
    update('server_id', value || undefined);
  };

  const openAction = (kind: 'retry' | 'fail', operation: AdminOperation, opener: HTMLElement) => {
    openerRef.current = opener;
    setNotice(null);
    setAction({ kind, operation });
    setDialogOpen(true);
  };

  const settled = (settlement: Settlement<unknown>) => {
    // the row's buttons go: the focus goes to the log's heading
    openerRef.current = headingRef.current;
    setDialogOpen(false);
    if (settlement.outcome === 'stale') {
      setNotice(`${errorText.request(settlement.error)} ${t('vps.operations.refreshed')}`);
    }
  };

  const kindOf = (operation: AdminOperation) => t(`vps.operationKinds.${operation.kind}`);
  const what = (operation: AdminOperation) => ({
    id: operation.id,
    kind: kindOf(operation),
    server: operation.server_id,
  });

  const columns: Column<AdminOperation>[] = [
    {
      id: 'operation',
      header: t('vps.operations.columns.operation'),
      cell: (operation) => (
        <span className={vpsStyles.stack}>
          <strong>{t('vps.operations.number', { id: operation.id })}</strong>
          <span className={vpsStyles.small}>{format.dateTime(operation.created_at)}</span>
        </span>
      ),
    },
    {
      id: 'server',
      header: t('vps.operations.columns.server'),
      cell: (operation) => (
        <span className={vpsStyles.stack}>
          <Link to={`/operator/vps/operations?server_id=${operation.server_id}`}>
            {t('vps.serverNumber', { id: operation.server_id })}
          </Link>
          <Person user={operation.user} />
        </span>
      ),
    },
    { id: 'kind', header: t('vps.operations.columns.kind'), cell: kindOf },
    {
      id: 'status',
      header: t('vps.operations.columns.status'),
      cell: (operation) => (
        <span className={vpsStyles.stack}>
          <OperationStatusBadge status={operation.status} stuck={operation.stuck} />
          {operation.attempts > 1 ? (
            <span className={vpsStyles.small}>
              {t('vps.operations.attempts', { value: operation.attempts })}
            </span>
          ) : null}
        </span>
      ),
    },
    {
      id: 'actor',
      header: t('vps.operations.columns.actor'),
      cell: (operation) =>
        operation.actor ? (
          <Person user={operation.actor} />
        ) : (
          <span className={styles.muted}>{t('vps.operations.lifecycle')}</span>
        ),
    },
    {
      id: 'timing',
      header: t('vps.operations.columns.timing'),
      cell: (operation) => (
        <span className={vpsStyles.stack}>
          <span className={vpsStyles.small}>
            {operation.started_at
              ? t('vps.operations.started', { date: format.dateTime(operation.started_at) })
              : t('vps.operations.notStarted')}
          </span>
          {operation.finished_at ? (
            <span className={vpsStyles.small}>
              {t('vps.operations.finished', { date: format.dateTime(operation.finished_at) })}
            </span>
          ) : null}
        </span>
      ),
    },
    {
      id: 'error',
      header: t('vps.operations.columns.error'),
      cell: (operation) =>
        operation.error ? (
          <span className={vpsStyles.errorText}>{operation.error}</span>
        ) : (
          <span className={styles.muted}>—</span>
        ),
    },
    {
      id: 'actions',
      header: t('vps.operations.columns.actions'),
      actions: true,
      cell: (operation) =>
        operation.stuck ? (
          <span className={styles.rowActions}>
            <Button onClick={(event) => openAction('retry', operation, event.currentTarget)}>
              {t('vps.operations.retry')}{' '}
              <span className="visually-hidden">
                {t('vps.operations.rowContext', { id: operation.id })}
              </span>
            </Button>
            <Button
              variant="secondary"
              className={styles.danger}
              onClick={(event) => openAction('fail', operation, event.currentTarget)}
            >
              {t('vps.operations.fail')}{' '}
              <span className="visually-hidden">
                {t('vps.operations.rowContext', { id: operation.id })}
              </span>
            </Button>
          </span>
        ) : null,
    },
  ];

  const statusOptions = [ALL, ...FILTERS].map((value) => ({
    value,
    label: value === ALL ? t('vps.operations.allStatuses') : t(`vps.operationStatuses.${value}`),
  }));

  const facts = (operation: AdminOperation) => (
    <dl className={styles.facts}>
      <dt>{t('vps.operations.columns.server')}</dt>
      <dd>
        {t('vps.serverNumber', { id: operation.server_id })}, {operation.user.email}
      </dd>
      <dt>{t('vps.operations.columns.kind')}</dt>
      <dd>{kindOf(operation)}</dd>
      <dt>{t('vps.operations.columns.operation')}</dt>
      <dd>{format.dateTime(operation.created_at)}</dd>
      <dt>{t('vps.operations.columns.timing')}</dt>
      <dd>
        {operation.started_at
          ? t('vps.operations.started', { date: format.dateTime(operation.started_at) })
          : t('vps.operations.notStarted')}
      </dd>
    </dl>
  );

  const empty = serverId
    ? t('vps.operations.emptyServer', { id: serverId })
    : status === 'stuck'
      ? t('vps.operations.emptyStuck')
      : status
        ? t('vps.operations.emptyFiltered')
        : t('vps.operations.empty');
  const operation = action?.operation;

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <div className={styles.sectionHeader}>
        <div>
          <h2 id={headingId} ref={headingRef} tabIndex={-1} className={styles.sectionTitle}>
            {serverId
              ? t('vps.operations.titleServer', { id: serverId })
              : t('vps.operations.title')}
          </h2>
          <p className={styles.lead}>{t('vps.operations.lead')}</p>
        </div>
        <Button
          variant="secondary"
          loading={query.isFetching}
          loadingText={t('vps.refreshing')}
          onClick={() => void query.refetch()}
        >
          {t('vps.refresh')}
        </Button>
      </div>
      <div className={vpsStyles.filters}>
        <form key={serverId ?? ''} role="search" className={styles.search} onSubmit={onServer}>
          <TextField
            label={t('vps.operations.server')}
            name="server"
            type="search"
            inputMode="numeric"
            defaultValue={serverId ?? ''}
            autoComplete="off"
            maxLength={12}
            error={serverError}
          />
          <Button type="submit">{t('vps.operations.serverSubmit')}</Button>
        </form>
        <SelectField
          label={t('vps.operations.status')}
          options={statusOptions}
          value={status ?? ALL}
          onChange={(event) =>
            update('status', event.target.value === ALL ? undefined : event.target.value)
          }
        />
      </div>
      {serverId ? (
        <p className={styles.muted}>
          <Link to="/operator/vps/servers">{t('vps.operations.backToServers')}</Link>
        </p>
      ) : null}
      {notice ? <FormAlert tone="warning">{notice}</FormAlert> : null}
      <PagedTable
        result={query}
        empty={empty}
        labelledBy={headingId}
        columns={columns}
        pagesLabel={t('vps.operations.pages')}
        onPageChange={setPage}
      />
      {operation && action.kind === 'retry' ? (
        <ConfirmDecisionDialog
          key={`retry-${operation.id}`}
          open={dialogOpen}
          onOpenChange={setDialogOpen}
          title={t('vps.operations.retryDialog.title')}
          description={t('vps.operations.retryDialog.question', what(operation))}
          submitLabel={t('vps.operations.retryDialog.submit')}
          submittingLabel={t('vps.operations.retryDialog.submitting')}
          returnFocusTo={openerRef}
          run={() =>
            decide({
              intent,
              fingerprint: `retry-operation:${operation.id}`,
              send: (idempotencyKey) => retry({ id: operation.id, idempotencyKey }).unwrap(),
              successText: () => t('vps.operations.retried', what(operation)),
              staleCodes: STALE_CODES,
              onSettled: settled,
            })
          }
        >
          {facts(operation)}
        </ConfirmDecisionDialog>
      ) : null}
      {operation && action.kind === 'fail' ? (
        <ReasonDecisionDialog
          key={`fail-${operation.id}`}
          open={dialogOpen}
          onOpenChange={setDialogOpen}
          title={t('vps.operations.failDialog.title')}
          description={`${t('vps.operations.failDialog.question', what(operation))} ${t(
            operation.kind === 'create'
              ? 'vps.operations.failDialog.create'
              : operation.kind === 'upgrade'
                ? 'vps.operations.failDialog.upgrade'
                : 'vps.operations.failDialog.other',
          )}`}
          submitLabel={t('vps.operations.failDialog.submit')}
          submittingLabel={t('vps.operations.failDialog.submitting')}
          reasonLabel={t('vps.operations.failDialog.reason')}
          reasonHint={t('vps.operations.failDialog.reasonHint')}
          returnFocusTo={openerRef}
          run={(reason) =>
            decide({
              intent,
              fingerprint: `fail-operation:${operation.id}:${reason}`,
              send: (idempotencyKey) => fail({ id: operation.id, reason, idempotencyKey }).unwrap(),
              successText: () => t('vps.operations.failed', what(operation)),
              staleCodes: STALE_CODES,
              onSettled: settled,
            })
          }
        >
          {facts(operation)}
        </ReasonDecisionDialog>
      ) : null}
    </section>
  );
}
