import { zodResolver } from '@hookform/resolvers/zod';
import {
  SNAPSHOT_NAME_MAX,
  snapshotRequestSchema,
  type Server,
  type Snapshot,
  type SnapshotRequest,
  type SnapshotsResponse,
  type SnapshotStatus,
} from '@tradehost/contracts';
import { useId, useState, type ComponentPropsWithRef, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { fieldErrorText } from '../../../shared/lib/api-error';
import { useFormFailure } from '../../../shared/lib/use-form-failure';
import { Button, FormAlert } from '../../../shared/ui/form';
import { useField, type FieldOwnProps } from '../../../shared/ui/form/field-frame';
import { FieldMessages } from '../../../shared/ui/form/field-messages';
import fieldStyles from '../../../shared/ui/form/field.module.css';
import { EmptyState } from '../../../shared/ui/states/states';
import { StatusBadge, type StatusTone } from '../../../shared/ui/status-badge/status-badge';
import { notify } from '../../../shared/ui/toast/notify';
import {
  useDeleteVpsSnapshotMutation,
  useGetVpsSnapshotsQuery,
  useRollbackVpsSnapshotMutation,
  useTakeVpsSnapshotMutation,
} from '../api/vps-api';
import { useVpsFormat, type VpsFormat } from '../lib/use-vps-format';
import { ConfirmOperationDialog, operationBlockText } from './confirm-operation';
import { Loaded } from './load-state';
import { ServerTable } from './server-table';
import styles from './server-sections.module.css';
import vpsStyles from './vps.module.css';

const TONES: Record<SnapshotStatus, StatusTone> = {
  creating: 'pending',
  ready: 'success',
  deleting: 'pending',
};

const FIELDS = ['name'] as const;

/**
 * A snapshot's name as the reader reads it: the owner's own, or, for one taken by the service
 * before a reinstall (stored under an English name), what it is in the reader's language.
 */
export function snapshotName(t: VpsFormat['t'], snapshot: Snapshot): string {
  return snapshot.automatic ? t('snapshots.beforeReinstall') : snapshot.name;
}

type Asked = { kind: 'rollback' | 'delete'; snapshot: Snapshot };

/**
 * A server's page's "Snapshots": how many of how many are used, a form to take one (its name; the
 * API's refusal on the field), and the list, newest first, each with Roll back and Delete behind
 * a confirmation. Nothing can be asked for while an operation runs, on a blocked server, or (a
 * new one) with every place used: the reason shows. The list is read again as its operations end
 * (vps-api).
 */
export function ServerSnapshots({ server }: { server: Server }) {
  const { t } = useVpsFormat();
  const headingId = useId();
  const reasonId = useId();
  const query = useGetVpsSnapshotsQuery(server.id);
  const [asked, setAsked] = useState<Asked | null>(null);
  const { data } = query;

  const blocked = operationBlockText(t, server);
  const full = data ? data.data.length >= data.limit : false;
  const takeReason = blocked ?? (full && data ? t('snapshots.full', { limit: data.limit }) : null);

  const list = ({ data: taken }: SnapshotsResponse) =>
    taken.length === 0 ? (
      <EmptyState title={t('snapshots.emptyTitle')}>{t('snapshots.emptyText')}</EmptyState>
    ) : (
      <div className={vpsStyles.results} aria-busy={query.isFetching || undefined}>
        <SnapshotList
          // newest first, as the activity
          snapshots={[...taken].reverse()}
          labelledBy={headingId}
          disabled={blocked !== null}
          describedBy={blocked ? reasonId : undefined}
          onAsk={setAsked}
        />
      </div>
    );

  return (
    <section className={vpsStyles.section} aria-labelledby={headingId}>
      <div className={styles.sectionHead}>
        <h2 id={headingId} className={vpsStyles.sectionTitle}>
          {t('snapshots.title')}
        </h2>
        {data ? (
          <p className={styles.count}>
            {t('snapshots.used', { count: data.data.length, limit: data.limit })}
          </p>
        ) : null}
      </div>
      <p className={styles.lead}>{t('snapshots.lead')}</p>
      <TakeSnapshotForm
        server={server}
        reason={takeReason}
        reasonId={reasonId}
        disabled={takeReason !== null || !data}
      />
      <Loaded query={query} loading={t('snapshots.loading')} failed={t('snapshots.loadFailed')}>
        {list}
      </Loaded>
      {asked ? (
        <SnapshotDialog server={server} asked={asked} onClose={() => setAsked(null)} />
      ) : null}
    </section>
  );
}

/** The name and Take snapshot; why it cannot be taken now, when it cannot. */
function TakeSnapshotForm({
  server,
  reason,
  reasonId,
  disabled,
}: {
  server: Server;
  reason: string | null;
  reasonId: string;
  disabled: boolean;
}) {
  const { t } = useVpsFormat();
  const [take] = useTakeVpsSnapshotMutation();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<SnapshotRequest>({
    resolver: zodResolver(snapshotRequestSchema),
    defaultValues: { name: '' },
  });
  const { failure, alertRef, fail, clear } = useFormFailure();

  const submit = async ({ name }: SnapshotRequest) => {
    clear();
    try {
      await take({ id: server.id, name }).unwrap();
      reset();
      notify('success', t('snapshots.started', { name }));
    } catch (error) {
      fail(error, { fields: FIELDS, setError, setFocus });
    }
  };

  return (
    <form className={styles.takeForm} noValidate onSubmit={handleSubmit(submit)}>
      {failure && !errors.name ? (
        <FormAlert ref={alertRef} key={failure.serial} tone="error">
          {failure.text}
        </FormAlert>
      ) : null}
      <NameField
        label={t('snapshots.name')}
        hint={t('snapshots.nameHint', { max: SNAPSHOT_NAME_MAX })}
        error={fieldErrorText(t, errors.name?.message)}
        autoComplete="off"
        {...register('name')}
      >
        <Button
          type="submit"
          className={styles.takeButton}
          disabled={disabled}
          loading={isSubmitting}
          loadingText={t('snapshots.taking')}
          aria-describedby={reason ? reasonId : undefined}
        >
          {t('snapshots.take')}
        </Button>
      </NameField>
      {reason ? (
        <p id={reasonId} className={styles.reason}>
          {reason}
        </p>
      ) : null}
    </form>
  );
}

/**
 * The name's field with Take snapshot beside its input, the field's hint and error under both;
 * on a phone the button goes under the hint, at the end of the form as a phone's reader expects.
 */
function NameField({
  children,
  ...props
}: FieldOwnProps & Omit<ComponentPropsWithRef<'input'>, 'children'> & { children: ReactNode }) {
  const { frame, control } = useField(props);
  return (
    <div className={styles.nameField}>
      <label htmlFor={frame.ids.inputId} className={`${fieldStyles.label} ${styles.nameLabel}`}>
        {frame.label}
      </label>
      <input className={`${fieldStyles.input} ${styles.nameInput}`} {...control} />
      {children}
      <FieldMessages
        className={styles.nameMessages}
        hint={frame.hint}
        hintId={frame.ids.hintId}
        error={frame.error}
        errorId={frame.ids.errorId}
      />
    </div>
  );
}

interface SnapshotListProps {
  snapshots: Snapshot[];
  labelledBy: string;
  /** An operation runs, or the server is blocked: no rollback nor deletion (the reason shows). */
  disabled: boolean;
  describedBy: string | undefined;
  onAsk: (asked: Asked) => void;
}

/** The snapshots: a table from tablet width up, cards on phones. */
function SnapshotList({ snapshots, labelledBy, disabled, describedBy, onAsk }: SnapshotListProps) {
  const { t, dateTime } = useVpsFormat();
  const taken = (snapshot: Snapshot) =>
    snapshot.taken_at ? (
      <time dateTime={snapshot.taken_at}>{dateTime(snapshot.taken_at)}</time>
    ) : (
      <span className={vpsStyles.muted}>{t('snapshots.notYet')}</span>
    );
  const status = (snapshot: Snapshot) => (
    <StatusBadge tone={TONES[snapshot.status]} status={snapshot.status}>
      {t(`snapshots.statuses.${snapshot.status}`)}
    </StatusBadge>
  );
  const actions = (snapshot: Snapshot) => {
    const name = snapshotName(t, snapshot);
    return (
      <div className={styles.rowActions}>
        {(['rollback', 'delete'] as const).map((kind) => (
          <Button
            key={kind}
            variant="secondary"
            className={vpsStyles.smallButton}
            aria-label={t(kind === 'rollback' ? 'snapshots.rollbackTo' : 'snapshots.deleteNamed', {
              name,
            })}
            aria-describedby={describedBy}
            disabled={disabled || snapshot.status !== 'ready'}
            onClick={() => onAsk({ kind, snapshot })}
          >
            {t(`snapshots.${kind}`)}
          </Button>
        ))}
      </div>
    );
  };

  return (
    <ServerTable
      labelledBy={labelledBy}
      className={styles.table}
      rowHeader
      headers={[
        t('snapshots.columns.name'),
        t('snapshots.columns.taken'),
        t('snapshots.columns.status'),
        <span className="visually-hidden">{t('snapshots.columns.actions')}</span>,
      ]}
      rows={snapshots.map((snapshot) => {
        const name = <span className={styles.name}>{snapshotName(t, snapshot)}</span>;
        return {
          key: snapshot.id,
          mark: ['snapshot', snapshot.status],
          cells: [name, taken(snapshot), status(snapshot), actions(snapshot)],
          card: {
            title: name,
            subtitle: taken(snapshot),
            lead: { label: t('snapshots.columns.status'), value: status(snapshot) },
            facts: [],
            actions: actions(snapshot),
          },
        };
      })}
    />
  );
}

/** Roll back to a snapshot, or delete it, once confirmed. */
function SnapshotDialog({
  server,
  asked: { kind, snapshot },
  onClose,
}: {
  server: Server;
  asked: Asked;
  onClose: () => void;
}) {
  const { t, dateTime } = useVpsFormat();
  const [rollback] = useRollbackVpsSnapshotMutation();
  const [remove] = useDeleteVpsSnapshotMutation();
  const name = snapshotName(t, snapshot);
  const args = { id: server.id, snapshotId: snapshot.id };
  if (kind === 'rollback') {
    return (
      <ConfirmOperationDialog
        title={t('snapshots.confirmRollback.title', { id: server.id, name })}
        description={t('snapshots.confirmRollback.text', {
          date: dateTime(snapshot.taken_at ?? snapshot.created_at),
        })}
        confirmLabel={t('snapshots.confirmRollback.button')}
        danger
        run={() => rollback(args).unwrap()}
        onDone={() =>
          notify('success', t('snapshots.confirmRollback.started', { id: server.id, name }))
        }
        onClose={onClose}
      />
    );
  }
  return (
    <ConfirmOperationDialog
      title={t('snapshots.confirmDelete.title', { name })}
      description={t('snapshots.confirmDelete.text')}
      confirmLabel={t('snapshots.confirmDelete.button')}
      danger
      run={() => remove(args).unwrap()}
      onDone={() => notify('success', t('snapshots.confirmDelete.started', { name }))}
      onClose={onClose}
    />
  );
}
