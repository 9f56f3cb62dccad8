import {
  SOURCE_OPTIONS,
  TEST_REQUEST_STATUSES,
  type AdminTestRequest,
  type TestRequestStatus,
} from '@tradehost/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormAlert } from '../../../../shared/ui/form';
import { useDocumentTitle } from '../../../../shared/ui/page/page';
import { Tabs } from '../../../../shared/ui/tabs/tabs';
import {
  useApproveTestRequestMutation,
  useGetAdminTestRequestsQuery,
  useRejectTestRequestMutation,
  type ApproveResponse,
} from '../api/vps-operator-api';
import type { Column } from '../../../operator/components/data-table';
import { useDecisions } from '../../../operator/components/decision';
import {
  ConfirmDecisionDialog,
  DecisionButtons,
  ReasonDecisionDialog,
} from '../../../operator/components/decision-dialogs';
import { ListHeader } from '../../../operator/components/list-controls';
import { usePageParam } from '../../../operator/components/pagination';
import { PagedTable } from '../../../operator/components/paged-table';
import { Person } from '../../../operator/components/person';
import { TestStatusBadge } from '../components/vps-badges';
import { Waiting } from '../../../operator/components/waiting';
import { useFormatters } from '../../../operator/lib/format';
import { oneOf, useFilterParams } from '../../../operator/lib/list-params';
import { useOperatorError } from '../../../operator/lib/use-operator-error';
import styles from '../../../operator/components/operator.module.css';
import controlStyles from '../../../operator/components/controls.module.css';

const DEFAULT_STATUS: TestRequestStatus = 'under_review';
const STALE_CODES = ['TEST_REQUEST_ALREADY_DECIDED'] as const;

type Notice =
  { kind: 'approved'; email: string; serverId: number } | { kind: 'stale'; text: string };

/** A "how did you hear about us" answer in words (an unknown one as it came). */
function useSourceText() {
  const { t } = useTranslation('operator');
  return (source: string) =>
    (SOURCE_OPTIONS as readonly string[]).includes(source)
      ? t(`vps.sources.${source}`)
      : source || '—';
}

/**
 * Route module (lazy, admins only): the free test servers users asked for, oldest first, to be
 * processed within one business day. Approving makes a trial server (no charge); rejecting
 * tells the user why.
 */
export function Component() {
  const { t } = useTranslation('operator');
  useDocumentTitle(t('vps.tests.title'));
  const format = useFormatters();
  const errorText = useOperatorError();
  const sourceText = useSourceText();
  const headingId = useId();
  const decisions = useDecisions<'approve' | 'reject', AdminTestRequest, Notice>({
    staleCodes: STALE_CODES,
    noticeOf: (settlement, { kind, subject }) => {
      if (settlement.outcome === 'stale') {
        return {
          kind: 'stale',
          text: `${errorText.request(settlement.error)} ${t('vps.tests.refreshed')}`,
        };
      }
      if (kind !== 'approve') return undefined;
      const { server } = settlement.result as ApproveResponse;
      return { kind: 'approved', email: subject.user.email, serverId: server.id };
    },
  });
  const [params, setFilter] = useFilterParams(decisions.clearNotice);
  const status = oneOf(TEST_REQUEST_STATUSES, params.get('status')) ?? DEFAULT_STATUS;
  const [page, setPage] = usePageParam();
  const query = useGetAdminTestRequestsQuery({ status, page });
  const [approve] = useApproveTestRequestMutation();
  const [reject] = useRejectTestRequestMutation();

  const columns: Column<AdminTestRequest>[] = [
    {
      id: 'requested',
      header: t('vps.tests.columns.requested'),
      moment: true,
      cell: (request) => format.dateTime(request.created_at),
    },
    {
      id: 'user',
      header: t('vps.tests.columns.user'),
      cell: (request) => <Person user={request.user} />,
    },
    {
      id: 'source',
      header: t('vps.tests.columns.source'),
      cell: (request) => sourceText(request.source),
    },
    status === 'under_review'
      ? {
          id: 'waiting',
          header: t('vps.tests.columns.waiting'),
          cell: (request) => <Waiting since={request.created_at} />,
        }
      : {
          id: 'decision',
          header: t('vps.tests.columns.decision'),
          cell: (request) => (
            <span className={controlStyles.stack}>
              <TestStatusBadge status={request.status} />
              {request.decided_at ? (
                <span className={controlStyles.small}>{format.dateTime(request.decided_at)}</span>
              ) : null}
              {request.server_id !== null ? (
                <Link to={`/operator/vps/servers?search=${request.server_id}`}>
                  {t('vps.tests.server', { id: request.server_id })}
                </Link>
              ) : null}
              {request.reason ? (
                <span className={controlStyles.small}>
                  {t('vps.tests.reason', { reason: request.reason })}
                </span>
              ) : null}
            </span>
          ),
        },
    {
      id: 'actions',
      header: t('vps.tests.columns.actions'),
      actions: true,
      cell: (request) =>
        request.status === 'under_review' ? (
          <DecisionButtons
            context={t('vps.tests.rowContext', { email: request.user.email })}
            decisions={[
              ['approve', t('vps.tests.approve')],
              ['reject', t('vps.tests.reject')],
            ]}
            onStart={(kind, opener) => decisions.start(kind, request, opener)}
          />
        ) : null,
    },
  ];

  const facts = (request: AdminTestRequest) => (
    <dl className={styles.facts}>
      <dt>{t('vps.tests.columns.user')}</dt>
      <dd>
        {request.user.name ? `${request.user.name} (${request.user.email})` : request.user.email}
      </dd>
      <dt>{t('vps.tests.columns.source')}</dt>
      <dd>{sourceText(request.source)}</dd>
      <dt>{t('vps.tests.columns.requested')}</dt>
      <dd>{format.dateTime(request.created_at)}</dd>
    </dl>
  );

  const { pending, notice } = decisions;
  const request = pending?.subject;

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <ListHeader
        headingId={headingId}
        headingRef={decisions.headingRef}
        title={t('vps.tests.title')}
        lead={t('vps.tests.lead')}
      />
      {notice?.kind === 'approved' ? (
        <FormAlert tone="success">
          {t('vps.tests.approvedNotice', { email: notice.email, id: notice.serverId })}{' '}
          <Link to={`/operator/vps/operations?server_id=${notice.serverId}`}>
            {t('vps.tests.followCreation')}
          </Link>
        </FormAlert>
      ) : null}
      {notice?.kind === 'stale' ? <FormAlert tone="warning">{notice.text}</FormAlert> : null}
      <Tabs
        label={t('vps.tests.tabsLabel')}
        items={TEST_REQUEST_STATUSES.map((value) => ({
          value,
          label: t(`vps.testStatuses.${value}`),
        }))}
        value={status}
        onChange={(value) => setFilter('status', value, DEFAULT_STATUS)}
      >
        <div className={styles.section}>
          <PagedTable
            result={query}
            empty={t(`vps.tests.empty.${status}`)}
            labelledBy={headingId}
            columns={columns}
            pagesLabel={t('vps.tests.pages')}
            onPageChange={setPage}
          />
        </div>
      </Tabs>
      {request && pending.kind === 'approve' ? (
        <ConfirmDecisionDialog
          key={`approve-${request.id}`}
          {...decisions.dialog}
          title={t('vps.tests.approveDialog.title')}
          description={t('vps.tests.approveDialog.question', { email: request.user.email })}
          submitLabel={t('vps.tests.approveDialog.submit')}
          submittingLabel={t('vps.tests.approveDialog.submitting')}
          run={() =>
            decisions.decide({
              fingerprint: `approve-test:${request.id}`,
              send: (idempotencyKey) => approve({ id: request.id, idempotencyKey }).unwrap(),
              successText: ({ server }) =>
                t('vps.tests.approved', { email: request.user.email, id: server.id }),
            })
          }
        >
          {facts(request)}
        </ConfirmDecisionDialog>
      ) : null}
      {request && pending.kind === 'reject' ? (
        <ReasonDecisionDialog
          key={`reject-${request.id}`}
          {...decisions.dialog}
          title={t('vps.tests.rejectDialog.title')}
          description={t('vps.tests.rejectDialog.question', { email: request.user.email })}
          submitLabel={t('vps.tests.rejectDialog.submit')}
          submittingLabel={t('vps.tests.rejectDialog.submitting')}
          reasonLabel={t('vps.tests.rejectDialog.reason')}
          reasonHint={t('vps.tests.rejectDialog.reasonHint')}
          run={(reason) =>
            decisions.decide({
              fingerprint: `reject-test:${request.id}:${reason}`,
              send: (idempotencyKey) => reject({ id: request.id, reason, idempotencyKey }).unwrap(),
              successText: () => t('vps.tests.rejected', { email: request.user.email }),
            })
          }
        >
          {facts(request)}
        </ReasonDecisionDialog>
      ) : null}
    </section>
  );
}
