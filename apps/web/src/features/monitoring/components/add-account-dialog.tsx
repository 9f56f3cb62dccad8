import type { Subscription } from '@tradehost/contracts';
import { useState, type FormEvent } from 'react';
import { fieldErrorText, fieldErrorValue, isApiRequestError } from '../../../shared/lib/api-error';
import { useFailure } from '../../../shared/lib/use-failure';
import { Dialog, DialogActions } from '../../../shared/ui/dialog/dialog';
import { Button, SelectField, TextField } from '../../../shared/ui/form';
import { useAddAccountMutation } from '../api/monitoring-api';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import { FailureAlert } from './failure';
import styles from './monitoring.module.css';

/**
 * Adds a trading account to a running subscription with a free place: the account number, the
 * e-mail its reports and alerts go to and the monitoring name are required (SPEC 5); the API's
 * refusals show on their fields or above the buttons.
 */
export function AddAccountDialog({
  subscriptions,
  email,
  onClose,
}: {
  subscriptions: Subscription[];
  email: string;
  onClose: () => void;
}) {
  const { t } = useMonitoringFormat();
  const [add, { isLoading }] = useAddAccountMutation();
  const { failure, alertRef, fail, clear } = useFailure();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [values, setValues] = useState({
    subscription_id: subscriptions[0]?.id ?? 0,
    login: '',
    platform: 'MT5' as 'MT4' | 'MT5',
    name: '',
    email,
  });
  const set = (field: keyof typeof values) => (value: string) =>
    setValues((v) => ({ ...v, [field]: field === 'subscription_id' ? Number(value) : value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing: Record<string, string> = {};
    if (!/^\d{1,15}$/.test(values.login.trim()))
      missing.login = t('errors:MONITORING_LOGIN_INVALID');
    if (!values.name.trim()) missing.name = t('errors:MONITORING_NAME_REQUIRED');
    if (!values.email.trim()) missing.email = t('errors:EMAIL_INVALID');
    setFieldErrors(missing);
    if (Object.keys(missing).length > 0) return;
    clear();
    try {
      await add({ ...values, login: values.login.trim() }).unwrap();
      onClose();
    } catch (error) {
      const fields: Record<string, string> = {};
      if (isApiRequestError(error))
        for (const [field, messages] of Object.entries(error.errors ?? {})) {
          const text = fieldErrorText(t, fieldErrorValue(messages[0] ?? ''));
          if (text) fields[field] = text;
        }
      setFieldErrors(fields);
      if (!['login', 'name', 'email'].some((field) => fields[field])) fail(error);
    }
  };

  return (
    <Dialog
      open
      onOpenChange={onClose}
      closeLabel={t('close')}
      title={t('addAccount.title')}
      description={t('addAccount.lead')}
      busy={isLoading}
    >
      <form className={styles.checks} onSubmit={(event) => void submit(event)} noValidate>
        {subscriptions.length > 1 ? (
          <SelectField
            id="add-subscription"
            label={t('addAccount.subscription')}
            value={values.subscription_id}
            onChange={(event) => set('subscription_id')(event.target.value)}
          >
            {subscriptions.map((s) => (
              <option key={s.id} value={s.id}>
                {t(s.plan === 'free' ? 'subscriptions.freeName' : 'subscriptions.paidName', {
                  id: s.id,
                })}
              </option>
            ))}
          </SelectField>
        ) : null}
        <TextField
          label={t('addAccount.login')}
          inputMode="numeric"
          autoComplete="off"
          value={values.login}
          onChange={(event) => set('login')(event.target.value)}
          error={fieldErrors.login}
        />
        <fieldset className={styles.row}>
          <legend>{t('addAccount.platform')}</legend>
          {(['MT5', 'MT4'] as const).map((platform) => (
            <label key={platform} className={styles.row}>
              <input
                type="radio"
                name="platform"
                checked={values.platform === platform}
                onChange={() => set('platform')(platform)}
              />
              {t(`platforms.${platform}`)}
            </label>
          ))}
        </fieldset>
        <TextField
          label={t('addAccount.name')}
          maxLength={60}
          value={values.name}
          onChange={(event) => set('name')(event.target.value)}
          error={fieldErrors.name}
        />
        <TextField
          label={t('addAccount.email')}
          type="email"
          hint={t('addAccount.emailHint')}
          value={values.email}
          onChange={(event) => set('email')(event.target.value)}
          error={fieldErrors.email}
        />
        <FailureAlert failure={failure} alertRef={alertRef} />
        <DialogActions>
          <Button variant="secondary" disabled={isLoading} onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button type="submit" loading={isLoading} loadingText={t('addAccount.adding')}>
            {t('addAccount.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
