import { zodResolver } from '@hookform/resolvers/zod';
import {
  formatCents,
  monitoringPrice,
  monitoringPricesRequestSchema,
  type MonitoringPrices,
} from '@tradehost/contracts';
import { useId, useState } from 'react';
import { useForm, useWatch, type Path, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { applyFieldErrors } from '../../../../shared/lib/api-error';
import { Button, FormAlert, TextField } from '../../../../shared/ui/form';
import { useDocumentTitle } from '../../../../shared/ui/page/page';
import { notify } from '../../../../shared/ui/toast/notify';
import {
  useGetMonitoringPricesQuery,
  useSaveMonitoringPricesMutation,
} from '../api/monitoring-operator-api';
import { ListHeader } from '../../../operator/components/list-controls';
import { QueryStates } from '../../../operator/components/states';
import { toCents, useFormatters } from '../../../operator/lib/format';
import { useOperatorError } from '../../../operator/lib/use-operator-error';
import styles from '../../../operator/components/operator.module.css';
import controlStyles from '../../../operator/components/controls.module.css';

/** What the form holds: the price and the percentages as typed. */
interface PricesFormValues {
  account_month_price: string;
  discounts: { months: number; discount_percent: string }[];
}
/** What the contract's schema makes of it: cents and whole percentages. */
interface PricesValues {
  account_month_price: number;
  discounts: { months: number; discount_percent: number }[];
}

const schemaResolver = zodResolver(monitoringPricesRequestSchema) as unknown as Resolver<
  PricesFormValues,
  unknown,
  PricesValues
>;
/** The contract's schema, a decimal comma taken for a point ("3,50"). */
const resolver: Resolver<PricesFormValues, unknown, PricesValues> = (values, context, options) =>
  schemaResolver(
    { ...values, account_month_price: values.account_month_price.trim().replace(',', '.') },
    context,
    options,
  );

const valuesOf = (prices: MonitoringPrices): PricesFormValues => ({
  account_month_price: formatCents(toCents(prices.account_month_price)),
  discounts: prices.discounts.map((d) => ({
    months: d.months,
    discount_percent: String(d.discount_percent),
  })),
});

/** The price of 1 account for 12 months at what the form holds now, or null while it is not valid. */
function examplePrice(values: PricesFormValues): number | null {
  const price = Number(values.account_month_price.trim().replace(',', '.'));
  const discounts = values.discounts.map((d) => ({
    months: d.months,
    percent: Number(d.discount_percent),
  }));
  if (!(price > 0) || discounts.some((d) => !Number.isInteger(d.percent))) return null;
  return monitoringPrice({ accounts: 1, months: 12, accountMonthCents: toCents(price), discounts })
    .totalCents;
}

/**
 * The prices saved together with one PUT: the account-month price and each period's discount.
 * Key it by the saved values so that it starts from them.
 */
function PricesForm({ prices }: { prices: MonitoringPrices }) {
  const { t } = useTranslation('operator');
  const format = useFormatters();
  const errorText = useOperatorError();
  const discountsId = useId();
  const [save] = useSaveMonitoringPricesMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    control,
    setError,
    setFocus,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<PricesFormValues, unknown, PricesValues>({
    resolver,
    defaultValues: valuesOf(prices),
  });
  const watched = useWatch({ control }) as PricesFormValues;
  const example = examplePrice(watched);
  const fields = [
    'account_month_price',
    ...prices.discounts.map((_, index) => `discounts.${index}.discount_percent`),
  ] as Path<PricesFormValues>[];

  const onValid = async (values: PricesValues) => {
    setFailure(null);
    try {
      await save({
        account_month_price: formatCents(values.account_month_price),
        discounts: values.discounts,
      }).unwrap();
      notify('success', t('monitoring.prices.saved'));
    } catch (error) {
      const first = applyFieldErrors(error, fields, setError);
      if (first) setFocus(first);
      else setFailure(errorText.request(error));
    }
  };

  return (
    <form className={styles.section} noValidate onSubmit={handleSubmit(onValid)}>
      <div className={styles.panel}>
        <TextField
          className={styles.narrowField}
          label={t('monitoring.prices.price')}
          hint={t('monitoring.prices.priceHint')}
          inputMode="decimal"
          autoComplete="off"
          required
          error={errors.account_month_price ? t('monitoring.prices.priceInvalid') : undefined}
          {...register('account_month_price')}
        />
      </div>
      <div
        role="group"
        className={styles.panel}
        aria-labelledby={`${discountsId}-title`}
        aria-describedby={`${discountsId}-lead`}
      >
        <div>
          <h3 id={`${discountsId}-title`} className={styles.sectionTitle}>
            {t('monitoring.prices.discounts')}
          </h3>
          <p id={`${discountsId}-lead`} className={styles.lead}>
            {t('monitoring.prices.discountsLead')}
          </p>
        </div>
        <div className={controlStyles.discounts}>
          {prices.discounts.map((discount, index) => (
            <TextField
              key={discount.months}
              label={t('monitoring.prices.period', { count: discount.months })}
              inputMode="numeric"
              autoComplete="off"
              required
              error={
                errors.discounts?.[index]?.discount_percent
                  ? t('monitoring.prices.discountInvalid')
                  : undefined
              }
              {...register(`discounts.${index}.discount_percent`)}
            />
          ))}
        </div>
      </div>
      {example !== null ? (
        <p className={styles.lead} aria-live="polite">
          {t('monitoring.prices.example', { price: format.money(example / 100) })}
        </p>
      ) : null}
      {failure ? <FormAlert tone="error">{failure}</FormAlert> : null}
      <div className={styles.formActions}>
        <Button type="submit" loading={isSubmitting} loadingText={t('monitoring.prices.saving')}>
          {t('monitoring.prices.save')}
        </Button>
        {isDirty ? (
          <span className={controlStyles.small}>{t('monitoring.prices.unsaved')}</span>
        ) : null}
      </div>
    </form>
  );
}

/** Route module (lazy, admins only): the monitoring prices. */
export function Component() {
  const { t } = useTranslation('operator');
  useDocumentTitle(t('monitoring.prices.title'));
  const headingId = useId();
  const query = useGetMonitoringPricesQuery();
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <ListHeader
        headingId={headingId}
        title={t('monitoring.prices.title')}
        lead={t('monitoring.prices.lead')}
      />
      <QueryStates result={query} isEmpty={() => false} empty={null}>
        {(prices) => <PricesForm key={JSON.stringify(prices)} prices={prices} />}
      </QueryStates>
    </section>
  );
}
