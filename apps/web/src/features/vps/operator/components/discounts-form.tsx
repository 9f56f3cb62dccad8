import { zodResolver } from '@hookform/resolvers/zod';
import { discountsRequestSchema, RENTAL_PERIODS, type PeriodDiscount } from '@tradehost/contracts';
import { useId, useState } from 'react';
import { useForm, type Path, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { applyFieldErrors } from '../../../../shared/lib/api-error';
import { Button, FormAlert, TextField } from '../../../../shared/ui/form';
import { notify } from '../../../../shared/ui/toast/notify';
import { useSaveVpsDiscountsMutation } from '../api/vps-operator-api';
import { useOperatorError } from '../../../operator/lib/use-operator-error';
import operatorStyles from '../../../operator/components/operator.module.css';
import styles from '../../../operator/components/controls.module.css';

interface DiscountFormValues {
  periods: { months: number; discount_percent: string }[];
}

const resolver = zodResolver(discountsRequestSchema) as unknown as Resolver<
  DiscountFormValues,
  unknown,
  { periods: PeriodDiscount[] }
>;

const FIELDS = RENTAL_PERIODS.map(
  (_, index) => `periods.${index}.discount_percent` as Path<DiscountFormValues>,
);

/** Every rental period's discount, in the order of RENTAL_PERIODS (0 where the API has none). */
function valuesOf(periods: readonly PeriodDiscount[]): DiscountFormValues {
  return {
    periods: RENTAL_PERIODS.map((months) => ({
      months,
      discount_percent: String(
        periods.find((period) => period.months === months)?.discount_percent ?? 0,
      ),
    })),
  };
}

/**
 * The discounts of the 1, 3, 6 and 12-month rentals (whole percentages, 0 to 90), edited
 * together and saved with one PUT. Key it by the saved values so that it starts from them.
 */
export function DiscountsForm({ periods }: { periods: readonly PeriodDiscount[] }) {
  const { t } = useTranslation('operator');
  const errorText = useOperatorError();
  const headingId = useId();
  const [save] = useSaveVpsDiscountsMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<DiscountFormValues, unknown, { periods: PeriodDiscount[] }>({
    resolver,
    defaultValues: valuesOf(periods),
  });

  const onValid = async (values: { periods: PeriodDiscount[] }) => {
    setFailure(null);
    try {
      await save(values.periods).unwrap();
      notify('success', t('vps.discounts.saved'));
    } catch (error) {
      const first = applyFieldErrors(error, FIELDS, setError);
      if (first) setFocus(first);
      else setFailure(errorText.request(error));
    }
  };

  return (
    <section className={operatorStyles.panel} aria-labelledby={headingId}>
      <div>
        <h3 id={headingId} className={operatorStyles.sectionTitle}>
          {t('vps.discounts.title')}
        </h3>
        <p className={operatorStyles.lead}>{t('vps.discounts.lead')}</p>
      </div>
      <form className={styles.discounts} noValidate onSubmit={handleSubmit(onValid)}>
        {RENTAL_PERIODS.map((months, index) => {
          const message = errors.periods?.[index]?.discount_percent?.message;
          return (
            <TextField
              key={months}
              label={t(`vps.periods.${months}`)}
              hint={t('vps.discounts.unit')}
              inputMode="numeric"
              autoComplete="off"
              required
              error={message ? t('vps.discounts.invalid') : undefined}
              {...register(`periods.${index}.discount_percent`)}
            />
          );
        })}
        {failure ? (
          <div className={styles.wide}>
            <FormAlert tone="error">{failure}</FormAlert>
          </div>
        ) : null}
        <div className={`${styles.wide} ${operatorStyles.formActions}`}>
          <Button type="submit" loading={isSubmitting} loadingText={t('vps.discounts.saving')}>
            {t('vps.discounts.save')}
          </Button>
          {isDirty ? <span className={styles.small}>{t('vps.discounts.unsaved')}</span> : null}
        </div>
      </form>
    </section>
  );
}
