import { RENTAL_PERIODS, type PeriodDiscount } from '@tradehost/contracts';
import { useId } from 'react';
import cards from '../../../shared/ui/radio-cards/radio-cards.module.css';
import { periodDiscount } from '../lib/vps';
import { useVpsFormat } from '../lib/use-vps-format';
import styles from './vps.module.css';

export interface PeriodOptionsProps {
  legend: string;
  /** The catalogue's discounts of the periods. */
  periods: readonly PeriodDiscount[];
  value: number;
  onChange: (months: number) => void;
  /** The price of each period in cents, when there is one to show. */
  totalOf?: (months: number) => number;
}

/**
 * The rental periods (1, 3, 6, 12 months) as native radio buttons (the arrows move between
 * them), each with its discount and, when known, its price.
 */
export function PeriodOptions({ legend, periods, value, onChange, totalOf }: PeriodOptionsProps) {
  const { t, period, cents } = useVpsFormat();
  const name = useId();
  return (
    <fieldset className={cards.fieldset}>
      <legend className={cards.legend}>{legend}</legend>
      <div className={styles.periods}>
        {RENTAL_PERIODS.map((months) => {
          const discount = periodDiscount(periods, months);
          const nameId = `${name}-${months}-name`;
          const detailsId = `${name}-${months}-details`;
          return (
            <label key={months} className={`${cards.card} ${styles.period}`}>
              <input
                type="radio"
                className={cards.radio}
                name={name}
                value={months}
                checked={value === months}
                aria-labelledby={nameId}
                aria-describedby={detailsId}
                onChange={() => onChange(months)}
              />
              <span id={nameId} className={styles.periodName}>
                {period(months)}
              </span>
              <span id={detailsId} className={styles.periodDetails}>
                <span className={discount > 0 ? styles.discount : styles.noDiscount}>
                  {discount > 0
                    ? t('period.discount', { percent: discount })
                    : t('period.noDiscount')}
                </span>{' '}
                {totalOf ? (
                  <span className={styles.periodPrice}>{cents(totalOf(months))}</span>
                ) : null}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
