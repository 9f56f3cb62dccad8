import type { MonitoringAccount } from '@tradehost/contracts';
import { useMemo, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useFailure } from '../../../shared/lib/use-failure';
import { CopyButton } from '../../../shared/ui/copy-button/copy-button';
import { Dialog, DialogActions } from '../../../shared/ui/dialog/dialog';
import { Button, Checkbox, SelectField, TextField } from '../../../shared/ui/form';
import { useDeleteAccountMutation, useUpdateAccountMutation } from '../api/monitoring-api';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import { FailureAlert } from './failure';
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
  const removal = useFailure();
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState(false);
  const [values, setValues] = useState({
    name: account.name,
    email: account.email,
    is_public: account.is_public,
    time_zone: account.time_zone,
    ...Object.fromEntries(HIDES.map((h) => [h, account[h]])),
  } as Record<string, string | boolean>);
  const zones = useMemo(() => timeZones(account.time_zone), [account.time_zone]);
  const link = `${window.location.origin}/online-monitoring/${account.monitoring_id}`;

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
            <div className={`${styles.row} ${styles.shareLink}`}>
              <span className={styles.muted}>{t('settings.shareLink')}</span>
              <a href={link}>{link}</a>
              <CopyButton
                text={link}
                label={t('settings.copyLink')}
                messages={{ copied: t('key.copied'), failed: t('key.copyFailed') }}
              />
            </div>
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
      <section className={styles.dangerZone} aria-labelledby="remove-title">
        <h3 id="remove-title" className={styles.groupTitle}>
          {t('settings.removeTitle')}
        </h3>
        <p className={styles.muted}>{t('settings.removeLead')}</p>
        <FailureAlert failure={removal.failure} alertRef={removal.alertRef} />
        <div className={styles.row}>
          <Button variant="danger" onClick={() => setConfirming(true)}>
            {t('settings.remove')}
          </Button>
        </div>
      </section>
      {confirming ? (
        <Dialog
          open
          onOpenChange={() => setConfirming(false)}
          closeLabel={t('close')}
          title={t('settings.deleteTitle', { name: account.name, login: account.login })}
          description={t('settings.deleteLead')}
          busy={removing.isLoading}
        >
          <DialogActions>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              {t('cancel')}
            </Button>
            <Button
              variant="danger"
              loading={removing.isLoading}
              onClick={() =>
                void remove(account.id)
                  .unwrap()
                  .then(() => navigate('/online-monitoring/accounts'))
                  .catch((error: unknown) => {
                    setConfirming(false);
                    removal.fail(error);
                  })
              }
            >
              {t('settings.deleteConfirm')}
            </Button>
          </DialogActions>
        </Dialog>
      ) : null}
    </section>
  );
}
