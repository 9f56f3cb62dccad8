import type { Server } from '@tradehost/contracts';
import { useState, type ReactNode } from 'react';
import { useFailure } from '../../../shared/lib/use-failure';
import { Dialog, DialogConfirmActions } from '../../../shared/ui/dialog/dialog';
import { useVpsFormat, type VpsFormat } from '../lib/use-vps-format';
import { FailureAlert } from './failure-alert';

/**
 * Why the owner's own operations on a server (a reboot aside: snapshots, a rollback, a reinstall,
 * a new password) cannot be asked for now, in words, or null when they can: the API takes them
 * from an active server with no operation under way only (one at a time).
 */
export function operationBlockText(t: VpsFormat['t'], server: Server): string | null {
  if (server.status !== 'active') return t('machine.blocked');
  if (server.operation) {
    return t('machine.busy', { operation: t(`operationNames.${server.operation.kind}`) });
  }
  return null;
}

export interface ConfirmOperationProps {
  title: string;
  /** What happens, read out with the title. */
  description: string;
  /** The main button's words (what it does: "Roll back", "Reinstall Windows"). */
  confirmLabel: string;
  /** Something that cannot be undone: the main button in the danger colour. */
  danger?: boolean;
  /** Asks for the operation (a mutation's unwrap): the dialog closes once it is accepted (202). */
  run: () => Promise<unknown>;
  /** After it is accepted, before the dialog closes (a toast). */
  onDone?: () => void;
  onClose: () => void;
  /** More about what happens, under the description. */
  children?: ReactNode;
}

/**
 * "Reboot server #12?", "Roll back server #12 to …?": an operation that runs once confirmed. A
 * refusal shows in the dialog, which stays open; while the call runs it cannot be closed.
 */
export function ConfirmOperationDialog({
  title,
  description,
  confirmLabel,
  danger = false,
  run,
  onDone,
  onClose,
  children,
}: ConfirmOperationProps) {
  const { t } = useVpsFormat();
  const [sending, setSending] = useState(false);
  const { failure, alertRef, fail, clear } = useFailure();

  const confirm = async () => {
    clear();
    setSending(true);
    try {
      await run();
      setSending(false);
      onDone?.();
      onClose();
    } catch (error) {
      setSending(false);
      fail(error);
    }
  };

  return (
    <Dialog
      open
      onOpenChange={onClose}
      closeLabel={t('close')}
      title={title}
      description={description}
      busy={sending}
    >
      {children}
      <FailureAlert failure={failure} alertRef={alertRef} />
      <DialogConfirmActions
        cancelLabel={t('cancel')}
        onCancel={onClose}
        confirmLabel={confirmLabel}
        onConfirm={() => void confirm()}
        busy={sending}
        busyLabel={t('actions.sending')}
        danger={danger}
      />
    </Dialog>
  );
}
