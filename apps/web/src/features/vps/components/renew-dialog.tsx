import { RENTAL_PERIODS, type PaidResponse, type Server } from '@tradehost/contracts';
import { useState } from 'react';
import { useFormIntent } from '../../../shared/lib/form-intent';
import { Dialog, DialogActions } from '../../../shared/ui/dialog/dialog';
import { Button } from '../../../shared/ui/form';
import { ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { useGetVpsRatesQuery, useRenewVpsServerMutation } from '../api/vps-api';
import { useFailure } from '../../../shared/lib/use-failure';
import { useVpsFormat } from '../lib/use-vps-format';
import { priceOf, renewedUntil } from '../lib/vps';
import { BalanceCheck } from './balance-check';
import { FailureAlert } from './failure-alert';
import { PeriodOptions } from './period-options';
import styles from './vps.module.css';

export interface RenewDialogProps {
  server: Server;
  now: Date;
  onClose: () => void;
  onDone: (result: PaidResponse) => void;
}

/**
 * Renewal by hand: a period with its price (the rate's price less the period's discount), the
 * total, the new paid-until and the balance; paid with an Idempotency-Key, refusals said here.
 */
export function RenewDialog({ server, now, onClose, onDone }: RenewDialogProps) {
  const { t, period, cents, date } = useVpsFormat();
  const catalogue = useGetVpsRatesQuery();
  const [months, setMonths] = useState<number>(
    (RENTAL_PERIODS as readonly number[]).includes(server.renew_months) ? server.renew_months : 1,
  );
  const [renew, { isLoading }] = useRenewVpsServerMutation();
  const { failure, alertRef, fail, clear } = useFailure();
  const intent = useFormIntent();

  const periods = catalogue.data?.periods;
  const price = periods ? priceOf(server.rate, months, periods) : null;
  const until = renewedUntil(new Date(server.paid_until), now, months);

  const pay = async () => {
    const body = { id: server.id, months };
    const idempotencyKey = intent.start(body);
    if (!idempotencyKey) return;
    clear();
    try {
      const result = await renew({ body, idempotencyKey }).unwrap();
      intent.succeeded();
      onDone(result);
    } catch (error) {
      intent.failed(error);
      fail(error);
    }
  };

  return (
    <Dialog
      open
      onOpenChange={onClose}
      closeLabel={t('close')}
      title={t('renew.title', { id: server.id })}
      description={t('renew.lead', {
        rate: server.rate.name,
        date: date(server.paid_until),
      })}
      busy={isLoading}
    >
      {server.status === 'blocked' ? <p className={styles.note}>{t('renew.blockedNote')}</p> : null}
      {!periods ? (
        catalogue.isError && !catalogue.isFetching ? (
          <ErrorState
            title={t('rates.loadFailed')}
            retryLabel={t('retry')}
            onRetry={() => void catalogue.refetch()}
          />
        ) : (
          <LoadingState>{t('rates.loading')}</LoadingState>
        )
      ) : (
        <>
          <PeriodOptions
            legend={t('renew.legend')}
            periods={periods}
            value={months}
            onChange={setMonths}
            totalOf={(m) => priceOf(server.rate, m, periods).totalCents}
          />
          <dl className={styles.priceLines}>
            <div>
              <dt>{t('renew.newPaidUntil')}</dt>
              <dd>{date(until.toISOString())}</dd>
            </div>
            <div className={styles.totalLine}>
              <dt>{t('summary.total')}</dt>
              <dd className={styles.money} data-testid="renew-total">
                {price ? cents(price.totalCents) : '—'}
              </dd>
            </div>
          </dl>
          <BalanceCheck totalCents={price?.totalCents ?? null} />
        </>
      )}
      <FailureAlert failure={failure} alertRef={alertRef} />
      <DialogActions>
        <Button variant="secondary" disabled={isLoading} onClick={onClose}>
          {t('cancel')}
        </Button>
        <Button
          loading={isLoading}
          loadingText={t('renew.paying')}
          disabled={!price}
          onClick={() => void pay()}
        >
          {price
            ? t('renew.pay', { total: cents(price.totalCents), period: period(months) })
            : t('renew.payUnknown')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
