import type { Server } from '@tradehost/contracts';
import { useId, useState } from 'react';
import { Button } from '../../../shared/ui/form';
import panel from '../../../shared/ui/panel/panel.module.css';
import { notify } from '../../../shared/ui/toast/notify';
import {
  useGetVpsSnapshotsQuery,
  useReinstallVpsServerMutation,
  useResetVpsPasswordMutation,
} from '../api/vps-api';
import { useVpsFormat } from '../lib/use-vps-format';
import { ConfirmOperationDialog, operationBlockText } from './confirm-operation';
import styles from './server-sections.module.css';
import vpsStyles from './vps.module.css';

/**
 * A server's page's "Repair": Reinstall (Windows from the template again) and New password (a
 * generated Windows password), each an operation behind a confirmation that says what happens.
 * Neither while an operation runs or on a blocked server; a new password not on a shut-down
 * server (Windows sets it): the reason shows under the button.
 */
export function ServerRepair({ server }: { server: Server }) {
  const { t } = useVpsFormat();
  const headingId = useId();
  const [asked, setAsked] = useState<'reinstall' | 'password' | null>(null);
  const blocked = operationBlockText(t, server);
  const passwordReason =
    blocked ?? (server.power === 'stopped' ? t('repair.password.stopped') : null);
  const close = () => setAsked(null);

  return (
    <section className={vpsStyles.section} aria-labelledby={headingId}>
      <h2 id={headingId} className={vpsStyles.sectionTitle}>
        {t('repair.title')}
      </h2>
      <p className={styles.lead}>{t('repair.lead')}</p>
      <div className={styles.repairCards}>
        <RepairCard
          title={t('repair.reinstall.title')}
          text={t('repair.reinstall.text')}
          button={t('repair.reinstall.button')}
          reason={blocked}
          onAsk={() => setAsked('reinstall')}
        />
        <RepairCard
          title={t('repair.password.title')}
          text={t('repair.password.text')}
          button={t('repair.password.button')}
          reason={passwordReason}
          onAsk={() => setAsked('password')}
        />
      </div>
      {asked === 'reinstall' ? <ReinstallDialog server={server} onClose={close} /> : null}
      {asked === 'password' ? <PasswordDialog server={server} onClose={close} /> : null}
    </section>
  );
}

/** One repair: what it is, its button, and why it cannot be asked for now, when it cannot. */
function RepairCard({
  title,
  text,
  button,
  reason,
  onAsk,
}: {
  title: string;
  text: string;
  button: string;
  reason: string | null;
  onAsk: () => void;
}) {
  const titleId = useId();
  const reasonId = useId();
  return (
    <div className={`${panel.panel} ${styles.repairCard}`} role="group" aria-labelledby={titleId}>
      <h3 id={titleId} className={vpsStyles.cardTitle}>
        {title}
      </h3>
      <p className={styles.cardText}>{text}</p>
      <div className={styles.cardFoot}>
        <Button
          variant="secondary"
          disabled={reason !== null}
          aria-describedby={reason ? reasonId : undefined}
          onClick={onAsk}
        >
          {button}
        </Button>
        {reason ? (
          <p id={reasonId} className={styles.reason}>
            {reason}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/**
 * "Reinstall server #12?": what is lost and what stays, whether a snapshot is taken first (there
 * is room for one, as the snapshots list says), how long it takes and where the new password is.
 */
function ReinstallDialog({ server, onClose }: { server: Server; onClose: () => void }) {
  const { t } = useVpsFormat();
  const [reinstall] = useReinstallVpsServerMutation();
  const { data: snapshots } = useGetVpsSnapshotsQuery(server.id);
  const used = snapshots ? { count: snapshots.data.length, limit: snapshots.limit } : null;
  const snapshotLine = !used
    ? t('repair.reinstall.snapshotIfRoom')
    : used.count < used.limit
      ? t('repair.reinstall.snapshotFirst', used)
      : t('repair.reinstall.noRoom', used);
  return (
    <ConfirmOperationDialog
      title={t('repair.reinstall.confirmTitle', { id: server.id })}
      description={t('repair.reinstall.confirmText')}
      confirmLabel={t('repair.reinstall.confirm')}
      danger
      run={() => reinstall(server.id).unwrap()}
      onDone={() => notify('success', t('repair.reinstall.started', { id: server.id }))}
      onClose={onClose}
    >
      <ul className={styles.consequences}>
        <li>{t('repair.reinstall.keeps')}</li>
        <li>{snapshotLine}</li>
        <li>{t('repair.reinstall.takes')}</li>
      </ul>
    </ConfirmOperationDialog>
  );
}

/** "Set a new password on server #12?": the old one stops working; Login details show the new. */
function PasswordDialog({ server, onClose }: { server: Server; onClose: () => void }) {
  const { t } = useVpsFormat();
  const [reset] = useResetVpsPasswordMutation();
  return (
    <ConfirmOperationDialog
      title={t('repair.password.confirmTitle', { id: server.id })}
      description={t('repair.password.confirmText')}
      confirmLabel={t('repair.password.confirm')}
      run={() => reset(server.id).unwrap()}
      onDone={() => notify('success', t('repair.password.started', { id: server.id }))}
      onClose={onClose}
    />
  );
}
