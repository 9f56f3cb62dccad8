import type { Rate } from '@tradehost/contracts';
import { useId, type ReactNode } from 'react';
import { StrokeIcon } from '../../../shared/ui/icon/stroke-icon';
import cards from '../../../shared/ui/radio-cards/radio-cards.module.css';
import { useVpsFormat } from '../lib/use-vps-format';
import styles from './vps.module.css';

export interface RateCardsProps {
  legend: string;
  rates: readonly Rate[];
  value: number | null;
  onChange: (rateId: number) => void;
  /** A line under a card's price (the upgrade's difference). */
  noteOf?: (rate: Rate) => ReactNode;
}

/**
 * "4 vCPU · 8 GB RAM · 120 GB SSD": a narrow column wraps it at the dots only, never between a
 * number and its unit (the texts join those with no-break spaces).
 */
export function RateSpecs({ rate }: { rate: Rate }) {
  const { t } = useVpsFormat();
  return <>{t('rates.specs', { cores: rate.cpu_cores, ram: rate.ram_gb, disk: rate.disk_gb })}</>;
}

/**
 * Rates as radio cards: name, CPU cores, RAM, disk, location and the monthly price. The native
 * radio covers its card (clicks, arrows and focus); the chosen one has a tick, not only colour.
 */
export function RateCards({ legend, rates, value, onChange, noteOf }: RateCardsProps) {
  const { t, money } = useVpsFormat();
  const name = useId();
  return (
    <fieldset className={cards.fieldset}>
      <legend className={cards.legend}>{legend}</legend>
      <div className={styles.rateGrid}>
        {rates.map((rate) => {
          const nameId = `${name}-${rate.id}-name`;
          const detailsId = `${name}-${rate.id}-details`;
          const note = noteOf?.(rate);
          return (
            <label key={rate.id} className={`${cards.card} ${styles.rateCard}`}>
              <input
                type="radio"
                className={cards.radio}
                name={name}
                value={rate.id}
                checked={value === rate.id}
                aria-labelledby={nameId}
                aria-describedby={detailsId}
                onChange={() => onChange(rate.id)}
              />
              <span id={nameId} className={styles.rateName}>
                {rate.name}
              </span>
              <span id={detailsId} className={styles.rateDetails}>
                <span className={styles.rateSpecs}>
                  <RateSpecs rate={rate} />
                </span>{' '}
                <span className={styles.rateLocation}>
                  <StrokeIcon
                    size={14}
                    strokeWidth={1.8}
                    strokeLinecap="butt"
                    strokeLinejoin="miter"
                    d="M12 21s-6-5.5-6-11a6 6 0 0 1 12 0c0 5.5-6 11-6 11Zm0-9a2 2 0 1 0 0-4 2 2 0 0 0 0 4Z"
                  />
                  {rate.location}
                </span>{' '}
                <span className={styles.ratePrice}>
                  {t('rates.perMonth', { price: money(rate.monthly_price) })}
                </span>
                {note ? <span className={styles.rateNote}> {note}</span> : null}
              </span>
              <span className={cards.check} aria-hidden="true" />
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
