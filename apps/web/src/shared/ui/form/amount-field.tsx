import type { ComponentPropsWithRef } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrorText } from '../../lib/api-error';
import { formatMoney } from '../../lib/format-money';
import { FieldFrame, useField, type FieldOwnProps } from './field-frame';
import { AMOUNT_REQUIRED, type AmountLimits } from '../../lib/amount';
import fieldStyles from './field.module.css';
import styles from './amount-field.module.css';

/** The text of an amount field's message (a code of lib/amount.ts or the contracts, or a server text). */
export function useAmountErrorText(limits: AmountLimits = {}) {
  const { t, i18n } = useTranslation('controls');
  return (message: string | undefined): string | undefined => {
    const money = (dollars: number | undefined) =>
      dollars === undefined ? '' : formatMoney(dollars, i18n.language);
    if (message === AMOUNT_REQUIRED) return t('amount.errors.required');
    if (message === 'AMOUNT_BELOW_MINIMUM' && limits.min !== undefined) {
      return t('amount.errors.belowMin', { min: money(limits.min) });
    }
    if (message === 'AMOUNT_ABOVE_MAXIMUM' && limits.max !== undefined) {
      return t('amount.errors.aboveMax', { max: money(limits.max) });
    }
    return fieldErrorText(t, message);
  };
}

export interface AmountFieldProps
  extends FieldOwnProps, Omit<ComponentPropsWithRef<'input'>, 'type' | 'children' | 'inputMode'> {
  /** The method's limits: the hint shows them, the messages quote them. */
  limits?: AmountLimits;
  /** Help under the field instead of the limits. */
  hint?: FieldOwnProps['hint'];
  /** The field's react-hook-form message (a code or a server text); translated here. */
  error?: string;
}

/**
 * An amount in US dollars: a "$" before the input, a decimal keyboard on phones, the limits as
 * the hint ("From $10.00 to $10,000.00") and the messages with the limits in them.
 */
export function AmountField({ limits = {}, hint, error, className, ...props }: AmountFieldProps) {
  const { t, i18n } = useTranslation('controls');
  const errorText = useAmountErrorText(limits)(error);
  const money = (dollars: number) => formatMoney(dollars, i18n.language);
  const limitsHint =
    limits.min !== undefined && limits.max !== undefined
      ? t('amount.limits', { min: money(limits.min), max: money(limits.max) })
      : undefined;
  const { frame, control } = useField({ ...props, hint: hint ?? limitsHint, error: errorText });
  return (
    <FieldFrame {...frame}>
      <div className={styles.control}>
        <span className={styles.prefix} aria-hidden="true">
          $
        </span>
        <input
          type="text"
          inputMode="decimal"
          autoComplete="transaction-amount"
          spellCheck={false}
          className={[fieldStyles.input, styles.input, className].filter(Boolean).join(' ')}
          {...control}
        />
      </div>
    </FieldFrame>
  );
}
