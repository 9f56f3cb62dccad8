import { SERVER_OPERATION_STATUSES, type AdminOperation } from '@tradehost/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormAlert, SelectField } from '../../../../shared/ui/form';
import { useDocumentTitle } from '../../../../shared/ui/page/page';
import {
  useFailOperationMutation,
  useGetAdminVpsOperationsQuery,
  useRetryOperationMutation,
  type OperationFilter,
} from '../api/vps-operator-api';
import type { Column } from '../../../operator/components/data-table';
import { useDecisions } from '../../../operator/components/decision';
import {
  ConfirmDecisionDialog,
  DecisionButtons,
  ReasonDecisionDialog,
} from '../../../operator/components/decision-dialogs';
import { ListHeader, RefreshButton, SearchForm } from '../../../operator/components/list-controls';
import { usePageParam } from '../../../operator/components/pagination';
import { PagedTable } from '../../../operator/components/paged-table';
import { Person } from '../../../operator/components/person';
import { OperationStatusBadge } from '../components/vps-badges';
import { useFormatters } from '../../../operator/lib/format';
import { oneOf, useFilterParams } from '../../../operator/lib/list-params';
import { useOperatorError } from '../../../operator/lib/use-operator-error';
import styles from '../../../operator/components/operator.module.css';
import controlStyles from '../../../operator/components/controls.module.css';

const ALL = 'all';
const FILTERS: readonly OperationFilter[] = ['stuck', ...SERVER_OPERATION_STATUSES];
const STALE_CODES = ['OPERATION_NOT_STUCK', 'OPERATION_FINISHED'] as const;

function serverParam(value: string | null): number | undefined {
  const id = Number(value);
  return value && Number.isSafeInteger(id) && id >= 1 ? id : undefined;
}

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
  const decisions = useDecisions<'retry' | 'fail', AdminOperation>({
    staleCodes: STALE_CODES,
    noticeOf: (settlement) =>
      settlement.outcome === 'stale'
        ? `${errorText.request(settlement.error)} ${t('vps.operations.refreshed')}`
        : undefined,
  });
  const [params, setFilter] = useFilterParams(decisions.clearNotice);
  const status = oneOf(FILTERS, params.get('status'));
  const serverId = serverParam(params.get('server_id'));
  const [page, setPage] = usePageParam();
  const query = useGetAdminVpsOperationsQuery({ status, serverId, page });
  const [retry] = useRetryOperationMutation();
  const [fail] = useFailOperationMutation();
  const [serverError, setServerError] = useState<string | undefined>();

  const onServer = (value: string) => {
    if (value && serverParam(value) === undefined) {
      setServerError(t('vps.operations.serverInvalid'));
      return;
    }
    setServerError(undefined);
    setFilter('server_id', value);
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
        <span className={controlStyles.stack}>
          <strong>{t('number', { id: operation.id })}</strong>
          <span className={controlStyles.small}>{format.dateTime(operation.created_at)}</span>
        </span>
      ),
    },
    {
      id: 'server',
      header: t('vps.operations.columns.server'),
      cell: (operation) => (
        <span className={controlStyles.stack}>
          <Link to={`/operator/vps/operations?server_id=${operation.server_id}`}>
            {t('number', { id: operation.server_id })}
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
        <span className={controlStyles.stack}>
          <OperationStatusBadge status={operation.status} stuck={operation.stuck} />
          {operation.attempts > 1 ? (
            <span className={controlStyles.small}>
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
        <span className={controlStyles.stack}>
          <span className={controlStyles.small}>
            {operation.started_at
              ? t('vps.operations.started', { date: format.dateTime(operation.started_at) })
              : t('vps.operations.notStarted')}
          </span>
          {operation.finished_at ? (
            <span className={controlStyles.small}>
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
          <span className={controlStyles.errorText}>{operation.error}</span>
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
          <DecisionButtons
            context={t('vps.operations.rowContext', { id: operation.id })}
            decisions={[
              ['retry', t('vps.operations.retry')],
              ['fail', t('vps.operations.fail')],
            ]}
            onStart={(kind, opener) => decisions.start(kind, operation, opener)}
          />
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
        {t('number', { id: operation.server_id })}, {operation.user.email}
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
  const { pending } = decisions;
  const operation = pending?.subject;

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <ListHeader
        headingId={headingId}
        headingRef={decisions.headingRef}
        title={
          serverId ? t('vps.operations.titleServer', { id: serverId }) : t('vps.operations.title')
        }
        lead={t('vps.operations.lead')}
      >
        <RefreshButton result={query} />
      </ListHeader>
      <div className={controlStyles.filters}>
        <SearchForm
          label={t('vps.operations.server')}
          name="server"
          value={String(serverId ?? '')}
          inputMode="numeric"
          maxLength={12}
          error={serverError}
          submitLabel={t('vps.operations.serverSubmit')}
          onSearch={onServer}
        />
        <SelectField
          label={t('vps.operations.status')}
          options={statusOptions}
          value={status ?? ALL}
          onChange={(event) => setFilter('status', event.target.value, ALL)}
        />
      </div>
      {serverId ? (
        <p className={styles.muted}>
          <Link to="/operator/vps/servers">{t('vps.operations.backToServers')}</Link>
        </p>
      ) : null}
      {decisions.notice ? <FormAlert tone="warning">{decisions.notice}</FormAlert> : null}
      <PagedTable
        result={query}
        empty={empty}
        labelledBy={headingId}
        columns={columns}
        pagesLabel={t('vps.operations.pages')}
        onPageChange={setPage}
      />
      {operation && pending.kind === 'retry' ? (
        <ConfirmDecisionDialog
          key={`retry-${operation.id}`}
          {...decisions.dialog}
          title={t('vps.operations.retryDialog.title')}
          description={t('vps.operations.retryDialog.question', what(operation))}
          submitLabel={t('vps.operations.retryDialog.submit')}
          submittingLabel={t('vps.operations.retryDialog.submitting')}
          run={() =>
            decisions.decide({
              fingerprint: `retry-operation:${operation.id}`,
              send: (idempotencyKey) => retry({ id: operation.id, idempotencyKey }).unwrap(),
              successText: () => t('vps.operations.retried', what(operation)),
            })
          }
        >
          {facts(operation)}
        </ConfirmDecisionDialog>
      ) : null}
      {operation && pending.kind === 'fail' ? (
        <ReasonDecisionDialog
          key={`fail-${operation.id}`}
          {...decisions.dialog}
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
          run={(reason) =>
            decisions.decide({
              fingerprint: `fail-operation:${operation.id}:${reason}`,
              send: (idempotencyKey) => fail({ id: operation.id, reason, idempotencyKey }).unwrap(),
              successText: () => t('vps.operations.failed', what(operation)),
            })
          }
        >
          {facts(operation)}
        </ReasonDecisionDialog>
      ) : null}
    </section>
  );
}
