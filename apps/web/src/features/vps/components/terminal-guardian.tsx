import {
  GUARDIAN_POLICIES,
  GUARDIAN_REBOOT_AFTER_MAX,
  GUARDIAN_REBOOT_AFTER_MIN,
  type GuardianIncident,
  type GuardianPolicy,
  type GuardianResponse,
  type GuardianSettings,
  type GuardianStatus,
  type Server,
} from '@tradehost/contracts';
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { fieldErrorText } from '../../../shared/lib/api-error';
import { useFormFailure } from '../../../shared/lib/use-form-failure';
import { Button, Checkbox, FormAlert, TextField } from '../../../shared/ui/form';
import fieldStyles from '../../../shared/ui/form/field.module.css';
import cards from '../../../shared/ui/radio-cards/radio-cards.module.css';
import { EmptyState } from '../../../shared/ui/states/states';
import { StatusBadge, type StatusTone } from '../../../shared/ui/status-badge/status-badge';
import { notify } from '../../../shared/ui/toast/notify';
import { useGetVpsGuardianQuery, useSetVpsGuardianMutation } from '../api/vps-api';
import { useVpsFormat } from '../lib/use-vps-format';
import { Loaded } from './load-state';
import { ServerTable } from './server-table';
import styles from './server-sections.module.css';
import vpsStyles from './vps.module.css';

const TONES: Record<GuardianStatus, StatusTone> = {
  open: 'pending',
  resolved: 'success',
  escalated: 'danger',
  notified: 'info',
};

/** The form's values: the minutes as typed (checked on Save). */
interface GuardianValues {
  policy: GuardianPolicy;
  reboot_after_minutes: string;
  reboot_with_positions: boolean;
}

const FIELDS = ['policy', 'reboot_after_minutes', 'reboot_with_positions'] as const;

/** Whole minutes within the guardian's range, or null. */
function minutesOf(text: string): number | null {
  const minutes = /^\d{1,4}$/.test(text.trim()) ? Number(text.trim()) : NaN;
  return minutes >= GUARDIAN_REBOOT_AFTER_MIN && minutes <= GUARDIAN_REBOOT_AFTER_MAX
    ? minutes
    : null;
}

/**
 * A server's page's "Terminal guardian": what it may do when a terminal on the server falls
 * silent (tell only, restart, or also reboot after N minutes, even with positions open or not),
 * saved with the API's field errors on their fields, and what it found and did lately.
 */
export function TerminalGuardian({ server }: { server: Server }) {
  const { t } = useVpsFormat();
  const headingId = useId();
  const incidentsId = useId();
  const query = useGetVpsGuardianQuery(server.id);

  const guardian = ({ settings, incidents }: GuardianResponse) => (
    <>
      <GuardianForm serverId={server.id} settings={settings} />
      <h3 id={incidentsId} className={styles.subTitle}>
        {t('guardian.incidents')}
      </h3>
      {incidents.length === 0 ? (
        <EmptyState title={t('guardian.emptyTitle')}>{t('guardian.emptyText')}</EmptyState>
      ) : (
        <Incidents incidents={incidents} labelledBy={incidentsId} />
      )}
    </>
  );

  return (
    <section className={vpsStyles.section} aria-labelledby={headingId}>
      <h2 id={headingId} className={vpsStyles.sectionTitle}>
        {t('guardian.title')}
      </h2>
      <p className={styles.lead}>{t('guardian.lead')}</p>
      <Loaded query={query} loading={t('guardian.loading')} failed={t('guardian.loadFailed')}>
        {guardian}
      </Loaded>
    </section>
  );
}

/**
 * The policy as three cards; the minutes and the positions' choice with the third only (kept
 * as they were for the others). The form starts from the saved settings and keeps the reader's
 * changes while the guardian is read again; Save makes what it answers the new start.
 */
function GuardianForm({ serverId, settings }: { serverId: number; settings: GuardianSettings }) {
  const { t } = useVpsFormat();
  const name = useId();
  const policyErrorId = useId();
  const [save] = useSetVpsGuardianMutation();
  const {
    register,
    handleSubmit,
    control,
    reset,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<GuardianValues>({
    defaultValues: {
      policy: settings.policy,
      reboot_after_minutes: String(settings.reboot_after_minutes),
      reboot_with_positions: settings.reboot_with_positions,
    },
  });
  const { failure, alertRef, fail, clear } = useFormFailure();
  const reboots = useWatch({ control, name: 'policy' }) === 'restart_then_reboot';

  const submit = async (values: GuardianValues) => {
    clear();
    const minutes = minutesOf(values.reboot_after_minutes);
    if (reboots && minutes === null) {
      setError(
        'reboot_after_minutes',
        { message: 'GUARDIAN_MINUTES_RANGE' },
        { shouldFocus: true },
      );
      return;
    }
    try {
      const saved = await save({
        id: serverId,
        policy: values.policy,
        // hidden with the other policies: what was saved stays
        reboot_after_minutes: minutes ?? settings.reboot_after_minutes,
        reboot_with_positions: values.reboot_with_positions,
      }).unwrap();
      reset({
        policy: saved.settings.policy,
        reboot_after_minutes: String(saved.settings.reboot_after_minutes),
        reboot_with_positions: saved.settings.reboot_with_positions,
      });
      notify('success', t('guardian.saved'));
    } catch (error) {
      fail(error, { fields: FIELDS, setError, setFocus });
    }
  };

  const policyError = fieldErrorText(t, errors.policy?.message);
  return (
    <form className={styles.guardianForm} noValidate onSubmit={handleSubmit(submit)}>
      {failure && !errors.policy && !errors.reboot_after_minutes ? (
        <FormAlert ref={alertRef} key={failure.serial} tone="error">
          {failure.text}
        </FormAlert>
      ) : null}
      <fieldset
        className={cards.fieldset}
        aria-describedby={policyError ? policyErrorId : undefined}
      >
        <legend className={cards.legend}>{t('guardian.policy')}</legend>
        <div className={styles.policies}>
          {GUARDIAN_POLICIES.map((policy) => (
            <label key={policy} className={`${cards.card} ${styles.policyCard}`}>
              <input
                type="radio"
                className={cards.radio}
                value={policy}
                aria-labelledby={`${name}-${policy}-title`}
                aria-describedby={`${name}-${policy}-text`}
                {...register('policy')}
              />
              <span id={`${name}-${policy}-title`} className={styles.policyTitle}>
                {t(`guardian.policies.${policy}.title`)}
              </span>
              <span id={`${name}-${policy}-text`} className={styles.policyText}>
                {t(`guardian.policies.${policy}.text`)}
              </span>
              <span className={cards.check} aria-hidden="true" />
            </label>
          ))}
        </div>
        {policyError ? (
          <p id={policyErrorId} className={fieldStyles.error}>
            {policyError}
          </p>
        ) : null}
      </fieldset>
      {reboots ? (
        <div className={styles.rebootFields}>
          <TextField
            className={styles.minutesInput}
            label={t('guardian.minutes')}
            hint={t('guardian.minutesHint')}
            inputMode="numeric"
            autoComplete="off"
            error={fieldErrorText(t, errors.reboot_after_minutes?.message)}
            {...register('reboot_after_minutes')}
          />
          <Checkbox
            label={t('guardian.withPositions')}
            hint={t('guardian.withPositionsHint')}
            error={fieldErrorText(t, errors.reboot_with_positions?.message)}
            {...register('reboot_with_positions')}
          />
        </div>
      ) : null}
      <div>
        <Button type="submit" loading={isSubmitting} loadingText={t('guardian.saving')}>
          {t('guardian.save')}
        </Button>
      </div>
    </form>
  );
}

/** The last incidents: when, the cause and what was done in words, and the outcome. */
function Incidents({
  incidents,
  labelledBy,
}: {
  incidents: GuardianIncident[];
  labelledBy: string;
}) {
  const { t, dateTime } = useVpsFormat();
  const when = (incident: GuardianIncident) => (
    <time dateTime={incident.opened_at}>{dateTime(incident.opened_at)}</time>
  );
  const done = (incident: GuardianIncident) => (
    <span className={vpsStyles.cellStack}>
      <span>{t(`guardian.actions.${incident.action}`)}</span>
      {incident.positions > 0 ? (
        <span className={vpsStyles.muted}>
          {t('guardian.positions', { count: incident.positions })}
        </span>
      ) : null}
    </span>
  );
  const outcome = (incident: GuardianIncident) => (
    <StatusBadge tone={TONES[incident.status]} status={incident.status}>
      {t(`guardian.statuses.${incident.status}`)}
    </StatusBadge>
  );

  return (
    <ServerTable
      labelledBy={labelledBy}
      className={styles.table}
      dated
      headers={[
        t('guardian.columns.when'),
        t('guardian.columns.cause'),
        t('guardian.columns.done'),
        t('guardian.columns.outcome'),
      ]}
      rows={incidents.map((incident) => {
        const cause = t(`guardian.causes.${incident.cause}`);
        return {
          key: incident.id,
          mark: ['incident', incident.status],
          cells: [when(incident), cause, done(incident), outcome(incident)],
          card: {
            title: cause,
            subtitle: when(incident),
            lead: { label: t('guardian.columns.outcome'), value: outcome(incident) },
            facts: [{ label: t('guardian.columns.done'), value: done(incident) }],
          },
        };
      })}
    />
  );
}
