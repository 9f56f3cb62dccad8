import type { Payment, PaymentMethod } from '@tradehost/contracts';
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppDispatch } from '../../../app/hooks';
import {
  balanceRefreshes,
  refreshBalancesUnlessLive,
} from '../../../shared/live/balance-refreshes';
import { isApiRequestError, serverText } from '../../../shared/lib/api-error';
import { formatMoney } from '../../../shared/lib/format-money';
import { Button } from '../../../shared/ui/form';
import { balanceApi, useGetPaymentQuery } from '../api/balance-api';
import { ICON_PATHS, StrokeIcon } from '../../../shared/ui/icon/stroke-icon';
import { OperationStatusBadge } from './status-badge';
import styles from './payment-return-panel.module.css';

/** How often a payment still processing is asked about again. */
export const PAYMENT_POLL_MS = 2000;

export interface PaymentReturnPanelProps {
  paymentId: number;
  onDismiss: () => void;
  /** Not paid: back to the top-up with the same method. */
  onRetry: (method: PaymentMethod) => void;
}

type Tone = 'pending' | 'success' | 'danger' | 'info';

const TONES: Partial<Record<Payment['status'], Tone>> = {
  paid: 'success',
  not_paid: 'danger',
  rejected: 'danger',
  under_review: 'info',
};

/** Asked about again until the answer is final; a payment that could not be read is not. */
function pollingFor(payment: Payment | undefined, failed: boolean): number {
  if (payment) return payment.status === 'processing' ? PAYMENT_POLL_MS : 0;
  return failed ? 0 : PAYMENT_POLL_MS;
}

/**
 * The payment the reader comes back with from the gateway (/balance-operations?payment=<id>):
 * Processing, asked about every 2 s, until it is Paid (the balances and the top-up history
 * refresh) or Not paid (with a way to try again). The status text is a live region, so each
 * change is announced; Close removes the panel (and the parameter).
 */
export function PaymentReturnPanel({ paymentId, onDismiss, onRetry }: PaymentReturnPanelProps) {
  const { t, i18n } = useTranslation('balance');
  const dispatch = useAppDispatch();
  const headingId = useId();
  // what the cache holds (last render's answer) decides whether the subscription polls
  const cached = balanceApi.endpoints.getPayment.useQueryState(paymentId);
  const {
    data: payment,
    error,
    refetch,
  } = useGetPaymentQuery(paymentId, {
    pollingInterval: pollingFor(cached.data, cached.isError),
  });

  // Paid: the header's balance, the summary and the top-up history catch up, once. The live
  // update of the credit does it as it lands (and its refetch of the payment shows Paid): after
  // it, the panel's own refresh would read the history and the user a second time. Without one
  // (the stream down, or opened after the credit), the panel refreshes them: at once while the
  // stream is down, after a short wait for the live update while it is open.
  const refreshedFor = useRef<number | null>(null);
  const refreshesAtOpen = useRef(balanceRefreshes());
  useEffect(() => {
    if (payment?.status !== 'paid' || refreshedFor.current === payment.id) return;
    refreshedFor.current = payment.id;
    refreshBalancesUnlessLive(refreshesAtOpen.current, dispatch, { type: 'Payments', id: 'LIST' });
  }, [payment, dispatch]);

  const money = (dollars: number) => formatMoney(dollars, i18n.language);
  const tone: Tone = payment ? (TONES[payment.status] ?? 'pending') : 'pending';
  const notFound = !payment && isApiRequestError(error) && error.status === 404;

  let text: string;
  if (payment) {
    text = {
      processing: t('payment.processing'),
      paid: t('payment.paid', { amount: money(payment.amount) }),
      not_paid: t('payment.notPaid'),
      under_review: t('payment.underReview'),
      rejected: payment.reason
        ? t('payment.rejectedWithReason', { reason: serverText(t, payment.reason) })
        : t('payment.rejected'),
    }[payment.status];
  } else if (error) {
    text = t(notFound ? 'payment.notFound' : 'payment.loadFailed');
  } else {
    text = t('payment.loading');
  }

  return (
    <section
      className={`${styles.panel} ${styles[error && !payment ? 'danger' : tone]}`}
      aria-labelledby={headingId}
    >
      <div className={styles.icon} aria-hidden="true">
        {tone === 'pending' && !error ? <span className={styles.spinner} /> : null}
      </div>
      <div className={styles.body}>
        <h2 id={headingId} className={styles.title}>
          {payment
            ? t('payment.title', {
                id: payment.id,
                amount: money(payment.amount),
                method: t(`methods.${payment.method}`),
              })
            : t('payment.titleShort', { id: paymentId })}
        </h2>
        <div className={styles.status} role="status" aria-live="polite">
          {payment ? <OperationStatusBadge status={payment.status} /> : null}
          <p className={styles.text}>{text}</p>
        </div>
        <div className={styles.actions}>
          {payment?.status === 'not_paid' && payment.method !== 'adjustment' ? (
            <Button onClick={() => onRetry(payment.method as PaymentMethod)}>
              {t('payment.tryAgain')}
            </Button>
          ) : null}
          {error && !payment && !notFound ? (
            <Button variant="secondary" onClick={() => void refetch()}>
              {t('retry')}
            </Button>
          ) : null}
        </div>
      </div>
      <button
        type="button"
        className={styles.close}
        aria-label={t('payment.dismiss')}
        onClick={onDismiss}
      >
        <StrokeIcon size={18} d={ICON_PATHS.close} />
      </button>
    </section>
  );
}
