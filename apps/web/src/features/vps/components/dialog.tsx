import * as RadixDialog from '@radix-ui/react-dialog';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppDispatch } from '../../../app/hooks';
import { modalDisplayed } from '../../../shared/model/ui-slice';
import styles from './dialog.module.css';

export interface DialogProps {
  onClose: () => void;
  title: ReactNode;
  /** Read out with the title when the dialog opens (aria-describedby). */
  description?: ReactNode;
  /** While a call runs the dialog stays: Escape, the backdrop and × do nothing. */
  busy?: boolean;
  children?: ReactNode;
}

/**
 * A modal dialog (Radix), shown while it is rendered: focus trapped inside and returned to the
 * control that opened it (when it is still there), Escape and the backdrop close it, the page behind is inert and does not
 * scroll (ui.displayModal, SPEC 2). The focus starts on the first control of the body.
 */
export function Dialog({ onClose, title, description, busy = false, children }: DialogProps) {
  const { t } = useTranslation('vps');
  const dispatch = useAppDispatch();
  // the control that opened the dialog (focused when it rendered): the focus goes back to it
  const [opener] = useState(() => document.activeElement);
  useEffect(() => {
    dispatch(modalDisplayed(true));
    return () => void dispatch(modalDisplayed(false));
  }, [dispatch]);

  const stayWhileBusy = (event: Event) => {
    if (busy) event.preventDefault();
  };

  return (
    <RadixDialog.Root open onOpenChange={(open) => (open || busy ? null : onClose())}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={styles.overlay} />
        <RadixDialog.Content
          className={styles.panel}
          // without a description, no dangling aria-describedby (Radix sets one by default)
          {...(description ? {} : { 'aria-describedby': undefined })}
          onEscapeKeyDown={stayWhileBusy}
          onInteractOutside={stayWhileBusy}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
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
          <RadixDialog.Close className={styles.close} aria-label={t('close')} disabled={busy}>
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
              <path
                d="M6 6l12 12M18 6L6 18"
                stroke="currentColor"
                strokeWidth="1.8"
                strokeLinecap="round"
              />
            </svg>
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
