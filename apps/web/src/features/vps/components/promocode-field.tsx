import { promocodeSchema, type PromocodeResponse } from '@tradehost/contracts';
import { useId, useState, type KeyboardEvent } from 'react';
import * as z from 'zod/mini';
import { errorText, fieldErrorText } from '../../../shared/lib/api-error';
import { Button } from '../../../shared/ui/form';
import fieldStyles from '../../../shared/ui/form/field.module.css';
import { useLazyCheckVpsPromocodeQuery } from '../api/vps-api';
import { useVpsFormat } from '../lib/use-vps-format';
import styles from './vps.module.css';

export interface PromocodeFieldProps {
  /** The applied promocode, or null. */
  value: PromocodeResponse | null;
  onChange: (promocode: PromocodeResponse | null) => void;
  /** The chosen period: the discount is for a 1-month rental only. */
  months: number;
  /** A refusal of the order that names the promocode (an error code or a text). */
  error?: string;
  onErrorChange: (error: string | undefined) => void;
}

/**
 * The promocode: typed, then checked with Apply (or Enter), which shows its discount or why it
 * cannot be used. Its discount is for a 1-month rental only (SPEC 9), which the field says.
 */
export function PromocodeField({
  value,
  onChange,
  months,
  error,
  onErrorChange,
}: PromocodeFieldProps) {
  const { t, period } = useVpsFormat();
  const id = useId();
  const [draft, setDraft] = useState('');
  const [check, { isFetching }] = useLazyCheckVpsPromocodeQuery();

  const apply = async () => {
    const code = draft.trim();
    if (!code) {
      onErrorChange(t('promo.required'));
      return;
    }
    const parsed = z.safeParse(promocodeSchema, code);
    if (!parsed.success) {
      onErrorChange('PROMOCODE_NOT_FOUND');
      return;
    }
    onErrorChange(undefined);
    try {
      onChange(await check(parsed.data).unwrap());
    } catch (failure) {
      onChange(null);
      onErrorChange(errorText(t, failure));
    }
  };

  const applyOnEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    void apply();
  };

  const errorMessage = fieldErrorText(t, error);
  const describedBy = [errorMessage ? `${id}-error` : null, `${id}-hint`].filter(Boolean).join(' ');

  if (value) {
    return (
      <div className={fieldStyles.field}>
        <p className={fieldStyles.label}>{t('promo.label')}</p>
        <div className={styles.promoApplied} role="status">
          <span>{t('promo.applied', { code: value.code, percent: value.discount_percent })}</span>
          <Button
            variant="ghost"
            onClick={() => {
              onChange(null);
              setDraft('');
            }}
          >
            {t('promo.remove')}
          </Button>
        </div>
        {months !== 1 ? (
          <p className={styles.warningNote}>
            {t('promo.notForPeriod', { period: period(months) })}
          </p>
        ) : null}
      </div>
    );
  }

  return (
    <div className={fieldStyles.field}>
      <label htmlFor={id} className={fieldStyles.label}>
        {t('promo.label')} <span className={fieldStyles.optional}>({t('promo.optional')})</span>
      </label>
      <div className={styles.promoRow}>
        <input
          id={id}
          className={`${fieldStyles.input} ${styles.promoInput}`}
          value={draft}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          aria-invalid={errorMessage ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            setDraft(event.target.value);
            if (error) onErrorChange(undefined);
          }}
          onKeyDown={applyOnEnter}
        />
        <Button
          variant="secondary"
          loading={isFetching}
          loadingText={t('promo.applying')}
          onClick={() => void apply()}
        >
          {t('promo.apply')}
        </Button>
      </div>
      {errorMessage ? (
        <p id={`${id}-error`} className={fieldStyles.error} role="alert">
          {errorMessage}
        </p>
      ) : null}
      <p id={`${id}-hint`} className={fieldStyles.hint}>
        {t('promo.hint')}
      </p>
    </div>
  );
}
