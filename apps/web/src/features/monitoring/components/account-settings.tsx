import type { MonitoringAccount } from '@tradehost/contracts';
import { useMemo, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useFailure } from '../../../shared/lib/use-failure';
import { Button, Checkbox, SelectField, TextField } from '../../../shared/ui/form';
import { useDeleteAccountMutation, useUpdateAccountMutation } from '../api/monitoring-api';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import { FailureAlert } from './failure';
import { RemovalZone, ShareLink } from './settings-parts';
import styles from './monitoring.module.css';

const HIDES = [
  'hide_login',
  'hide_broker',
  'hide_money',
  'hide_positions',
  'hide_history',
] as const;

/** Every IANA zone this browser knows, UTC first. */
function timeZones(current: string): string[] {
  const zones =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [
    'UTC',
    ...zones.filter((z) => z !== 'UTC'),
    ...(zones.includes(current) || current === 'UTC' ? [] : [current]),
  ];
}

/**
 * The owner's settings of an account: its name and e-mail, the public page and what it hides,
 * the time zone of days and months, the share link; and apart from them, under Save, the removal
 * from monitoring, after a confirmation that names the account.
 */
export function AccountSettings({ account }: { account: MonitoringAccount }) {
  const { t } = useMonitoringFormat();
  const navigate = useNavigate();
  const [update, updating] = useUpdateAccountMutation();
  const [remove, removing] = useDeleteAccountMutation();
  const saved = useFailure();
  const [done, setDone] = useState(false);
  const [values, setValues] = useState({
    name: account.name,
    email: account.email,
    is_public: account.is_public,
    time_zone: account.time_zone,
    ...Object.fromEntries(HIDES.map((h) => [h, account[h]])),
  } as Record<string, string | boolean>);
  const zones = useMemo(() => timeZones(account.time_zone), [account.time_zone]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    saved.clear();
    setDone(false);
    try {
      await update({ id: account.id, ...values }).unwrap();
      setDone(true);
    } catch (error) {
      saved.fail(error);
    }
  };

  return (
    <section className={styles.section} aria-labelledby="settings-title">
      <h2 id="settings-title" className={styles.sectionTitle}>
        {t('settings.title')}
      </h2>
      <form className={styles.checks} onSubmit={(event) => void save(event)} noValidate>
        <div className={styles.fields}>
          <TextField
            label={t('addAccount.name')}
            maxLength={60}
            value={String(values.name)}
            onChange={(event) => setValues((v) => ({ ...v, name: event.target.value }))}
          />
          <TextField
            label={t('addAccount.email')}
            type="email"
            value={String(values.email)}
            onChange={(event) => setValues((v) => ({ ...v, email: event.target.value }))}
          />
          <SelectField
            id="settings-zone"
            label={t('settings.timeZone')}
            value={String(values.time_zone)}
            onChange={(event) => setValues((v) => ({ ...v, time_zone: event.target.value }))}
          >
            {zones.map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </SelectField>
        </div>
        <fieldset className={styles.group}>
          <legend className={styles.legend}>{t('settings.publicPage')}</legend>
          {account.is_public ? (
            <ShareLink path={`/online-monitoring/${account.monitoring_id}`} />
          ) : null}
          <Checkbox
            label={t('settings.is_public')}
            checked={Boolean(values.is_public)}
            onChange={(event) => setValues((v) => ({ ...v, is_public: event.target.checked }))}
          />
          {HIDES.map((hide) => (
            <Checkbox
              key={hide}
              label={t(`settings.${hide}`)}
              checked={Boolean(values[hide])}
              disabled={!values.is_public}
              onChange={(event) => setValues((v) => ({ ...v, [hide]: event.target.checked }))}
            />
          ))}
        </fieldset>
        <FailureAlert failure={saved.failure} alertRef={saved.alertRef} />
        {done ? (
          <p role="status" className={styles.up}>
            {t('settings.saved')}
          </p>
        ) : null}
        <div className={styles.row}>
          <Button type="submit" loading={updating.isLoading}>
            {t('settings.save')}
          </Button>
        </div>
      </form>
      <RemovalZone
        id="remove-title"
        title={t('settings.removeTitle')}
        lead={t('settings.removeLead')}
        action={t('settings.remove')}
        confirmTitle={t('settings.deleteTitle', { name: account.name, login: account.login })}
        confirmLead={t('settings.deleteLead')}
        confirmLabel={t('settings.deleteConfirm')}
        busy={removing.isLoading}
        remove={() =>
          remove(account.id)
            .unwrap()
            .then(() => navigate('/online-monitoring/accounts'))
        }
      />
    </section>
  );
}
