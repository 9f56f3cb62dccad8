import {
  SOURCE_OPTIONS,
  TEST_REQUEST_STATUSES,
  type AdminTestRequest,
  type TestRequestStatus,
} from '@tradehost/contracts';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useFormIntent } from '../../../shared/lib/form-intent';
import { Button, FormAlert } from '../../../shared/ui/form';
import { useDocumentTitle } from '../../../shared/ui/page/page';
import { Tabs } from '../../../shared/ui/tabs/tabs';
import {
  useApproveTestRequestMutation,
  useGetAdminTestRequestsQuery,
  useRejectTestRequestMutation,
  type ApproveResponse,
} from '../api/vps-operator-api';
import type { Column } from '../components/data-table';
import { decide, type Settlement } from '../components/decision';
import { ConfirmDecisionDialog, ReasonDecisionDialog } from '../components/decision-dialogs';
import { usePageParam } from '../components/pagination';
import { PagedTable } from '../components/paged-table';
import { Person } from '../components/person';
import { TestStatusBadge } from '../components/vps-badges';
import { isOverdue, useFormatters } from '../lib/format';
import { useOperatorError } from '../lib/use-operator-error';
import styles from '../components/operator.module.css';
import vpsStyles from '../components/vps.module.css';

const DEFAULT_STATUS: TestRequestStatus = 'under_review';
const STALE_CODES = ['TEST_REQUEST_ALREADY_DECIDED'] as const;

function statusParam(value: string | null): TestRequestStatus {
  return (TEST_REQUEST_STATUSES as readonly string[]).includes(value ?? '')
    ? (value as TestRequestStatus)
    : DEFAULT_STATUS;
}

type Review = { kind: 'approve' | 'reject'; request: AdminTestRequest } | null;
type Notice =
  { kind: 'approved'; email: string; serverId: number } | { kind: 'stale'; text: string } | null;

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
  const headingRef = useRef<HTMLHeadingElement>(null);
  const openerRef = useRef<HTMLElement | null>(null);
  const intent = useFormIntent();
  const [params, setParams] = useSearchParams();
  const status = statusParam(params.get('status'));
  const [page, setPage] = usePageParam();
  const query = useGetAdminTestRequestsQuery({ status, page });
  const [approve] = useApproveTestRequestMutation();
  const [reject] = useRejectTestRequestMutation();
  const [review, setReview] = useState<Review>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);

  const setStatus = (value: TestRequestStatus) => {
    setNotice(null);
    setParams(value === DEFAULT_STATUS ? {} : { status: value });
  };

  const openReview = (
    kind: 'approve' | 'reject',
    request: AdminTestRequest,
    opener: HTMLElement,
  ) => {
    openerRef.current = opener;
    setNotice(null);
    setReview({ kind, request });
    setDialogOpen(true);
  };

  const settled =
    (request: AdminTestRequest, kind: 'approve' | 'reject') =>
    (settlement: Settlement<unknown>) => {
      // the row leaves the queue: the focus goes to the queue's heading
      openerRef.current = headingRef.current;
      setDialogOpen(false);
      if (settlement.outcome === 'stale') {
        setNotice({
          kind: 'stale',
          text: `${errorText.request(settlement.error)} ${t('vps.tests.refreshed')}`,
        });
      } else if (kind === 'approve') {
        const { server } = settlement.result as ApproveResponse;
        setNotice({ kind: 'approved', email: request.user.email, serverId: server.id });
      }
    };

  const columns: Column<AdminTestRequest>[] = [
    {
      id: 'requested',
      header: t('vps.tests.columns.requested'),
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
          cell: (request) => (
            <span
              className={isOverdue(request.created_at) ? styles.overdue : undefined}
              title={format.dateTime(request.created_at)}
            >
              {format.age(request.created_at)}
            </span>
          ),
        }
      : {
          id: 'decision',
          header: t('vps.tests.columns.decision'),
          cell: (request) => (
            <span className={vpsStyles.stack}>
              <TestStatusBadge status={request.status} />
              {request.decided_at ? (
                <span className={vpsStyles.small}>{format.dateTime(request.decided_at)}</span>
              ) : null}
              {request.server_id !== null ? (
                <Link to={`/operator/vps/servers?search=${request.server_id}`}>
                  {t('vps.tests.server', { id: request.server_id })}
                </Link>
              ) : null}
              {request.reason ? (
                <span className={vpsStyles.small}>
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
          <span className={styles.rowActions}>
            <Button onClick={(event) => openReview('approve', request, event.currentTarget)}>
              {t('vps.tests.approve')}{' '}
              <span className="visually-hidden">
                {t('vps.tests.rowContext', { email: request.user.email })}
              </span>
            </Button>
            <Button
              variant="secondary"
              className={styles.danger}
              onClick={(event) => openReview('reject', request, event.currentTarget)}
            >
              {t('vps.tests.reject')}{' '}
              <span className="visually-hidden">
                {t('vps.tests.rowContext', { email: request.user.email })}
              </span>
            </Button>
          </span>
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

  const request = review?.request;

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <div>
        <h2 id={headingId} ref={headingRef} tabIndex={-1} className={styles.sectionTitle}>
          {t('vps.tests.title')}
        </h2>
        <p className={styles.lead}>{t('vps.tests.lead')}</p>
      </div>
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
        onChange={setStatus}
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
      {request && review.kind === 'approve' ? (
        <ConfirmDecisionDialog
          key={`approve-${request.id}`}
          open={dialogOpen}
          onOpenChange={setDialogOpen}
          title={t('vps.tests.approveDialog.title')}
          description={t('vps.tests.approveDialog.question', { email: request.user.email })}
          submitLabel={t('vps.tests.approveDialog.submit')}
          submittingLabel={t('vps.tests.approveDialog.submitting')}
          returnFocusTo={openerRef}
          run={() =>
            decide({
              intent,
              fingerprint: `approve-test:${request.id}`,
              send: (idempotencyKey) => approve({ id: request.id, idempotencyKey }).unwrap(),
              successText: ({ server }) =>
                t('vps.tests.approved', { email: request.user.email, id: server.id }),
              staleCodes: STALE_CODES,
              onSettled: settled(request, 'approve'),
            })
          }
        >
          {facts(request)}
        </ConfirmDecisionDialog>
      ) : null}
      {request && review.kind === 'reject' ? (
        <ReasonDecisionDialog
          key={`reject-${request.id}`}
          open={dialogOpen}
          onOpenChange={setDialogOpen}
          title={t('vps.tests.rejectDialog.title')}
          description={t('vps.tests.rejectDialog.question', { email: request.user.email })}
          submitLabel={t('vps.tests.rejectDialog.submit')}
          submittingLabel={t('vps.tests.rejectDialog.submitting')}
          reasonLabel={t('vps.tests.rejectDialog.reason')}
          reasonHint={t('vps.tests.rejectDialog.reasonHint')}
          returnFocusTo={openerRef}
          run={(reason) =>
            decide({
              intent,
              fingerprint: `reject-test:${request.id}:${reason}`,
              send: (idempotencyKey) => reject({ id: request.id, reason, idempotencyKey }).unwrap(),
              successText: () => t('vps.tests.rejected', { email: request.user.email }),
              staleCodes: STALE_CODES,
              onSettled: settled(request, 'reject'),
            })
          }
        >
          {facts(request)}
        </ReasonDecisionDialog>
      ) : null}
    </section>
  );
}
