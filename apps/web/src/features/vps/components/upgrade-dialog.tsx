import { daysBetween, type Server, type UpgradeResponse } from '@tradehost/contracts';
import { useId, useRef, useState } from 'react';
import { fieldErrorText, isApiRequestError } from '../../../shared/lib/api-error';
import { useFormIntent } from '../../../shared/lib/form-intent';
import { Dialog, DialogActions } from '../../../shared/ui/dialog/dialog';
import { Button, FormAlert } from '../../../shared/ui/form';
import { ICON_PATHS, StrokeIcon } from '../../../shared/ui/icon/stroke-icon';
import fieldStyles from '../../../shared/ui/form/field.module.css';
import { ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { useGetVpsRatesQuery, useUpgradeVpsServerMutation } from '../api/vps-api';
import { useFailure } from '../../../shared/lib/use-failure';
import { useVpsFormat } from '../lib/use-vps-format';
import {
  isDayWithin,
  largerRates,
  startOfUtcDay,
  toCents,
  upgradeDates,
  upgradePrice,
} from '../lib/vps';
import { BalanceCheck } from './balance-check';
import { FailureAlert } from './failure-alert';
import { RateCards } from './rate-cards';
import styles from './vps.module.css';

export interface UpgradeDialogProps {
  server: Server;
  now: Date;
  onClose: () => void;
  onDone: (result: UpgradeResponse) => void;
}

/**
 * An upgrade: a larger rate and a day from today to the day before paid-until; the price is the
 * difference of the monthly prices for the days left (the contracts' upgradePriceCents, as the
 * API charges it). The server is offline for up to an hour while it runs (SPEC 4).
 */
export function UpgradeDialog({ server, now, onClose, onDone }: UpgradeDialogProps) {
  const { t, cents, day: formatDay, date, days } = useVpsFormat();
  const catalogue = useGetVpsRatesQuery();
  const paidUntil = new Date(server.paid_until);
  const bounds = upgradeDates(now, paidUntil);
  const candidates = catalogue.data ? largerRates(catalogue.data.rates, server.rate) : [];
  const [rateId, setRateId] = useState<number | null>(null);
  const [day, setDay] = useState(bounds?.min ?? '');
  const [dayError, setDayError] = useState<string | undefined>();
  const dateRef = useRef<HTMLInputElement>(null);
  const dateId = useId();
  const [upgrade, { isLoading }] = useUpgradeVpsServerMutation();
  const { failure, alertRef, fail, clear } = useFailure();
  const intent = useFormIntent();

  const target = candidates.find((rate) => rate.id === rateId) ?? candidates[0] ?? null;
  const validDay = bounds !== null && isDayWithin(day, bounds);
  const priceCents = target && validDay ? upgradePrice(server.rate, target, day, paidUntil) : null;

  const submit = async () => {
    if (!target) return;
    if (!validDay) {
      setDayError('UPGRADE_DATE_INVALID');
      dateRef.current?.focus();
      return;
    }
    const body = { id: server.id, rate_id: target.id, date: day };
    const idempotencyKey = intent.start(body);
    if (!idempotencyKey) return;
    clear();
    try {
      const result = await upgrade({ body, idempotencyKey }).unwrap();
      intent.succeeded();
      onDone(result);
    } catch (error) {
      intent.failed(error);
      const dateMessage = isApiRequestError(error) ? error.errors?.date?.[0] : undefined;
      if (dateMessage) {
        setDayError(dateMessage);
        dateRef.current?.focus();
      } else {
        fail(error);
      }
    }
  };

  let body;
  if (!catalogue.data) {
    body =
      catalogue.isError && !catalogue.isFetching ? (
        <ErrorState
          title={t('rates.loadFailed')}
          retryLabel={t('retry')}
          onRetry={() => void catalogue.refetch()}
        />
      ) : (
        <LoadingState>{t('rates.loading')}</LoadingState>
      );
  } else if (!bounds || candidates.length === 0) {
    body = (
      <FormAlert tone="info">
        {t(!bounds ? 'upgrade.reasons.noTime' : 'upgrade.reasons.noLarger')}
      </FormAlert>
    );
  } else {
    const errorText = fieldErrorText(t, dayError);
    body = (
      <>
        <RateCards
          legend={t('upgrade.rateLegend')}
          rates={candidates}
          value={target?.id ?? null}
          onChange={setRateId}
          noteOf={(rate) =>
            t('upgrade.difference', {
              amount: cents(toCents(rate.monthly_price) - toCents(server.rate.monthly_price)),
            })
          }
        />
        <div className={fieldStyles.field}>
          <label htmlFor={dateId} className={fieldStyles.label}>
            {t('upgrade.date')}
          </label>
          <input
            ref={dateRef}
            id={dateId}
            type="date"
            className={`${fieldStyles.input} ${styles.dateInput}`}
            value={day}
            min={bounds.min}
            max={bounds.max}
            required
            aria-invalid={errorText ? true : undefined}
            aria-describedby={errorText ? `${dateId}-error ${dateId}-hint` : `${dateId}-hint`}
            onChange={(event) => {
              setDay(event.target.value);
              setDayError(undefined);
            }}
          />
          {errorText ? (
            <p id={`${dateId}-error`} className={fieldStyles.error}>
              {errorText}
            </p>
          ) : null}
          <p id={`${dateId}-hint`} className={fieldStyles.hint}>
            {t('upgrade.dateHint', { from: formatDay(bounds.min), to: formatDay(bounds.max) })}
          </p>
        </div>
        <dl className={styles.priceLines}>
          <div className={styles.totalLine}>
            <dt>
              {validDay
                ? t('upgrade.price', {
                    date: date(server.paid_until),
                    duration: days(daysBetween(startOfUtcDay(day), paidUntil)),
                  })
                : t('upgrade.priceUnknown')}
            </dt>
            <dd className={styles.money} data-testid="upgrade-total">
              {priceCents !== null ? cents(priceCents) : '—'}
            </dd>
          </div>
        </dl>
        <p className={styles.offline}>
          <StrokeIcon size={16} strokeLinejoin="miter" d={ICON_PATHS.warning} />
          <span>{t('upgrade.offline')}</span>
        </p>
        <BalanceCheck totalCents={priceCents} />
      </>
    );
  }

  const ready = catalogue.data && bounds && target;
  return (
    <Dialog
      open
      onOpenChange={onClose}
      closeLabel={t('close')}
      title={t('upgrade.title', { id: server.id })}
      description={t('upgrade.current', { rate: server.rate.name })}
      busy={isLoading}
    >
      {body}
      <FailureAlert failure={failure} alertRef={alertRef} />
      <DialogActions>
        <Button variant="secondary" disabled={isLoading} onClick={onClose}>
          {t('cancel')}
        </Button>
        {ready ? (
          <Button
            loading={isLoading}
            loadingText={t('upgrade.paying')}
            onClick={() => void submit()}
          >
            {priceCents !== null
              ? t('upgrade.pay', { total: cents(priceCents) })
              : t('upgrade.payUnknown')}
          </Button>
        ) : null}
      </DialogActions>
    </Dialog>
  );
}
