import {
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  type AdminPayment,
  type PaymentStatus,
} from '@tradehost/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert, SelectField } from '../../../../shared/ui/form';
import { useDocumentTitle } from '../../../../shared/ui/page/page';
import {
  useConfirmPaymentMutation,
  useGetAdminPaymentsQuery,
  useRejectPaymentMutation,
} from '../api/balance-operator-api';
import type { Column } from '../../../operator/components/data-table';
import { useDecisions } from '../../../operator/components/decision';
import {
  ConfirmDecisionDialog,
  DecisionButtons,
  ReasonDecisionDialog,
} from '../../../operator/components/decision-dialogs';
import { HashCell } from '../../../operator/components/hash-cell';
import { ListHeader } from '../../../operator/components/list-controls';
import { usePageParam } from '../../../operator/components/pagination';
import { PagedTable } from '../../../operator/components/paged-table';
import { Person } from '../../../operator/components/person';
import { Waiting } from '../../../operator/components/waiting';
import { useFormatters } from '../../../operator/lib/format';
import { oneOf, useFilterParams } from '../../../operator/lib/list-params';
import styles from '../../../operator/components/operator.module.css';

const DEFAULT_STATUS: PaymentStatus = 'under_review';
const DEFAULT_METHOD = 'crypto';
const ALL_METHODS = 'all';
const METHODS = [ALL_METHODS, ...PAYMENT_METHODS];
const STALE_CODES = ['PAYMENT_ALREADY_REVIEWED'] as const;

/**
 * Route module (lazy, admins only): the crypto payments users reported, waiting for an operator
 * to find the transaction on the network and credit it, or to reject it with a reason.
 */
export function Component() {
  const { t } = useTranslation('operator');
  useDocumentTitle(t('queue.title'));
  const format = useFormatters();
  const headingId = useId();
  const copyMessages = { copied: t('copy.copied'), failed: t('copy.failed') };

  const decisions = useDecisions<'confirm' | 'reject', AdminPayment>({
    staleCodes: STALE_CODES,
    // someone else has reviewed it first: the mutation's 409 has marked the queue stale, and it
    // is being fetched again
    noticeOf: (settlement) =>
      settlement.outcome === 'stale' ? t('queue.alreadyReviewed') : undefined,
  });
  const [params, setFilter] = useFilterParams(decisions.clearNotice);
  const status = oneOf(PAYMENT_STATUSES, params.get('status')) ?? DEFAULT_STATUS;
  const method = oneOf(METHODS, params.get('method')) ?? DEFAULT_METHOD;
  const [page, setPage] = usePageParam();
  const query = useGetAdminPaymentsQuery({
    status,
    method: method === ALL_METHODS ? undefined : method,
    page,
  });
  const [confirm] = useConfirmPaymentMutation();
  const [reject] = useRejectPaymentMutation();

  const columns: Column<AdminPayment>[] = [
    {
      id: 'date',
      header: t('queue.columns.date'),
      moment: true,
      cell: (payment) => format.dateTime(payment.created_at),
    },
    {
      id: 'user',
      header: t('queue.columns.user'),
      cell: (payment) => <Person user={payment.user} />,
    },
    {
      id: 'network',
      header: t('queue.columns.network'),
      // one word: 'USDT-TRC20' broke at its hyphen beside a long e-mail
      cell: (payment) => (
        <span className={styles.nowrap}>
          {payment.network ?? t(`methods.${payment.method}`, { defaultValue: payment.method })}
        </span>
      ),
    },
    {
      id: 'amount',
      header: t('queue.columns.amount'),
      numeric: true,
      // a crypto request's own amount in its asset: what the transaction must send, exactly
      cell: (payment) =>
        payment.pay_amount ? (
          <span className={styles.person}>
            <span>{format.money(payment.amount)}</span>
            <span className={`${styles.muted} ${styles.nowrap}`}>
              {`${payment.pay_amount} ${payment.pay_asset ?? ''}`}
            </span>
          </span>
        ) : (
          format.money(payment.amount)
        ),
    },
    {
      id: 'wallet',
      header: t('queue.columns.wallet'),
      cell: (payment) => (
        <HashCell value={payment.wallet} label={t('queue.copyWallet')} messages={copyMessages} />
      ),
    },
    {
      id: 'txid',
      header: t('queue.columns.txid'),
      cell: (payment) => (
        <span className={styles.person}>
          <HashCell value={payment.txid} label={t('queue.copyTxid')} messages={copyMessages} />
          {payment.chain ? (
            <span className={styles.muted}>
              <ChainText payment={payment} />
            </span>
          ) : null}
        </span>
      ),
    },
    status === 'under_review'
      ? {
          id: 'age',
          header: t('queue.columns.age'),
          cell: (payment) => <Waiting since={payment.created_at} />,
        }
      : {
          id: 'review',
          header: t('queue.columns.review'),
          cell: (payment) => (
            <span className={styles.person}>
              <span>{t(`statuses.${payment.status}`)}</span>
              {payment.reviewed_by ? (
                <span className={styles.muted}>
                  {t('queue.reviewedBy', {
                    email: payment.reviewed_by.email,
                    date: payment.reviewed_at ? format.dateTime(payment.reviewed_at) : '',
                  })}
                </span>
              ) : null}
              {payment.reason ? (
                <span className={styles.muted}>
                  {t('queue.reason', { reason: payment.reason })}
                </span>
              ) : null}
            </span>
          ),
        },
    {
      id: 'actions',
      header: t('queue.columns.actions'),
      actions: true,
      cell: (payment) =>
        payment.status === 'under_review' && payment.method === 'crypto' ? (
          <DecisionButtons
            context={t('queue.rowContext', {
              amount: format.money(payment.amount),
              email: payment.user.email,
            })}
            decisions={[
              ['confirm', t('queue.confirm')],
              ['reject', t('queue.reject')],
            ]}
            onStart={(kind, opener) => decisions.start(kind, payment, opener)}
          />
        ) : null,
    },
  ];

  const statusOptions = PAYMENT_STATUSES.map((value) => ({
    value,
    label: t(`statuses.${value}`),
  }));
  const methodOptions = METHODS.map((value) => ({
    value,
    label: t(`methods.${value}`),
  }));

  const { pending } = decisions;
  const payment = pending?.subject;
  const amount = payment ? format.money(payment.amount) : '';

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <ListHeader
        headingId={headingId}
        headingRef={decisions.headingRef}
        title={t('queue.title')}
        lead={t('queue.lead')}
      />
      <div className={styles.toolbar}>
        <SelectField
          label={t('queue.filters.status')}
          options={statusOptions}
          value={status}
          onChange={(event) => setFilter('status', event.target.value, DEFAULT_STATUS)}
        />
        <SelectField
          label={t('queue.filters.method')}
          options={methodOptions}
          value={method}
          onChange={(event) => setFilter('method', event.target.value, DEFAULT_METHOD)}
        />
      </div>
      {decisions.notice ? <FormAlert tone="warning">{decisions.notice}</FormAlert> : null}
      <PagedTable
        result={query}
        empty={status === DEFAULT_STATUS ? t('queue.empty') : t('queue.emptyFiltered')}
        labelledBy={headingId}
        columns={columns}
        pagesLabel={t('queue.pages')}
        onPageChange={setPage}
      />
      {payment && pending.kind === 'confirm' ? (
        <ConfirmDecisionDialog
          key={`confirm-${payment.id}`}
          {...decisions.dialog}
          title={t('queue.confirmDialog.title')}
          description={t('queue.confirmDialog.question', { amount, email: payment.user.email })}
          submitLabel={t('queue.confirmDialog.submit', { amount })}
          submittingLabel={t('queue.confirmDialog.submitting')}
          run={() =>
            decisions.decide({
              fingerprint: `confirm:${payment.id}`,
              send: (idempotencyKey) => confirm({ id: payment.id, idempotencyKey }).unwrap(),
              successText: () => t('queue.confirmed', { amount, email: payment.user.email }),
            })
          }
        >
          <PaymentFacts payment={payment} />
        </ConfirmDecisionDialog>
      ) : null}
      {payment && pending.kind === 'reject' ? (
        <ReasonDecisionDialog
          key={`reject-${payment.id}`}
          {...decisions.dialog}
          title={t('queue.rejectDialog.title')}
          description={t('queue.rejectDialog.question', { amount, email: payment.user.email })}
          submitLabel={t('queue.rejectDialog.submit')}
          submittingLabel={t('queue.rejectDialog.submitting')}
          reasonLabel={t('queue.rejectDialog.reason')}
          reasonHint={t('queue.rejectDialog.reasonHint')}
          run={(reason) =>
            decisions.decide({
              fingerprint: `reject:${payment.id}:${reason}`,
              send: (idempotencyKey) => reject({ id: payment.id, reason, idempotencyKey }).unwrap(),
              successText: () => t('queue.rejected', { amount, email: payment.user.email }),
            })
          }
        />
      ) : null}
    </section>
  );
}

/** The payment's details in its review dialogs. */
function PaymentFacts({ payment }: { payment: AdminPayment }) {
  const { t } = useTranslation('operator');
  const format = useFormatters();
  return (
    <dl className={styles.facts}>
      <dt>{t('queue.columns.network')}</dt>
      <dd>{payment.network ?? '—'}</dd>
      <dt>{t('queue.columns.wallet')}</dt>
      <dd className={styles.mono}>{payment.wallet ?? '—'}</dd>
      <dt>{t('queue.columns.txid')}</dt>
      <dd className={styles.mono}>{payment.txid ?? '—'}</dd>
      <dt>{t('queue.payAmount')}</dt>
      <dd className={styles.mono}>
        {payment.pay_amount ? `${payment.pay_amount} ${payment.pay_asset ?? ''}` : '—'}
      </dd>
      <dt>{t('queue.explorer')}</dt>
      <dd>{payment.chain ? <ChainText payment={payment} /> : t('queue.chain.none')}</dd>
      <dt>{t('queue.columns.date')}</dt>
      <dd>{format.dateTime(payment.created_at)}</dd>
    </dl>
  );
}

/** What the chain explorer last saw of the payment's TXID, in a sentence. */
function ChainText({ payment }: { payment: AdminPayment }) {
  const { t } = useTranslation('operator');
  const chain = payment.chain!;
  const facts = {
    amount: chain.amount ?? '—',
    asset: payment.pay_asset ?? '',
    to: chain.to ?? '—',
    confirmations: chain.confirmations ?? 0,
    required: chain.required,
  };
  if (chain.state === 'mismatch')
    return <>{t(`queue.chain.mismatch.${chain.reason ?? 'amount'}`, facts)}</>;
  return <>{t(`queue.chain.${chain.state}`, facts)}</>;
}
