import * as RadixDialog from '@radix-ui/react-dialog';
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { useDispatch } from 'react-redux';
import { modalDisplayed } from '../../model/ui-slice';
import { Button } from '../form/button';
import { ICON_PATHS, StrokeIcon } from '../icon/stroke-icon';
import styles from './dialog.module.css';

export interface DialogProps {
  /** Shown or not; a dialog rendered only while it is shown passes `open` (true). */
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** Read out with the title when the dialog opens (aria-describedby). */
  description?: ReactNode;
  /** The accessible name of the × button. */
  closeLabel: string;
  /** While a call runs the dialog stays: Escape, the backdrop and × do nothing. */
  busy?: boolean;
  /**
   * Where the focus goes when the dialog closes (the button that opened it, or, when that is
   * gone, a heading near it). Unset: the control that had the focus when the dialog opened,
   * when it is still there.
   */
  returnFocusTo?: RefObject<HTMLElement | null>;
  children?: ReactNode;
}

/**
 * A modal dialog (Radix): focus trapped inside and returned on close, Escape and the backdrop
 * close it, the page behind is inert and does not scroll (ui.displayModal, SPEC 2). The focus
 * starts on the first control of the body (a field, or Cancel before the main action).
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  closeLabel,
  busy = false,
  returnFocusTo,
  children,
}: DialogProps) {
  const dispatch = useDispatch();
  // the control focused when the dialog opened (before the focus moves in): where it goes back
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    if (!open) return;
    dispatch(modalDisplayed(true));
    return () => void dispatch(modalDisplayed(false));
  }, [open, dispatch]);

  const stayWhileBusy = (event: Event) => {
    if (busy) event.preventDefault();
  };

  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => (busy ? null : onOpenChange(next))}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={styles.overlay} />
        <RadixDialog.Content
          className={styles.panel}
          // without a description, no dangling aria-describedby (Radix sets one by default)
          {...(description ? {} : { 'aria-describedby': undefined })}
          onEscapeKeyDown={stayWhileBusy}
          onInteractOutside={stayWhileBusy}
          onOpenAutoFocus={() => {
            opener.current = document.activeElement;
          }}
          onCloseAutoFocus={(event) => {
            const target = returnFocusTo ? returnFocusTo.current : opener.current;
            if (!(target instanceof HTMLElement) || !target.isConnected) return;
            event.preventDefault();
            target.focus();
          }}
        >
          <RadixDialog.Title className={styles.title}>{title}</RadixDialog.Title>
          {description ? (
            <RadixDialog.Description className={styles.description}>
              {description}
            </RadixDialog.Description>
          ) : null}
          <div className={styles.body}>{children}</div>
          {/* last in the DOM: the focus starts on the dialog's own controls, not on × */}
          <RadixDialog.Close className={styles.close} aria-label={closeLabel} disabled={busy}>
            <StrokeIcon size={20} strokeWidth={1.8} d={ICON_PATHS.close} />
          </RadixDialog.Close>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** The dialog's buttons: the cancel first in the DOM, the main action last (right, or on top on phones). */
export function DialogActions({ children }: { children: ReactNode }) {
  return <div className={styles.actions}>{children}</div>;
}

export interface DialogConfirmActionsProps {
  /** Cancel's words: it closes the dialog (`onCancel`). */
  cancelLabel: string;
  onCancel: () => void;
  /** The main button's words: what it does ("Pay $12.00", "Reinstall"). */
  confirmLabel: ReactNode;
  onConfirm: () => void;
  /** The call runs: the main button says `busyLabel` with its spinner, and Cancel is off. */
  busy: boolean;
  busyLabel: ReactNode;
  /** Something that cannot be undone: the main button in the danger colour. */
  danger?: boolean;
  /** The main action cannot be asked for yet (a price still unknown). */
  disabled?: boolean;
}

/** A confirmation's buttons: Cancel, then the main action, which shows while its call runs. */
export function DialogConfirmActions({
  cancelLabel,
  onCancel,
  confirmLabel,
  onConfirm,
  busy,
  busyLabel,
  danger = false,
  disabled,
}: DialogConfirmActionsProps) {
  return (
    <DialogActions>
      <Button variant="secondary" disabled={busy} onClick={onCancel}>
        {cancelLabel}
      </Button>
      <Button
        variant={danger ? 'danger' : 'primary'}
        loading={busy}
        loadingText={busyLabel}
        disabled={disabled}
        onClick={onConfirm}
      >
        {confirmLabel}
      </Button>
    </DialogActions>
  );
}
