import {
  MONITORING_ACCOUNTS_MAX,
  MONITORING_MONTHS_MAX,
  monitoringPrice,
  type MonitoringPlans,
  type Subscription,
} from '@tradehost/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { useFailure } from '../../../shared/lib/use-failure';
import { Button, buttonClassName } from '../../../shared/ui/form';
import { useDocumentTitle } from '../../../shared/ui/page/page';
import { ErrorState, LoadingState } from '../../../shared/ui/states/states';
import {
  useGetMonitoringPlansQuery,
  useGetSubscriptionsQuery,
  useSubscribeMutation,
  useTakeFreePlanMutation,
} from '../api/monitoring-api';
import { ActivationKey } from '../components/activation-key';
import { FailureAlert } from '../components/failure';
import styles from '../components/monitoring.module.css';
import {
  EnlargeDialog,
  ExtendDialog,
  NumberSelect,
  priceInput,
  usePayment,
} from '../components/subscription-dialogs';
import { useMonitoringFormat } from '../lib/use-monitoring-format';

/** Route module (lazy): the plans (free and paid, priced before paying) and the reader's subscriptions. */
export function Component() {
  const { t } = useMonitoringFormat();
  useDocumentTitle(`${t('subscription.title')} · ${t('title')}`);
  const plans = useGetMonitoringPlansQuery();
  const subscriptions = useGetSubscriptionsQuery();

  if (plans.isError || subscriptions.isError)
    return (
      <ErrorState
        title={t('subscription.loadFailed')}
        retryLabel={t('retry')}
        onRetry={() => {
          void plans.refetch();
          void subscriptions.refetch();
        }}
      />
    );
  if (!plans.data || !subscriptions.data) return <LoadingState>{t('loading')}</LoadingState>;
  return (
    <>
      <Subscriptions subscriptions={subscriptions.data} plans={plans.data} />
      <Plans plans={plans.data} />
    </>
  );
}

function Plans({ plans }: { plans: MonitoringPlans }) {
  const { t, money } = useMonitoringFormat();
  const [accounts, setAccounts] = useState(1);
  const [months, setMonths] = useState(1);
  const price = monitoringPrice({ accounts, months, ...priceInput(plans) });
  const [takeFree, free] = useTakeFreePlanMutation();
  const [subscribe] = useSubscribeMutation();
  const freeFailure = useFailure();
  const paid = usePayment(subscribe);

  return (
    <section className={styles.section} aria-labelledby="plans-title">
      <h2 id="plans-title" className={styles.sectionTitle}>
        {t('plans.title')}
      </h2>
      <div className={styles.cards}>
        <div className={styles.card}>
          <h3 className={styles.cardTitle}>{t('plans.free')}</h3>
          <p className={styles.price}>{money(0, 'USD')}</p>
          <p className={styles.muted}>{t('plans.freeLead', { count: plans.free_accounts })}</p>
          <FailureAlert failure={freeFailure.failure} alertRef={freeFailure.alertRef} />
          {plans.free_available ? (
            <div className={styles.actions}>
              <Button
                loading={free.isLoading}
                onClick={() => {
                  freeFailure.clear();
                  takeFree()
                    .unwrap()
                    .catch((error: unknown) => freeFailure.fail(error));
                }}
              >
                {t('plans.takeFree')}
              </Button>
            </div>
          ) : (
            <p className={styles.muted}>{t('plans.freeTaken')}</p>
          )}
        </div>
        <div className={styles.card}>
          <h3 className={styles.cardTitle}>{t('plans.paid')}</h3>
          <p className={styles.muted}>
            {t('plans.paidLead', { price: money(plans.account_month_price, 'USD') })}
          </p>
          <div className={styles.fields}>
            <NumberSelect
              id="plan-accounts"
              label={t('plans.accounts')}
              value={accounts}
              from={1}
              to={MONITORING_ACCOUNTS_MAX}
              onChange={setAccounts}
              format={(n) => t('plans.accountCount', { count: n })}
            />
            <NumberSelect
              id="plan-months"
              label={t('plans.months')}
              value={months}
              from={1}
              to={MONITORING_MONTHS_MAX}
              onChange={setMonths}
              format={(n) => t('plans.monthCount', { count: n })}
            />
          </div>
          <p className={styles.price} data-testid="plan-total">
            {money(price.totalCents / 100, 'USD')}
          </p>
          <p className={styles.muted}>
            {price.discountPercent > 0
              ? t('plans.discount', { percent: price.discountPercent })
              : t('plans.discounts', {
                  list: plans.discounts
                    .filter((d) => d.discount_percent > 0)
                    .map((d) => `${d.months}: ${d.discount_percent} %`)
                    .join(', '),
                })}
          </p>
          <FailureAlert failure={paid.failure.failure} alertRef={paid.failure.alertRef} />
          <div className={styles.actions}>
            <Button
              loading={paid.busy}
              loadingText={t('plans.paying')}
              onClick={() => void paid.pay({ accounts, months })}
            >
              {t('plans.pay', { total: money(price.totalCents / 100, 'USD') })}
            </Button>
          </div>
        </div>
      </div>
    </section>
  );
}

function Subscriptions({
  subscriptions,
  plans,
}: {
  subscriptions: Subscription[];
  plans: MonitoringPlans;
}) {
  const { t, date } = useMonitoringFormat();
  const [dialog, setDialog] = useState<{ kind: 'extend' | 'enlarge'; id: number } | null>(null);
  const open = subscriptions.find((s) => s.id === dialog?.id);
  return (
    <section className={styles.section} aria-labelledby="subscriptions-title">
      <h2 id="subscriptions-title" className={styles.sectionTitle}>
        {t('subscriptions.title')}
      </h2>
      {subscriptions.length === 0 ? (
        <p className={styles.muted}>{t('subscriptions.empty')}</p>
      ) : (
        <div className={styles.cards}>
          {subscriptions.map((s) => (
            <article key={s.id} className={styles.card} aria-labelledby={`subscription-${s.id}`}>
              <h3 id={`subscription-${s.id}`} className={styles.cardTitle}>
                {t(s.plan === 'free' ? 'subscriptions.freeName' : 'subscriptions.paidName', {
                  id: s.id,
                })}
              </h3>
              <p>
                {t('subscriptions.used', { used: s.used_accounts, count: s.accounts })}
                {' · '}
                {s.ends_at
                  ? t(s.active ? 'subscriptions.endsAt' : 'subscriptions.endedAt', {
                      date: date(s.ends_at),
                    })
                  : t('subscriptions.noEnd')}
              </p>
              {s.active ? null : (
                <p className={styles.down} role="status">
                  {t('subscriptions.ended')}
                </p>
              )}
              <ActivationKey subscriptionId={s.id}>
                {s.plan === 'paid' ? (
                  <Button
                    variant={s.active ? 'secondary' : 'primary'}
                    onClick={() => setDialog({ kind: 'extend', id: s.id })}
                  >
                    {t(s.active ? 'subscriptions.extend' : 'subscriptions.renew')}
                  </Button>
                ) : null}
                {s.plan === 'paid' && s.active && s.accounts < MONITORING_ACCOUNTS_MAX ? (
                  <Button
                    variant="secondary"
                    onClick={() => setDialog({ kind: 'enlarge', id: s.id })}
                  >
                    {t('subscriptions.enlarge')}
                  </Button>
                ) : null}
                {s.active && s.used_accounts < s.accounts ? (
                  <Link
                    to="/online-monitoring/accounts"
                    className={buttonClassName({ variant: 'secondary' })}
                  >
                    {t('subscriptions.addAccount')}
                  </Link>
                ) : null}
              </ActivationKey>
            </article>
          ))}
        </div>
      )}
      {open && dialog?.kind === 'extend' ? (
        <ExtendDialog subscription={open} plans={plans} onClose={() => setDialog(null)} />
      ) : null}
      {open && dialog?.kind === 'enlarge' ? (
        <EnlargeDialog subscription={open} plans={plans} onClose={() => setDialog(null)} />
      ) : null}
    </section>
  );
}
