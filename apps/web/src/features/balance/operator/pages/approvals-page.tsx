import type { MoneyApproval } from '@tradehost/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../auth/api/use-current-user';
import { FormAlert, SelectField } from '../../../../shared/ui/form';
import { useDocumentTitle } from '../../../../shared/ui/page/page';
import {
  useApproveAdjustmentMutation,
  useDeclineAdjustmentMutation,
  useGetApprovalsQuery,
  type ApprovalFilter,
} from '../api/balance-operator-api';
import {
  useApprovePayoutMutation,
  useDeclinePayoutMutation,
} from '../../../partners/operator/api/partner-operator-api';
import { SignedAmount } from '../../../operator/components/amount';
import { Badge, type Tone } from '../../../operator/components/badge';
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
import { Waiting } from '../../../operator/components/waiting';
import { useFormatters } from '../../../operator/lib/format';
import { oneOf, useFilterParams } from '../../../operator/lib/list-params';
import styles from '../../../operator/components/operator.module.css';

const FILTERS: readonly ApprovalFilter[] = ['pending', 'all'];
const DEFAULT_FILTER: ApprovalFilter = 'pending';
/** Decided by someone else meanwhile (or the withdrawal was): the list is fetched again. */
const STALE_CODES = ['APPROVAL_DECIDED', 'WITHDRAWAL_PROCESSED'] as const;

const STATUS_TONE: Record<MoneyApproval['status'], Tone> = {
  pending: 'warning',
  approved: 'success',
  declined: 'neutral',
};

/**
 * Route module (lazy, billing): four eyes on money. An adjustment or a partner payout above
 * OPERATOR_APPROVAL_ABOVE waits here until a second operator approves it (it takes effect then)
 * or declines it with a reason. An operator's own request shows no Approve: they may only
 * withdraw it.
 */
export function Component() {
  const { t } = useTranslation('operator');
  useDocumentTitle(t('approvals.title'));
  const format = useFormatters();
  const headingId = useId();
  const me = useCurrentUser();

  const decisions = useDecisions<'approve' | 'decline', MoneyApproval>({
    staleCodes: STALE_CODES,
    noticeOf: (settlement) =>
      settlement.outcome === 'stale' ? t('approvals.alreadyDecided') : undefined,
  });
  const [params, setFilter] = useFilterParams(decisions.clearNotice);
  const status = oneOf(FILTERS, params.get('status')) ?? DEFAULT_FILTER;
  const [page, setPage] = usePageParam();
  const query = useGetApprovalsQuery({ status, page });
  const [approveAdjustment] = useApproveAdjustmentMutation();
  const [declineAdjustment] = useDeclineAdjustmentMutation();
  const [approvePayout] = useApprovePayoutMutation();
  const [declinePayout] = useDeclinePayoutMutation();

  const mine = (approval: MoneyApproval) => approval.requested_by.id === me?.id;
  const texts = (approval: MoneyApproval) => ({
    amount: format.money(Math.abs(approval.amount)),
    email: approval.user.email,
    what: whatOf(approval),
  });
  const whatOf = (approval: MoneyApproval) =>
    approval.kind === 'payout'
      ? t('approvals.kinds.payout', { id: approval.withdrawal_id })
      : t(approval.amount > 0 ? 'approvals.kinds.credit' : 'approvals.kinds.debit', {
          account: t(`accounts.${approval.account ?? 'balance'}`),
        });

  const columns: Column<MoneyApproval>[] = [
    {
      id: 'asked',
      header: t('approvals.columns.asked'),
      moment: true,
      cell: (approval) => format.dateTime(approval.created_at),
    },
    {
      id: 'what',
      header: t('approvals.columns.what'),
      cell: (approval) => (
        <span className={styles.person}>
          <span>{whatOf(approval)}</span>
          <span className={`${styles.muted} ${styles.anywhere}`}>
            {approval.kind === 'payout'
              ? t('approvals.reference', { reference: approval.reference })
              : approval.reason}
          </span>
        </span>
      ),
    },
    {
      id: 'user',
      header: t('approvals.columns.user'),
      cell: (approval) => <Person user={approval.user} />,
    },
    {
      id: 'amount',
      header: t('approvals.columns.amount'),
      numeric: true,
      cell: (approval) => <ApprovalAmount approval={approval} />,
    },
    {
      id: 'requested',
      header: t('approvals.columns.requestedBy'),
      cell: (approval) => (
        <span className={styles.person}>
          <Person user={approval.requested_by} />
          {mine(approval) ? <span className={styles.muted}>{t('approvals.yours')}</span> : null}
        </span>
      ),
    },
    status === 'pending'
      ? {
          id: 'waiting',
          header: t('approvals.columns.waiting'),
          cell: (approval) => <Waiting since={approval.created_at} />,
        }
      : {
          id: 'status',
          header: t('approvals.columns.status'),
          cell: (approval) => <StatusCell approval={approval} />,
        },
    {
      id: 'actions',
      header: t('approvals.columns.actions'),
      actions: true,
      cell: (approval) =>
        approval.status === 'pending' ? (
          <DecisionButtons
            context={t('approvals.rowContext', texts(approval))}
            primary="approve"
            decisions={
              mine(approval)
                ? [['decline', t('approvals.withdraw')]]
                : [
                    ['approve', t('approvals.approve')],
                    ['decline', t('approvals.decline')],
                  ]
            }
            onStart={(kind, opener) => decisions.start(kind, approval, opener)}
          />
        ) : null,
    },
  ];

  const filterOptions = FILTERS.map((value) => ({
    value,
    label: t(`approvals.filters.${value}`),
  }));

  const { pending } = decisions;
  const approval = pending?.subject;
  const values = approval ? texts(approval) : undefined;
  const own = approval ? mine(approval) : false;

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <ListHeader
        headingId={headingId}
        headingRef={decisions.headingRef}
        title={t('approvals.title')}
        lead={t('approvals.lead')}
      />
      <div className={styles.toolbar}>
        <SelectField
          label={t('approvals.filters.label')}
          options={filterOptions}
          value={status}
          onChange={(event) => setFilter('status', event.target.value, DEFAULT_FILTER)}
        />
      </div>
      {decisions.notice ? <FormAlert tone="warning">{decisions.notice}</FormAlert> : null}
      <PagedTable
        result={query}
        empty={status === DEFAULT_FILTER ? t('approvals.empty') : t('approvals.emptyAll')}
        labelledBy={headingId}
        columns={columns}
        pagesLabel={t('approvals.pages')}
        onPageChange={setPage}
      />
      {approval && values && pending.kind === 'approve' ? (
        <ConfirmDecisionDialog
          key={`approve-${approval.id}`}
          {...decisions.dialog}
          title={t('approvals.approveDialog.title')}
          description={t(
            approval.kind === 'payout'
              ? 'approvals.approveDialog.payoutQuestion'
              : 'approvals.approveDialog.adjustmentQuestion',
            values,
          )}
          submitLabel={t('approvals.approveDialog.submit', values)}
          submittingLabel={t('approvals.approveDialog.submitting')}
          run={() =>
            decisions.decide({
              fingerprint: `approve:${approval.id}`,
              send: (idempotencyKey): Promise<unknown> =>
                approval.kind === 'payout'
                  ? approvePayout({ id: approval.id }).unwrap()
                  : approveAdjustment({ id: approval.id, idempotencyKey }).unwrap(),
              successText: () => t('approvals.approved', values),
            })
          }
        >
          <ApprovalFacts approval={approval} />
        </ConfirmDecisionDialog>
      ) : null}
      {approval && values && pending.kind === 'decline' ? (
        <ReasonDecisionDialog
          key={`decline-${approval.id}`}
          {...decisions.dialog}
          title={t(own ? 'approvals.withdrawDialog.title' : 'approvals.declineDialog.title')}
          description={t(
            own ? 'approvals.withdrawDialog.question' : 'approvals.declineDialog.question',
            values,
          )}
          submitLabel={t(
            own ? 'approvals.withdrawDialog.submit' : 'approvals.declineDialog.submit',
          )}
          submittingLabel={t('approvals.declineDialog.submitting')}
          reasonLabel={t('approvals.declineDialog.reason')}
          reasonHint={t('approvals.declineDialog.reasonHint')}
          run={(reason) =>
            decisions.decide({
              fingerprint: `decline:${approval.id}:${reason}`,
              send: (idempotencyKey): Promise<unknown> =>
                approval.kind === 'payout'
                  ? declinePayout({ id: approval.id, reason }).unwrap()
                  : declineAdjustment({ id: approval.id, reason, idempotencyKey }).unwrap(),
              successText: () => t('approvals.declined', values),
            })
          }
        >
          <ApprovalFacts approval={approval} />
        </ReasonDecisionDialog>
      ) : null}
    </section>
  );
}

/** The status of a decided request: by whom and when, and a decline's reason. */
function StatusCell({ approval }: { approval: MoneyApproval }) {
  const { t } = useTranslation('operator');
  const format = useFormatters();
  return (
    <span className={styles.person}>
      <Badge tone={STATUS_TONE[approval.status]}>
        {t(`approvals.statuses.${approval.status}`)}
      </Badge>
      {approval.decided_by && approval.decided_at ? (
        <span className={styles.muted}>
          {t('approvals.decidedBy', {
            email: approval.decided_by.email,
            date: format.dateTime(approval.decided_at),
          })}
        </span>
      ) : null}
      {approval.decline_reason ? (
        <span className={styles.muted}>
          {t('approvals.reason', { reason: approval.decline_reason })}
        </span>
      ) : null}
    </span>
  );
}

/**
 * An adjustment's amount with its sign (a credit or a debit of the balance); a payout's without
 * one: the money leaves for the partner's wallet, it is not credited to anything here.
 */
function ApprovalAmount({ approval }: { approval: MoneyApproval }) {
  const format = useFormatters();
  return approval.kind === 'payout' ? (
    format.money(approval.amount)
  ) : (
    <SignedAmount amount={approval.amount} />
  );
}

/** The request's facts in its dialogs: whose money, how much, why, and who asked. */
function ApprovalFacts({ approval }: { approval: MoneyApproval }) {
  const { t } = useTranslation('operator');
  const format = useFormatters();
  return (
    <dl className={styles.facts}>
      <dt>{t('approvals.columns.user')}</dt>
      <dd>
        {approval.user.name} ({approval.user.email})
      </dd>
      <dt>{t('approvals.columns.amount')}</dt>
      <dd>
        <ApprovalAmount approval={approval} />
      </dd>
      {approval.kind === 'payout' ? (
        <>
          <dt>{t('approvals.referenceLabel')}</dt>
          <dd className={styles.mono}>{approval.reference}</dd>
        </>
      ) : (
        <>
          <dt>{t('adjust.account')}</dt>
          <dd>{t(`accounts.${approval.account ?? 'balance'}`)}</dd>
          <dt>{t('adjust.reason')}</dt>
          <dd>{approval.reason}</dd>
        </>
      )}
      <dt>{t('approvals.columns.requestedBy')}</dt>
      <dd>{approval.requested_by.email}</dd>
      <dt>{t('approvals.columns.asked')}</dt>
      <dd>{format.dateTime(approval.created_at)}</dd>
    </dl>
  );
}
