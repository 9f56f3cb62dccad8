import {
  ALERT_KINDS,
  ALERT_UNITS,
  updateAlertSettingsSchema,
  type AlertKind,
  type AlertSettings,
  type MonitoringAccount,
  type UpdateAlertSettings,
} from '@tradehost/contracts';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import * as z from 'zod/mini';
import { fieldErrorText, fieldErrorValue, isApiRequestError } from '../../../shared/lib/api-error';
import { useFailure } from '../../../shared/lib/use-failure';
import { Button, Checkbox, FormAlert, TextField } from '../../../shared/ui/form';
import { ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { useGetAlertSettingsQuery, useUpdateAlertSettingsMutation } from '../api/alerts-api';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import { AlertHistoryList } from './alert-history';
import styles from './alerts.module.css';
import { FailureAlert } from './failure';
import common from './monitoring.module.css';

const FLAGS = ['alerts_enabled', 'alert_email', 'alert_telegram'] as const;
const REPORTS = ['report_daily', 'report_weekly', 'report_monthly'] as const;
const REPORT_CHANNELS = ['report_email', 'report_telegram'] as const;
type Flag = (typeof FLAGS | typeof REPORTS | typeof REPORT_CHANNELS)[number];
/** The lines in whole units (minutes, milliseconds): a phone shows digits only. */
const WHOLE: ReadonlySet<AlertKind> = new Set(['no_data', 'ping_above']);

interface FormValues {
  flags: Record<Flag, boolean>;
  rules: Record<AlertKind, { enabled: boolean; threshold: string }>;
}

const valuesOf = (s: AlertSettings): FormValues => ({
  flags: Object.fromEntries(
    [...FLAGS, ...REPORTS, ...REPORT_CHANNELS].map((flag) => [flag, s[flag]]),
  ) as FormValues['flags'],
  rules: Object.fromEntries(
    s.rules.map((r) => [r.kind, { enabled: r.enabled, threshold: r.threshold?.toString() ?? '' }]),
  ) as FormValues['rules'],
});

/**
 * The request: every flag, and each rule that is on or has a line (an empty line of a rule left
 * off is not sent; of a rule switched on it is, so the contract's check names it).
 */
function bodyOf(values: FormValues): UpdateAlertSettings {
  const rules: Record<string, { enabled: boolean; threshold?: number }> = {};
  for (const kind of ALERT_KINDS) {
    const { enabled, threshold } = values.rules[kind];
    if (kind === 'positions') rules[kind] = { enabled };
    else if (threshold.trim() !== '' || enabled)
      rules[kind] = {
        enabled,
        threshold: Number(threshold.trim().replace(',', '.') || Number.NaN),
      };
  }
  return { ...values.flags, rules } as UpdateAlertSettings;
}

/** Each field's first message (an error code or a text), by its path: `rules.drawdown.threshold`. */
function clientErrors(body: UpdateAlertSettings): Record<string, string> {
  const result = z.safeParse(updateAlertSettingsSchema, body);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[issue.path.join('.')] ??= issue.message;
  return errors;
}

function serverErrors(error: unknown): Record<string, string> {
  if (!isApiRequestError(error) || !error.errors) return {};
  return Object.fromEntries(
    Object.entries(error.errors).map(([field, [message = '']]) => [
      field,
      fieldErrorValue(message),
    ]),
  );
}

/**
 * The owner's alerts of one account: each rule on or off with its line, where alerts go, the
 * daily, weekly and monthly reports, and the history of alerts that fired.
 */
export function AlertsSection({ account }: { account: MonitoringAccount }) {
  const { t } = useMonitoringFormat();
  const settings = useGetAlertSettingsQuery(account.id);
  return (
    <section className={common.section} aria-labelledby="alerts-title">
      <h2 id="alerts-title" className={common.sectionTitle}>
        {t('alerts.title')}
      </h2>
      {settings.data ? (
        <AlertsForm key={account.id} account={account} settings={settings.data} />
      ) : settings.isError ? (
        <ErrorState
          title={t('alerts.loadFailed')}
          retryLabel={t('retry')}
          onRetry={() => void settings.refetch()}
        />
      ) : (
        <LoadingState>{t('loading')}</LoadingState>
      )}
      <AlertHistoryList account={account} />
    </section>
  );
}

function AlertsForm({
  account,
  settings,
}: {
  account: MonitoringAccount;
  settings: AlertSettings;
}) {
  const f = useMonitoringFormat();
  const { t } = f;
  const [update, updating] = useUpdateAlertSettingsMutation();
  const failed = useFailure();
  const [values, setValues] = useState(() => valuesOf(settings));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [done, setDone] = useState(false);
  const fired = new Map(settings.rules.map((r) => [r.kind, r.fired_at]));

  const setFlag = (flag: Flag, checked: boolean) =>
    setValues((v) => ({ ...v, flags: { ...v.flags, [flag]: checked } }));
  const setRule = (kind: AlertKind, change: Partial<FormValues['rules'][AlertKind]>) =>
    setValues((v) => ({ ...v, rules: { ...v.rules, [kind]: { ...v.rules[kind], ...change } } }));
  const errorOf = (path: string) => fieldErrorText(t, errors[path]);
  // a Telegram channel the bot cannot deliver on (not set up here, or not linked yet) is not
  // claimed: shown off and locked, with what it waits for; its stored choice is kept
  const telegram = settings.telegram;
  const telegramWaits = !telegram.available
    ? t('alerts.telegramHintOff')
    : !telegram.linked
      ? t('alerts.telegramHintUnlinked')
      : undefined;
  const channel = (flag: Flag) =>
    (flag === 'alert_telegram' || flag === 'report_telegram') && telegramWaits
      ? { checked: false, disabled: true, hint: telegramWaits }
      : { checked: values.flags[flag] };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    failed.clear();
    setDone(false);
    const body = bodyOf(values);
    const found = clientErrors(body);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirst(found);
    try {
      setValues(valuesOf(await update({ id: account.id, ...body }).unwrap()));
      setDone(true);
    } catch (error) {
      const fields = serverErrors(error);
      setErrors(fields);
      if (Object.keys(fields).length > 0) focusFirst(fields);
      else failed.fail(error);
    }
  };

  const unit = (kind: AlertKind) => {
    const of = ALERT_UNITS[kind];
    if (of === 'money') return settings.currency ?? t('alerts.units.money');
    return of === 'none' ? '' : t(`alerts.units.${of}`);
  };

  return (
    <form className={styles.form} onSubmit={(event) => void save(event)} noValidate>
      <p className={common.muted}>{t('alerts.lead')}</p>
      {!settings.telegram.available ? (
        <FormAlert tone="info">
          <p>{t('alerts.telegramOff')}</p>
        </FormAlert>
      ) : !settings.telegram.linked ? (
        <FormAlert tone="info">
          <p>
            {t('alerts.telegramUnlinked')} <Link to="/profile">{t('alerts.toProfile')}</Link>
          </p>
        </FormAlert>
      ) : null}

      <fieldset className={common.group}>
        <legend className={common.legend}>{t('alerts.channels')}</legend>
        <Checkbox
          label={t('alerts.alertsOn')}
          checked={values.flags.alerts_enabled}
          onChange={(event) => setFlag('alerts_enabled', event.target.checked)}
        />
        <Checkbox
          label={t('alerts.byEmail', { email: settings.email })}
          checked={values.flags.alert_email}
          onChange={(event) => setFlag('alert_email', event.target.checked)}
        />
        <Checkbox
          label={t('alerts.byTelegram')}
          {...channel('alert_telegram')}
          onChange={(event) => setFlag('alert_telegram', event.target.checked)}
        />
      </fieldset>

      <fieldset className={common.group}>
        <legend className={common.legend}>{t('alerts.rulesTitle')}</legend>
        <ul className={styles.rules}>
          {ALERT_KINDS.map((kind) => {
            const firedAt = fired.get(kind);
            return (
              <li key={kind} className={styles.rule}>
                <Checkbox
                  label={t(`alerts.rules.${kind}`)}
                  checked={values.rules[kind].enabled}
                  onChange={(event) => setRule(kind, { enabled: event.target.checked })}
                  hint={
                    firedAt
                      ? t('alerts.fired', { at: f.dateTime(firedAt) })
                      : kind === 'no_data'
                        ? t('alerts.noDataHint')
                        : kind === 'ping_above'
                          ? t('alerts.pingHint')
                          : undefined
                  }
                />
                {kind === 'positions' ? null : (
                  <TextField
                    className={styles.threshold}
                    label={t('alerts.threshold', {
                      rule: t(`alerts.kinds.${kind}`),
                      unit: unit(kind),
                    })}
                    inputMode={WHOLE.has(kind) ? 'numeric' : 'decimal'}
                    autoComplete="off"
                    name={`rules.${kind}.threshold`}
                    value={values.rules[kind].threshold}
                    error={errorOf(`rules.${kind}.threshold`)}
                    onChange={(event) => setRule(kind, { threshold: event.target.value })}
                  />
                )}
              </li>
            );
          })}
        </ul>
      </fieldset>

      <fieldset className={common.group}>
        <legend className={common.legend}>{t('alerts.reportsTitle')}</legend>
        <p className={common.muted}>{t('alerts.reportsLead', { zone: account.time_zone })}</p>
        <div className={styles.inline}>
          {REPORTS.map((flag) => (
            <Checkbox
              key={flag}
              label={t(`alerts.${flag}`)}
              checked={values.flags[flag]}
              onChange={(event) => setFlag(flag, event.target.checked)}
            />
          ))}
        </div>
        <div className={styles.inline}>
          {REPORT_CHANNELS.map((flag) => (
            <Checkbox
              key={flag}
              label={t(`alerts.${flag}`)}
              {...channel(flag)}
              onChange={(event) => setFlag(flag, event.target.checked)}
            />
          ))}
        </div>
      </fieldset>

      <FailureAlert failure={failed.failure} alertRef={failed.alertRef} />
      {done ? (
        <p role="status" className={common.up}>
          {t('alerts.saved')}
        </p>
      ) : null}
      <div>
        <Button type="submit" loading={updating.isLoading}>
          {t('alerts.save')}
        </Button>
      </div>
    </form>
  );
}

/** Moves the focus to the first field with an error, so it is read out. */
function focusFirst(errors: Record<string, string>) {
  const [first] = Object.keys(errors);
  if (!first) return;
  document.querySelector<HTMLInputElement>(`input[name="${first}"]`)?.focus();
}
