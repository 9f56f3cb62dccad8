import {
  PAYOUT_REFERENCE_MAX,
  payWithdrawalSchema,
  WITHDRAWAL_METHODS,
  type AdminWithdrawal,
} from '@tradehost/contracts';
import { useId, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../auth/api/use-current-user';
import { Link } from 'react-router';
import { Button, FormAlert, SelectField } from '../../../../shared/ui/form';
import { useDocumentTitle } from '../../../../shared/ui/page/page';
import { notify } from '../../../../shared/ui/toast/notify';
import {
  useGetAdminWithdrawalsQuery,
  usePayWithdrawalMutation,
  useRejectWithdrawalMutation,
  useReviewWithdrawalMutation,
  type WithdrawalFilter,
} from '../api/partner-operator-api';
import type { Column } from '../../../operator/components/data-table';
import { useDecisions } from '../../../operator/components/decision';
import {
  DecisionButtons,
  ReasonDecisionDialog,
  TextDecisionDialog,
  type DecisionText,
} from '../../../operator/components/decision-dialogs';
import { HashCell } from '../../../operator/components/hash-cell';
import { ListHeader } from '../../../operator/components/list-controls';
import { usePageParam } from '../../../operator/components/pagination';
import { PagedTable } from '../../../operator/components/paged-table';
import { WithdrawalStatusBadge } from '../components/partner-badges';
import { Person } from '../../../operator/components/person';
import { Badge } from '../../../operator/components/badge';
import { useFormatters } from '../../../operator/lib/format';
import { oneOf, useFilterParams } from '../../../operator/lib/list-params';
import { codeOf, useOperatorError } from '../../../operator/lib/use-operator-error';
import styles from '../../../operator/components/operator.module.css';
import controlStyles from '../../../operator/components/controls.module.css';

const FILTERS: readonly WithdrawalFilter[] = ['open', 'all'];
const DEFAULT_FILTER: WithdrawalFilter = 'open';
/** Decided by someone else meanwhile: the dialog closes and the queue is fetched again. */
const STALE_CODES = ['WITHDRAWAL_PROCESSED'] as const;

const isOpen = (withdrawal: AdminWithdrawal) =>
  withdrawal.status === 'received' || withdrawal.status === 'under_review';
/** A payout above OPERATOR_APPROVAL_ABOVE asked for and waiting for a second operator. */
const awaitsApproval = (withdrawal: AdminWithdrawal) => withdrawal.approval?.status === 'pending';

/** A method's name ("USDT (TRC-20)"), its id when the product no longer knows it. */
const methodName = (id: string) =>
  id in WITHDRAWAL_METHODS ? WITHDRAWAL_METHODS[id as keyof typeof WITHDRAWAL_METHODS].name : id;

/**
 * Route module (lazy, admins only): the partners' withdrawal requests. Each is paid out by hand
 * (then marked paid out with the payment's reference) or rejected with a reason, which returns
 * the amount to the partner balance; the partner is told by e-mail either way.
 */
export function Component() {
  const { t } = useTranslation('operator');
  useDocumentTitle(t('partner.withdrawals.title'));
  const format = useFormatters();
  const headingId = useId();
  const me = useCurrentUser();
  const copyMessages = { copied: t('copy.copied'), failed: t('copy.failed') };

  const decisions = useDecisions<'pay' | 'reject', AdminWithdrawal>({
    staleCodes: STALE_CODES,
    noticeOf: (settlement) =>
      settlement.outcome === 'stale' ? t('partner.withdrawals.alreadyProcessed') : undefined,
  });
  const review = useReview(decisions.headingRef);
  const [params, setFilter] = useFilterParams(() => {
    decisions.clearNotice();
    review.clearFailure();
  });
  const status = oneOf(FILTERS, params.get('status')) ?? DEFAULT_FILTER;
  const [page, setPage] = usePageParam();
  const query = useGetAdminWithdrawalsQuery({ status, page });
  const [pay] = usePayWithdrawalMutation();
  const [reject] = useRejectWithdrawalMutation();

  const texts = (withdrawal: AdminWithdrawal) => ({
    amount: format.money(withdrawal.amount),
    email: withdrawal.user.email,
    method: methodName(withdrawal.method),
  });

  const columns: Column<AdminWithdrawal>[] = [
    {
      id: 'requested',
      header: t('partner.withdrawals.columns.requested'),
      moment: true,
      cell: (withdrawal) => format.dateTime(withdrawal.created_at),
    },
    {
      id: 'user',
      header: t('partner.withdrawals.columns.user'),
      cell: (withdrawal) => <Person user={withdrawal.user} />,
    },
    {
      id: 'amount',
      header: t('partner.withdrawals.columns.amount'),
      numeric: true,
      cell: (withdrawal) => format.money(withdrawal.amount),
    },
    {
      id: 'method',
      header: t('partner.withdrawals.columns.method'),
      cell: (withdrawal) => methodName(withdrawal.method),
    },
    {
      id: 'wallet',
      header: t('partner.withdrawals.columns.wallet'),
      cell: (withdrawal) => (
        <HashCell
          value={withdrawal.wallet}
          label={t('partner.withdrawals.copyWallet')}
          messages={copyMessages}
        />
      ),
    },
    {
      id: 'due',
      header: t('partner.withdrawals.columns.due'),
      cell: (withdrawal) => (
        <span className={controlStyles.stack}>
          <span>{format.dateTime(withdrawal.due_at)}</span>
          {withdrawal.overdue ? (
            <Badge tone="danger">{t('partner.withdrawals.overdue')}</Badge>
          ) : null}
        </span>
      ),
    },
    {
      id: 'status',
      header: t('partner.withdrawals.columns.status'),
      cell: (withdrawal) => <StatusCell withdrawal={withdrawal} />,
    },
    {
      id: 'actions',
      header: t('partner.withdrawals.columns.actions'),
      actions: true,
      cell: (withdrawal) =>
        isOpen(withdrawal) && withdrawal.user.id === me?.id ? (
          // the operator's own request: another operator decides it (the API refuses it too)
          <span className={styles.muted}>{t('partner.withdrawals.own')}</span>
        ) : isOpen(withdrawal) ? (
          <span className={styles.rowActions}>
            {withdrawal.status === 'received' ? review.button(withdrawal) : null}
            <DecisionButtons
              context={t('partner.withdrawals.rowContext', texts(withdrawal))}
              primary="pay"
              decisions={[
                ...(awaitsApproval(withdrawal)
                  ? []
                  : [
                      [
                        'pay',
                        t('partner.withdrawals.pay'),
                        t('partner.withdrawals.payContext', texts(withdrawal)),
                      ] as const,
                    ]),
                ['reject', t('partner.withdrawals.reject')] as const,
              ]}
              onStart={(kind, opener) => {
                review.clearFailure();
                decisions.start(kind, withdrawal, opener);
              }}
            />
          </span>
        ) : null,
    },
  ];

  const filterOptions = FILTERS.map((value) => ({
    value,
    label: t(`partner.withdrawals.filters.${value}`),
  }));

  const { pending } = decisions;
  const withdrawal = pending?.subject;
  const values = withdrawal ? texts(withdrawal) : undefined;
  const reference: DecisionText = {
    name: 'reference',
    schema: payWithdrawalSchema.shape.reference,
    codes: ['REFERENCE_REQUIRED'],
    max: PAYOUT_REFERENCE_MAX,
    label: t('partner.withdrawals.payDialog.reference'),
    hint: t('partner.withdrawals.payDialog.referenceHint'),
  };

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <ListHeader
        headingId={headingId}
        headingRef={decisions.headingRef}
        title={t('partner.withdrawals.title')}
        lead={t('partner.withdrawals.lead')}
      />
      <div className={styles.toolbar}>
        <SelectField
          label={t('partner.withdrawals.filters.label')}
          options={filterOptions}
          value={status}
          onChange={(event) => setFilter('status', event.target.value, DEFAULT_FILTER)}
        />
      </div>
      {decisions.notice ? <FormAlert tone="warning">{decisions.notice}</FormAlert> : null}
      {review.failure ? <FormAlert tone="error">{review.failure}</FormAlert> : null}
      <PagedTable
        result={query}
        empty={
          status === DEFAULT_FILTER
            ? t('partner.withdrawals.empty')
            : t('partner.withdrawals.emptyAll')
        }
        labelledBy={headingId}
        columns={columns}
        pagesLabel={t('partner.withdrawals.pages')}
        onPageChange={setPage}
      />
      {withdrawal && values && pending.kind === 'pay' ? (
        <TextDecisionDialog
          key={`pay-${withdrawal.id}`}
          {...decisions.dialog}
          title={t('partner.withdrawals.payDialog.title')}
          description={t('partner.withdrawals.payDialog.question', values)}
          submitLabel={t('partner.withdrawals.payDialog.submit', values)}
          submittingLabel={t('partner.withdrawals.payDialog.submitting')}
          field={reference}
          run={(text) =>
            decisions.decide({
              fingerprint: `pay:${withdrawal.id}:${text}`,
              send: () => pay({ id: withdrawal.id, reference: text }).unwrap(),
              // above OPERATOR_APPROVAL_ABOVE the payout waits for a second operator
              successText: (result) =>
                t(
                  result.code === 'APPROVAL_REQUESTED'
                    ? 'partner.withdrawals.payAsked'
                    : 'partner.withdrawals.paid',
                  values,
                ),
            })
          }
        >
          <WithdrawalFacts withdrawal={withdrawal} />
        </TextDecisionDialog>
      ) : null}
      {withdrawal && values && pending.kind === 'reject' ? (
        <ReasonDecisionDialog
          key={`reject-${withdrawal.id}`}
          {...decisions.dialog}
          title={t('partner.withdrawals.rejectDialog.title')}
          description={t('partner.withdrawals.rejectDialog.question', values)}
          submitLabel={t('partner.withdrawals.rejectDialog.submit')}
          submittingLabel={t('partner.withdrawals.rejectDialog.submitting')}
          reasonLabel={t('partner.withdrawals.rejectDialog.reason')}
          reasonHint={t('partner.withdrawals.rejectDialog.reasonHint')}
          run={(reason) =>
            decisions.decide({
              fingerprint: `reject:${withdrawal.id}:${reason}`,
              send: () => reject({ id: withdrawal.id, reason }).unwrap(),
              successText: () => t('partner.withdrawals.rejected', values),
            })
          }
        >
          <WithdrawalFacts withdrawal={withdrawal} />
        </ReasonDecisionDialog>
      ) : null}
    </section>
  );
}

/**
 * "Mark under review" of a Received row: sent at once (no dialog: nothing moves but the status),
 * with a toast; the focus goes to the list's heading as the button goes. A failure shows above
 * the list.
 */
function useReview(headingRef: RefObject<HTMLHeadingElement | null>) {
  const { t } = useTranslation('operator');
  const format = useFormatters();
  const errorText = useOperatorError();
  const [review] = useReviewWithdrawalMutation();
  const [reviewing, setReviewing] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const run = async (withdrawal: AdminWithdrawal) => {
    const values = { amount: format.money(withdrawal.amount), email: withdrawal.user.email };
    setFailure(null);
    setReviewing(withdrawal.id);
    try {
      await review({ id: withdrawal.id }).unwrap();
      notify('success', t('partner.withdrawals.reviewed', values));
      headingRef.current?.focus();
    } catch (error) {
      setFailure(
        codeOf(error) === 'WITHDRAWAL_PROCESSED'
          ? t('partner.withdrawals.alreadyProcessed')
          : errorText.request(error),
      );
    } finally {
      setReviewing(null);
    }
  };

  return {
    failure,
    clearFailure: () => setFailure(null),
    button: (withdrawal: AdminWithdrawal) => (
      <Button
        variant="secondary"
        loading={reviewing === withdrawal.id}
        loadingText={t('partner.withdrawals.reviewing')}
        onClick={() => void run(withdrawal)}
      >
        {t('partner.withdrawals.review')}{' '}
        <span className="visually-hidden">
          {t('partner.withdrawals.rowContext', {
            amount: format.money(withdrawal.amount),
            email: withdrawal.user.email,
          })}
        </span>
      </Button>
    ),
  };
}

/**
 * The status, and how it was decided: the reference or the reason, by whom and when; a payout
 * waiting for a second operator links to Approvals.
 */
function StatusCell({ withdrawal }: { withdrawal: AdminWithdrawal }) {
  const { t } = useTranslation('operator');
  const format = useFormatters();
  return (
    <span className={controlStyles.stack}>
      <WithdrawalStatusBadge status={withdrawal.status} />
      {withdrawal.payout_reference ? (
        <span className={controlStyles.small}>
          {t('partner.withdrawals.reference', { reference: withdrawal.payout_reference })}
        </span>
      ) : null}
      {withdrawal.reason ? (
        <span className={controlStyles.small}>
          {t('partner.withdrawals.reason', { reason: withdrawal.reason })}
        </span>
      ) : null}
      {withdrawal.approval && isOpen(withdrawal) ? (
        <span className={controlStyles.small}>
          {t(`partner.withdrawals.approval.${withdrawal.approval.status}`, {
            reference: withdrawal.approval.reference,
            email: withdrawal.approval.requested_by.email,
            reason: withdrawal.approval.decline_reason,
          })}
        </span>
      ) : null}
      {/* beside what it explains, not among the row's buttons (where it pushed Reject aside) */}
      {awaitsApproval(withdrawal) ? (
        <Link to="/operator/approvals">{t('partner.withdrawals.toApprovals')}</Link>
      ) : null}
      {withdrawal.processed_by ? (
        <span className={controlStyles.small}>
          {withdrawal.processed_at
            ? t('partner.withdrawals.processedBy', {
                email: withdrawal.processed_by.email,
                date: format.dateTime(withdrawal.processed_at),
              })
            : t('partner.withdrawals.takenBy', { email: withdrawal.processed_by.email })}
        </span>
      ) : null}
    </span>
  );
}

/** The request's details in its decision dialogs: where the money goes. */
function WithdrawalFacts({ withdrawal }: { withdrawal: AdminWithdrawal }) {
  const { t } = useTranslation('operator');
  const format = useFormatters();
  return (
    <dl className={styles.facts}>
      <dt>{t('partner.withdrawals.columns.method')}</dt>
      <dd>{methodName(withdrawal.method)}</dd>
      <dt>{t('partner.withdrawals.columns.wallet')}</dt>
      <dd className={styles.mono}>{withdrawal.wallet}</dd>
      <dt>{t('partner.withdrawals.columns.requested')}</dt>
      <dd>{format.dateTime(withdrawal.created_at)}</dd>
      <dt>{t('partner.withdrawals.columns.due')}</dt>
      <dd>{format.dateTime(withdrawal.due_at)}</dd>
    </dl>
  );
}
