import type {
  PaidResponse,
  Rate,
  Server,
  ServerAction,
  UpgradeResponse,
} from '@tradehost/contracts';
import { useId, useState } from 'react';
import { errorText } from '../../../shared/lib/api-error';
import { Button } from '../../../shared/ui/form';
import { useGetVpsRatesQuery, useRunVpsActionMutation } from '../api/vps-api';
import { useVpsFormat, type VpsFormat } from '../lib/use-vps-format';
import { isBusy, largerRates, upgradeDates } from '../lib/vps';
import { ConfirmOperationDialog } from './confirm-operation';
import { RenewDialog } from './renew-dialog';
import { pendingUpgradeId } from './server-cells';
import { UpgradeDialog } from './upgrade-dialog';
import styles from './vps.module.css';

export type UpgradeBlock = 'pending' | 'trial' | 'busy' | 'noTime' | 'noLarger';

/** Why a server cannot be upgraded now, or null when it can. */
export function upgradeBlock(
  server: Server,
  rates: readonly Rate[] | undefined,
  now: Date,
): UpgradeBlock | null {
  if (server.upgrade) return 'pending';
  if (server.is_trial) return 'trial';
  if (isBusy(server)) return 'busy';
  if (!upgradeDates(now, new Date(server.paid_until))) return 'noTime';
  if (rates && largerRates(rates, server.rate).length === 0) return 'noLarger';
  return null;
}

/** Why a server cannot be upgraded now (upgradeBlock), in words; null when it can. */
export function upgradeReasonText(
  { t, day }: Pick<VpsFormat, 't' | 'day'>,
  server: Server,
  blocked: UpgradeBlock | null,
): string | null {
  if (blocked === 'pending' && server.upgrade) {
    return t('upgrade.reasons.pending', {
      rate: server.upgrade.to_rate,
      date: day(server.upgrade.scheduled_for),
    });
  }
  return blocked ? t(`upgrade.reasons.${blocked}`) : null;
}

/** Whether a server has anything to do: renewal (active or blocked) and the controls (active). */
export function hasActions(server: Server): boolean {
  return server.status === 'active' || server.status === 'blocked';
}

type DialogKind = 'renew' | 'upgrade' | 'shutdown' | 'reboot';

export interface ServerActionsProps {
  server: Server;
  now: Date;
  onRenewed: (result: PaidResponse) => void;
  onUpgraded: (result: UpgradeResponse) => void;
}

/**
 * A row's actions: Renew (active or blocked), Upgrade (active; unavailable with its reason),
 * and Start, Shut down, Reboot (active; one operation at a time; shut down and reboot ask
 * first). A refusal shows under the buttons (or in the dialog that asked).
 */
export function ServerActions({ server, now, onRenewed, onUpgraded }: ServerActionsProps) {
  const { t, day } = useVpsFormat();
  const messageId = useId();
  const [dialog, setDialog] = useState<DialogKind | null>(null);
  const [message, setMessage] = useState<{ text: string; tone: 'error' | 'info' } | null>(null);
  const [run, { isLoading: starting }] = useRunVpsActionMutation();
  const { data: catalogue } = useGetVpsRatesQuery();

  const active = server.status === 'active';
  const renewable = hasActions(server);
  const busy = isBusy(server);
  const blocked = active ? upgradeBlock(server, catalogue?.rates, now) : null;
  const upgradeReason = upgradeReasonText({ t, day }, server, blocked);

  if (!renewable) return <span className={styles.muted}>—</span>;

  const start = async () => {
    setMessage(null);
    try {
      await run({ id: server.id, action: 'start' }).unwrap();
    } catch (error) {
      setMessage({ text: errorText(t, error), tone: 'error' });
    }
  };

  const close = () => setDialog(null);
  const name = (key: string) => t(key, { id: server.id });

  return (
    <div className={styles.actionsCell}>
      <div className={styles.actionButtons}>
        <Button
          variant="secondary"
          className={styles.smallButton}
          aria-label={name('actions.renewServer')}
          onClick={() => setDialog('renew')}
        >
          {t('actions.renew')}
        </Button>
        {active ? (
          <>
            <Button
              variant="secondary"
              className={styles.smallButton}
              aria-label={name('actions.upgradeServer')}
              aria-disabled={upgradeReason ? true : undefined}
              aria-describedby={
                blocked === 'pending'
                  ? pendingUpgradeId(server)
                  : message?.tone === 'info'
                    ? messageId
                    : undefined
              }
              title={upgradeReason ?? undefined}
              onClick={() => {
                if (upgradeReason) setMessage({ text: upgradeReason, tone: 'info' });
                else setDialog('upgrade');
              }}
            >
              {t('actions.upgrade')}
            </Button>
            {server.power !== 'running' ? (
              <Button
                variant="secondary"
                className={styles.smallButton}
                aria-label={name('actions.startServer')}
                disabled={busy}
                loading={starting}
                onClick={() => void start()}
              >
                {t('actions.start')}
              </Button>
            ) : null}
            {server.power !== 'stopped' ? (
              <>
                <Button
                  variant="secondary"
                  className={styles.smallButton}
                  aria-label={name('actions.shutdownServer')}
                  disabled={busy}
                  onClick={() => setDialog('shutdown')}
                >
                  {t('actions.shutdown')}
                </Button>
                <Button
                  variant="secondary"
                  className={styles.smallButton}
                  aria-label={name('actions.rebootServer')}
                  disabled={busy}
                  onClick={() => setDialog('reboot')}
                >
                  {t('actions.reboot')}
                </Button>
              </>
            ) : null}
          </>
        ) : null}
      </div>
      {message ? (
        <p
          id={messageId}
          className={message.tone === 'error' ? styles.failure : styles.note}
          role={message.tone === 'error' ? 'alert' : 'status'}
        >
          {message.text}
        </p>
      ) : null}
      {dialog === 'renew' ? (
        <RenewDialog
          server={server}
          now={now}
          onClose={close}
          onDone={(result) => {
            close();
            onRenewed(result);
          }}
        />
      ) : dialog === 'upgrade' ? (
        <UpgradeDialog
          server={server}
          now={now}
          onClose={close}
          onDone={(result) => {
            close();
            onUpgraded(result);
          }}
        />
      ) : dialog === 'shutdown' || dialog === 'reboot' ? (
        <ConfirmActionDialog server={server} action={dialog} onClose={close} />
      ) : null}
    </div>
  );
}

/** "Shut down server #12?" / "Reboot server #12?": the action runs once confirmed (202). */
function ConfirmActionDialog({
  server,
  action,
  onClose,
}: {
  server: Server;
  action: Extract<ServerAction, 'shutdown' | 'reboot'>;
  onClose: () => void;
}) {
  const { t } = useVpsFormat();
  const [run] = useRunVpsActionMutation();
  return (
    <ConfirmOperationDialog
      title={t(`actions.confirm.${action}.title`, { id: server.id })}
      description={t(`actions.confirm.${action}.text`)}
      confirmLabel={t(`actions.confirm.${action}.button`)}
      run={() => run({ id: server.id, action }).unwrap()}
      onClose={onClose}
    />
  );
}
