import type {
  OrderRequest,
  PaidResponse,
  Price,
  PromocodeResponse,
  Rate,
  RatesResponse,
} from '@tradehost/contracts';
import { useId, useRef, useState } from 'react';
import { isApiRequestError } from '../../../shared/lib/api-error';
import { useFormIntent, type FormIntent } from '../../../shared/lib/form-intent';
import { Dialog, DialogConfirmActions } from '../../../shared/ui/dialog/dialog';
import { Button } from '../../../shared/ui/form';
import { useOrderVpsServerMutation } from '../api/vps-api';
import { useFailure } from '../../../shared/lib/use-failure';
import { useVpsFormat } from '../lib/use-vps-format';
import { periodDiscount, priceOf } from '../lib/vps';
import { BalanceCheck } from './balance-check';
import { BrokerLatency } from './broker-latency';
import { FailureAlert } from './failure-alert';
import { PeriodOptions } from './period-options';
import { PromocodeField } from './promocode-field';
import { RateCards } from './rate-cards';
import {
  NO_ANSWER,
  SourceQuestion,
  sourceBody,
  sourceErrors,
  type SourceAnswer,
} from './source-question';
import styles from './vps.module.css';

export interface OrderFormProps {
  catalogue: RatesResponse;
  onOrdered: (result: PaidResponse) => void;
}

/** The fields of the order a refusal may name. */
const ORDER_FIELDS = ['promocode', 'source', 'source_other'] as const;

/**
 * Ordering a server: the rate (with, for the trader's broker server if they type it, the ping
 * measured from each location; not sent with the order), the rental period, a promocode, the
 * source question; beside them
 * the price (the contracts' rentalPrice, as the API charges it), the balance and Pay, which asks
 * for a confirmation naming the rate, the period and the total before the money moves.
 */
export function OrderForm({ catalogue, onOrdered }: OrderFormProps) {
  const { t, period, cents } = useVpsFormat();
  const { rates, periods } = catalogue;
  const [rateId, setRateId] = useState<number | null>(rates[0]?.id ?? null);
  const [months, setMonths] = useState(1);
  const [promo, setPromo] = useState<PromocodeResponse | null>(null);
  const [promoError, setPromoError] = useState<string | undefined>();
  const [source, setSource] = useState<SourceAnswer>(NO_ANSWER);
  const [sourceError, setSourceError] = useState<{ source?: string; other?: string }>({});
  const [confirming, setConfirming] = useState<OrderRequest | null>(null);
  const sourceRef = useRef<HTMLSelectElement>(null);
  const intent = useFormIntent();
  const summaryId = useId();
  const formId = useId();

  const rate = rates.find((candidate) => candidate.id === rateId) ?? null;
  const locations = [...new Set(rates.map((offered) => offered.location))];
  const usesPromo = promo !== null && months === 1;
  const price = rate
    ? priceOf(rate, months, periods, usesPromo ? promo.discount_percent : 0)
    : null;

  const pay = () => {
    if (!rate) return;
    const errors = sourceErrors(source);
    setSourceError(errors);
    if (errors.source || errors.other) {
      sourceRef.current?.focus();
      return;
    }
    setConfirming({
      rate_id: rate.id,
      months,
      ...(usesPromo ? { promocode: promo.code } : {}),
      ...sourceBody(source),
    });
  };

  /** A refusal that names fields: the form shows it there. */
  const showFieldErrors = (fields: Record<string, string[]>) => {
    setConfirming(null);
    if (fields.promocode?.[0]) {
      setPromo(null);
      setPromoError(fields.promocode[0]);
    }
    if (fields.source?.[0] || fields.source_other?.[0]) {
      setSourceError({ source: fields.source?.[0], other: fields.source_other?.[0] });
      sourceRef.current?.focus();
    }
  };

  return (
    <div className={styles.orderGrid}>
      <section className={styles.orderFields} aria-labelledby={formId}>
        <h3 id={formId} className={styles.orderTitle}>
          {t('rates.title')}
        </h3>
        <RateCards legend={t('rates.legend')} rates={rates} value={rateId} onChange={setRateId} />
        <BrokerLatency locations={locations} />
        <PeriodOptions
          legend={t('period.legend')}
          periods={periods}
          value={months}
          onChange={setMonths}
          totalOf={
            rate
              ? (m) =>
                  priceOf(rate, m, periods, promo && m === 1 ? promo.discount_percent : 0)
                    .totalCents
              : undefined
          }
        />
        <PromocodeField
          value={promo}
          onChange={setPromo}
          months={months}
          error={promoError}
          onErrorChange={setPromoError}
        />
        <SourceQuestion
          value={source}
          onChange={(next) => {
            setSource(next);
            setSourceError({});
          }}
          errors={sourceError}
          selectRef={sourceRef}
        />
      </section>
      <section className={styles.summary} aria-labelledby={summaryId}>
        <h3 id={summaryId} className={styles.summaryTitle}>
          {t('summary.title')}
        </h3>
        {rate && price ? (
          <>
            <PriceLines
              rate={rate}
              months={months}
              discountPercent={periodDiscount(periods, months)}
              price={price}
              promo={usesPromo ? promo : null}
            />
            <BalanceCheck totalCents={price.totalCents} />
            <Button fullWidth onClick={pay}>
              {t('summary.pay', { total: cents(price.totalCents) })}
            </Button>
          </>
        ) : (
          <p className={styles.muted}>{t('summary.chooseRate')}</p>
        )}
      </section>
      {confirming && rate && price ? (
        <OrderConfirmDialog
          title={t('confirm.title')}
          text={t('confirm.text', {
            total: cents(price.totalCents),
            rate: rate.name,
            period: period(months),
          })}
          payLabel={t('confirm.pay', { total: cents(price.totalCents) })}
          body={confirming}
          intent={intent}
          onClose={() => setConfirming(null)}
          onFieldErrors={showFieldErrors}
          onOrdered={onOrdered}
        />
      ) : null}
    </div>
  );
}

interface PriceLinesProps {
  rate: Rate;
  months: number;
  /** The period's discount, percent. */
  discountPercent: number;
  price: Price;
  promo: PromocodeResponse | null;
}

/** The price before paying: the base, the period's discount, the promocode's, the total. */
export function PriceLines({ rate, months, discountPercent, price, promo }: PriceLinesProps) {
  const { t, period, cents } = useVpsFormat();
  return (
    <dl className={styles.priceLines}>
      <div>
        <dt>{t('summary.rate')}</dt>
        <dd>
          {rate.name}, {rate.location}
        </dd>
      </div>
      <div>
        <dt>{t('summary.base', { period: period(months) })}</dt>
        <dd className={styles.money}>{cents(price.baseCents)}</dd>
      </div>
      {price.periodDiscountCents > 0 ? (
        <div>
          <dt>
            {t('summary.periodDiscount', {
              period: period(months),
              percent: discountPercent,
            })}
          </dt>
          <dd className={styles.money}>−{cents(price.periodDiscountCents)}</dd>
        </div>
      ) : null}
      {promo && price.promoDiscountCents > 0 ? (
        <div>
          <dt>
            {t('summary.promoDiscount', { code: promo.code, percent: promo.discount_percent })}
          </dt>
          <dd className={styles.money}>−{cents(price.promoDiscountCents)}</dd>
        </div>
      ) : null}
      <div className={styles.totalLine}>
        <dt>{t('summary.total')}</dt>
        <dd className={styles.money} data-testid="order-total">
          {cents(price.totalCents)}
        </dd>
      </div>
    </dl>
  );
}

interface OrderConfirmDialogProps {
  title: string;
  text: string;
  payLabel: string;
  body: OrderRequest;
  intent: FormIntent;
  onClose: () => void;
  onFieldErrors: (fields: Record<string, string[]>) => void;
  onOrdered: (result: PaidResponse) => void;
}

function OrderConfirmDialog({
  title,
  text,
  payLabel,
  body,
  intent,
  onClose,
  onFieldErrors,
  onOrdered,
}: OrderConfirmDialogProps) {
  const { t } = useVpsFormat();
  const [order, { isLoading }] = useOrderVpsServerMutation();
  const { failure, alertRef, fail, clear } = useFailure();

  const confirm = async () => {
    const idempotencyKey = intent.start(body);
    if (!idempotencyKey) return; // a second click before the button was disabled
    clear();
    try {
      const result = await order({ body, idempotencyKey }).unwrap();
      intent.succeeded();
      onOrdered(result);
    } catch (error) {
      intent.failed(error);
      const fields = isApiRequestError(error) ? error.errors : undefined;
      if (fields && ORDER_FIELDS.some((field) => fields[field]?.length)) onFieldErrors(fields);
      else fail(error);
    }
  };

  return (
    <Dialog
      open
      onOpenChange={onClose}
      closeLabel={t('close')}
      title={title}
      description={text}
      busy={isLoading}
    >
      <FailureAlert failure={failure} alertRef={alertRef} />
      <DialogConfirmActions
        cancelLabel={t('cancel')}
        onCancel={onClose}
        confirmLabel={payLabel}
        onConfirm={() => void confirm()}
        busy={isLoading}
        busyLabel={t('confirm.paying')}
      />
    </Dialog>
  );
}
