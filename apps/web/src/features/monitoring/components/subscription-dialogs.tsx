import {
  enlargementPriceCents,
  MONITORING_ACCOUNTS_MAX,
  MONITORING_MONTHS_MAX,
  monitoringPrice,
  type MonitoringPlans,
  type Subscription,
} from '@tradehost/contracts';
import { useState, type ReactNode } from 'react';
import { useFormIntent } from '../../../shared/lib/form-intent';
import { useFailure } from '../../../shared/lib/use-failure';
import { Dialog, DialogActions } from '../../../shared/ui/dialog/dialog';
import { Button, SelectField } from '../../../shared/ui/form';
import {
  useEnlargeSubscriptionMutation,
  useExtendSubscriptionMutation,
} from '../api/monitoring-api';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import { FailureAlert } from './failure';
import styles from './monitoring.module.css';

/** The plan's prices as the price function takes them. */
export const priceInput = (plans: MonitoringPlans) => ({
  accountMonthCents: Math.round(plans.account_month_price * 100),
  discounts: plans.discounts.map((d) => ({ months: d.months, percent: d.discount_percent })),
});

export function NumberSelect({
  id,
  label,
  value,
  from,
  to,
  onChange,
  format,
}: {
  id: string;
  label: string;
  value: number;
  from: number;
  to: number;
  onChange: (value: number) => void;
  format: (value: number) => string;
}) {
  return (
    <SelectField
      id={id}
      label={label}
      value={value}
      onChange={(event) => onChange(Number(event.target.value))}
    >
      {Array.from({ length: to - from + 1 }, (_, i) => from + i).map((n) => (
        <option key={n} value={n}>
          {format(n)}
        </option>
      ))}
    </SelectField>
  );
}

type Send<T> = (args: { body: T; idempotencyKey: string }) => { unwrap(): Promise<unknown> };

/**
 * A payment from the balance: `pay(payload)` sends it with the Idempotency-Key of its intent
 * (the same key for a retry of the same payload), says a refusal in `failure`, and calls
 * `onPaid` once the money has moved.
 */
export function usePayment<T>(send: Send<T>, onPaid?: () => void) {
  const [busy, setBusy] = useState(false);
  const failure = useFailure();
  const intent = useFormIntent();
  const pay = async (payload: T) => {
    const idempotencyKey = intent.start(payload);
    if (!idempotencyKey) return;
    failure.clear();
    setBusy(true);
    try {
      await send({ body: payload, idempotencyKey }).unwrap();
      intent.succeeded();
      onPaid?.();
    } catch (error) {
      intent.failed(error);
      failure.fail(error);
    } finally {
      setBusy(false);
    }
  };
  return { busy, pay, failure };
}

interface DialogProps {
  subscription: Subscription;
  plans: MonitoringPlans;
  onClose: () => void;
}

/**
 * A payment for a subscription in a dialog: the choice (children), the total, and the Pay button
 * sending `payload` with the Idempotency-Key of its intent; refusals are said above the buttons.
 */
function PaymentDialog<T extends { id: number }>({
  title,
  description,
  totalCents,
  payload,
  send,
  onClose,
  children,
}: {
  title: string;
  description: string;
  totalCents: number;
  payload: T;
  send: Send<T>;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t, money } = useMonitoringFormat();
  const { busy, pay, failure } = usePayment(send, onClose);
  const total = money(totalCents / 100, 'USD');

  return (
    <Dialog
      open
      onOpenChange={onClose}
      closeLabel={t('close')}
      title={title}
      description={description}
      busy={busy}
    >
      {children}
      <p>
        {t('plans.total')}: <strong data-testid="payment-total">{total}</strong>
      </p>
      <FailureAlert failure={failure.failure} alertRef={failure.alertRef} />
      <DialogActions>
        <Button variant="secondary" disabled={busy} onClick={onClose}>
          {t('cancel')}
        </Button>
        <Button loading={busy} loadingText={t('plans.paying')} onClick={() => void pay(payload)}>
          {t('plans.pay', { total })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** More months for a paid subscription, at its account count; the price before paying. */
export function ExtendDialog({ subscription, plans, onClose }: DialogProps) {
  const { t } = useMonitoringFormat();
  const [months, setMonths] = useState(1);
  const [extend] = useExtendSubscriptionMutation();
  const price = monitoringPrice({ accounts: subscription.accounts, months, ...priceInput(plans) });
  return (
    <PaymentDialog
      title={t('subscriptions.extendTitle', { id: subscription.id })}
      description={t('subscriptions.extendLead', { count: subscription.accounts })}
      totalCents={price.totalCents}
      payload={{ id: subscription.id, months }}
      send={extend}
      onClose={onClose}
    >
      <NumberSelect
        id="extend-months"
        label={t('plans.months')}
        value={months}
        from={1}
        to={MONITORING_MONTHS_MAX}
        onChange={setMonths}
        format={(n) => t('plans.monthCount', { count: n })}
      />
      {price.discountPercent > 0 ? (
        <p className={styles.muted}>{t('plans.discount', { percent: price.discountPercent })}</p>
      ) : null}
    </PaymentDialog>
  );
}

/** More accounts for a running paid subscription, the added ones priced for the days left. */
export function EnlargeDialog({ subscription, plans, onClose }: DialogProps) {
  const { t } = useMonitoringFormat();
  const [accounts, setAccounts] = useState(
    Math.min(subscription.accounts + 1, MONITORING_ACCOUNTS_MAX),
  );
  const [enlarge] = useEnlargeSubscriptionMutation();
  // the moment the dialog opened: the price counts the days from it (the API from its own clock)
  const [openedAt] = useState(() => new Date());
  const cents = enlargementPriceCents(
    accounts - subscription.accounts,
    priceInput(plans).accountMonthCents,
    openedAt,
    new Date(subscription.ends_at ?? openedAt),
  );
  return (
    <PaymentDialog
      title={t('subscriptions.enlargeTitle', { id: subscription.id })}
      description={t('subscriptions.enlargeLead')}
      totalCents={cents}
      payload={{ id: subscription.id, accounts }}
      send={enlarge}
      onClose={onClose}
    >
      <NumberSelect
        id="enlarge-accounts"
        label={t('plans.accounts')}
        value={accounts}
        from={subscription.accounts + 1}
        to={MONITORING_ACCOUNTS_MAX}
        onChange={setAccounts}
        format={(n) => t('plans.accountCount', { count: n })}
      />
    </PaymentDialog>
  );
}
