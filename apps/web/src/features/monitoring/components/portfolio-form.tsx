import {
  PORTFOLIO_ACCOUNTS_MAX,
  PORTFOLIO_ACCOUNTS_MIN,
  PORTFOLIO_NAME_MAX,
  type MonitoringAccount,
} from '@tradehost/contracts';
import { useId } from 'react';
import { fieldErrorText, fieldErrorValue, isApiRequestError } from '../../../shared/lib/api-error';
import { Checkbox, TextField } from '../../../shared/ui/form';
import fieldStyles from '../../../shared/ui/form/field.module.css';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import styles from './monitoring.module.css';
import own from './portfolio.module.css';

export interface PortfolioValues {
  name: string;
  accountIds: number[];
}

export type PortfolioErrors = Partial<Record<'name' | 'account_ids', string>>;

/** What the form refuses before asking the API: a name, and 2 to 20 accounts. */
export function checkPortfolio(
  t: ReturnType<typeof useMonitoringFormat>['t'],
  values: PortfolioValues,
): PortfolioErrors {
  const errors: PortfolioErrors = {};
  if (!values.name.trim()) errors.name = t('errors:MONITORING_PORTFOLIO_NAME_REQUIRED');
  const count = values.accountIds.length;
  if (count < PORTFOLIO_ACCOUNTS_MIN || count > PORTFOLIO_ACCOUNTS_MAX)
    errors.account_ids = t('errors:MONITORING_PORTFOLIO_ACCOUNTS_RANGE');
  return errors;
}

/** The API's refusals of the fields (422 with `errors`), translated; none: a general failure. */
export function portfolioFieldErrors(
  t: ReturnType<typeof useMonitoringFormat>['t'],
  error: unknown,
): PortfolioErrors {
  const fields: PortfolioErrors = {};
  if (!isApiRequestError(error)) return fields;
  for (const [field, messages] of Object.entries(error.errors ?? {})) {
    const text = fieldErrorText(t, fieldErrorValue(messages[0] ?? ''));
    if (text && (field === 'name' || field === 'account_ids')) fields[field] = text;
  }
  // a refusal of the whole request that is about the accounts (their count)
  if (!fields.account_ids && error.code === 'MONITORING_PORTFOLIO_ACCOUNTS_RANGE')
    fields.account_ids = t('errors:MONITORING_PORTFOLIO_ACCOUNTS_RANGE');
  if (!fields.name && error.code?.startsWith('MONITORING_PORTFOLIO_NAME'))
    fields.name = fieldErrorText(t, error.code);
  return fields;
}

/**
 * A portfolio's name and accounts: a checkbox for each of the reader's accounts, how many are
 * chosen, and a note when the chosen ones are in different currencies (they are weighed
 * equally then, and no money is summed).
 */
export function PortfolioFields({
  accounts,
  values,
  errors,
  onChange,
}: {
  accounts: MonitoringAccount[];
  values: PortfolioValues;
  errors: PortfolioErrors;
  onChange: (values: PortfolioValues) => void;
}) {
  const { t } = useMonitoringFormat();
  const errorId = useId();
  const countId = useId();
  const chosen = new Set(values.accountIds);
  const currencies = new Set(
    accounts.filter((a) => chosen.has(a.id) && a.currency).map((a) => a.currency),
  );
  const toggle = (id: number, on: boolean) =>
    onChange({
      ...values,
      accountIds: on
        ? [...values.accountIds, id]
        : values.accountIds.filter((chosenId) => chosenId !== id),
    });

  return (
    <>
      <TextField
        label={t('portfolio.form.name')}
        maxLength={PORTFOLIO_NAME_MAX}
        autoComplete="off"
        value={values.name}
        onChange={(event) => onChange({ ...values, name: event.target.value })}
        error={errors.name}
      />
      <fieldset
        className={`${styles.group} ${own.picker}`}
        aria-describedby={[countId, errors.account_ids ? errorId : null].filter(Boolean).join(' ')}
        aria-invalid={errors.account_ids ? true : undefined}
      >
        <legend className={styles.legend}>{t('portfolio.form.accounts')}</legend>
        <p id={countId} className={styles.muted}>
          {t('portfolio.form.chosen', {
            count: chosen.size,
            min: PORTFOLIO_ACCOUNTS_MIN,
            max: PORTFOLIO_ACCOUNTS_MAX,
          })}
        </p>
        <div className={own.pickerList}>
          {accounts.map((a) => (
            <Checkbox
              key={a.id}
              label={
                <>
                  {a.name}{' '}
                  <span className={own.accountFacts}>
                    {[a.platform, a.login, a.currency].filter(Boolean).join(' · ')}
                  </span>
                </>
              }
              checked={chosen.has(a.id)}
              onChange={(event) => toggle(a.id, event.target.checked)}
            />
          ))}
        </div>
        {errors.account_ids ? (
          <p id={errorId} className={fieldStyles.error}>
            {errors.account_ids}
          </p>
        ) : null}
        {currencies.size > 1 ? (
          <p className={own.note}>{t('portfolio.form.mixedCurrencies')}</p>
        ) : null}
      </fieldset>
    </>
  );
}
