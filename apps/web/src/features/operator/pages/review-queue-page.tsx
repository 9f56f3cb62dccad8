import {
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  type AdminPayment,
  type PaymentStatus,
} from '@tradehost/contracts';
import { useId, useRef, useState, type ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useFormIntent } from '../../../shared/lib/form-intent';
import { CopyButton } from '../../../shared/ui/copy-button/copy-button';
import { Button, FormAlert } from '../../../shared/ui/form';
import { useDocumentTitle } from '../../../shared/ui/page/page';
import { useGetAdminPaymentsQuery } from '../api/operator-api';
import type { Column } from '../components/data-table';
import { SelectField } from '../components/fields';
import { usePageParam } from '../components/pagination';
import { PagedTable } from '../components/paged-table';
import { Person } from '../components/person';
import {
  ConfirmPaymentDialog,
  RejectPaymentDialog,
  type ReviewOutcome,
} from '../components/review-dialogs';
import { isOverdue, useFormatters } from '../lib/format';
import styles from '../components/operator.module.css';

const DEFAULT_STATUS: PaymentStatus = 'under_review';
const DEFAULT_METHOD = 'crypto';
const ALL_METHODS = 'all';

function statusParam(value: string | null): PaymentStatus {
  return (PAYMENT_STATUSES as readonly string[]).includes(value ?? '')
    ? (value as PaymentStatus)
    : DEFAULT_STATUS;
}

function methodParam(value: string | null): string {
  return value === ALL_METHODS || (PAYMENT_METHODS as readonly string[]).includes(value ?? '')
    ? (value as string)
    : DEFAULT_METHOD;
}

type Review = { kind: 'confirm' | 'reject'; payment: AdminPayment } | null;

/**
 * Route module (lazy, admins only): the crypto payments users reported, waiting for an operator
 * to find the transaction on the network and credit it, or to reject it with a reason.
 */
export function Component() {
  const { t } = useTranslation('operator');
  useDocumentTitle(t('queue.title'));
  const format = useFormatters();
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const openerRef = useRef<HTMLElement | null>(null);
  const intent = useFormIntent();
  const copyMessages = { copied: t('copy.copied'), failed: t('copy.failed') };

  const [params, setParams] = useSearchParams();
  const status = statusParam(params.get('status'));
  const method = methodParam(params.get('method'));
  const [page, setPage] = usePageParam();
  const query = useGetAdminPaymentsQuery({
    status,
    method: method === ALL_METHODS ? undefined : method,
    page,
  });

  const [review, setReview] = useState<Review>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  const setFilter = (name: 'status' | 'method', value: string, fallback: string) => {
    setNotice(null);
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      if (value === fallback) next.delete(name);
      else next.set(name, value);
      next.delete('page');
      return next;
    });
  };

  const openReview = (kind: 'confirm' | 'reject', payment: AdminPayment, opener: HTMLElement) => {
    openerRef.current = opener;
    setNotice(null);
    setReview({ kind, payment });
    setDialogOpen(true);
  };

  const settled = (outcome: ReviewOutcome) => {
    // the row leaves the queue: the focus goes to the queue's heading, not to the page's body
    openerRef.current = headingRef.current;
    setDialogOpen(false);
    // the mutation's 409 has marked the queue stale: it is being fetched again
    if (outcome === 'already-reviewed') setNotice(t('queue.alreadyReviewed'));
  };

  const columns: Column<AdminPayment>[] = [
    {
      id: 'date',
      header: t('queue.columns.date'),
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
      cell: (payment) =>
        payment.network ?? t(`methods.${payment.method}`, { defaultValue: payment.method }),
    },
    {
      id: 'amount',
      header: t('queue.columns.amount'),
      numeric: true,
      cell: (payment) => format.money(payment.amount),
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
        <HashCell value={payment.txid} label={t('queue.copyTxid')} messages={copyMessages} />
      ),
    },
    status === 'under_review'
      ? {
          id: 'age',
          header: t('queue.columns.age'),
          cell: (payment) => (
            <span
              className={isOverdue(payment.created_at) ? styles.overdue : undefined}
              title={format.dateTime(payment.created_at)}
            >
              {format.age(payment.created_at)}
            </span>
          ),
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
          <span className={styles.rowActions}>
            <Button onClick={(event) => openReview('confirm', payment, event.currentTarget)}>
              {t('queue.confirm')}
              <span className="visually-hidden">
                {t('queue.rowContext', {
                  amount: format.money(payment.amount),
                  email: payment.user.email,
                })}
              </span>
            </Button>
            <Button
              variant="secondary"
              className={styles.danger}
              onClick={(event) => openReview('reject', payment, event.currentTarget)}
            >
              {t('queue.reject')}
              <span className="visually-hidden">
                {t('queue.rowContext', {
                  amount: format.money(payment.amount),
                  email: payment.user.email,
                })}
              </span>
            </Button>
          </span>
        ) : null,
    },
  ];

  const statusOptions = PAYMENT_STATUSES.map((value) => ({
    value,
    label: t(`statuses.${value}`),
  }));
  const methodOptions = [ALL_METHODS, ...PAYMENT_METHODS].map((value) => ({
    value,
    label: t(`methods.${value}`),
  }));

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <div className={styles.sectionHeader}>
        <div>
          <h2 id={headingId} ref={headingRef} tabIndex={-1} className={styles.sectionTitle}>
            {t('queue.title')}
          </h2>
          <p className={styles.lead}>{t('queue.lead')}</p>
        </div>
      </div>
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
      {notice ? <FormAlert tone="warning">{notice}</FormAlert> : null}
      <PagedTable
        result={query}
        empty={status === DEFAULT_STATUS ? t('queue.empty') : t('queue.emptyFiltered')}
        labelledBy={headingId}
        columns={columns}
        pagesLabel={t('queue.pages')}
        onPageChange={setPage}
      />
      {review?.kind === 'confirm' ? (
        <ConfirmPaymentDialog
          key={`confirm-${review.payment.id}`}
          payment={review.payment}
          open={dialogOpen}
          onOpenChange={setDialogOpen}
          onSettled={settled}
          intent={intent}
          returnFocusTo={openerRef}
        />
      ) : null}
      {review?.kind === 'reject' ? (
        <RejectPaymentDialog
          key={`reject-${review.payment.id}`}
          payment={review.payment}
          open={dialogOpen}
          onOpenChange={setDialogOpen}
          onSettled={settled}
          intent={intent}
          returnFocusTo={openerRef}
        />
      ) : null}
    </section>
  );
}

/** A wallet or a TXID: shortened with its full text on hover, and a copy button; a dash when absent. */
function HashCell({
  value,
  label,
  messages,
}: {
  value: string | null;
  label: string;
  messages: ComponentProps<typeof CopyButton>['messages'];
}) {
  if (!value) return '—';
  return (
    <span className={styles.hash}>
      <span className={`${styles.mono} ${styles.truncate}`} title={value}>
        {value}
      </span>
      <CopyButton text={value} label={label} variant="icon" messages={messages} />
    </span>
  );
}
