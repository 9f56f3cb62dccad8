import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogActions } from '../../../shared/ui/dialog/dialog';
import { Button, FormAlert, type ButtonVariant } from '../../../shared/ui/form';
import styles from './profile.module.css';

/** What a factor's dialog says above its fields; a new serial each time, so it is announced again. */
export type Notice = { tone: 'info' | 'error'; text: string; serial: number };

/** A dialog's notice, shown and cleared. */
export function useNotice() {
  const [notice, setNotice] = useState<Notice | null>(null);
  const show = (tone: Notice['tone'], text: string) =>
    setNotice((previous) => ({ tone, text, serial: (previous?.serial ?? 0) + 1 }));
  return { notice, show, clear: () => setNotice(null) };
}

export interface FactorFormDialogProps {
  title: string;
  description?: string;
  /** While the call (or the browser's passkey prompt) runs: the dialog stays, the buttons wait. */
  busy: boolean;
  notice: Notice | null;
  submitLabel: string;
  busyLabel: string;
  submitVariant?: ButtonVariant;
  onClose(): void;
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  /** The fields. */
  children?: ReactNode;
}

/** A second factor's dialog with a form: its notice, its fields, Cancel and the action. */
export function FactorFormDialog({
  title,
  description,
  busy,
  notice,
  submitLabel,
  busyLabel,
  submitVariant = 'primary',
  onClose,
  onSubmit,
  children,
}: FactorFormDialogProps) {
  const { t } = useTranslation('profile');
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={title}
      description={description}
      closeLabel={t('close')}
      busy={busy}
    >
      <form className={styles.form} noValidate onSubmit={onSubmit}>
        {notice ? (
          <FormAlert key={notice.serial} tone={notice.tone}>
            {notice.text}
          </FormAlert>
        ) : null}
        {children}
        <DialogActions>
          <Button variant="secondary" disabled={busy} onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button type="submit" variant={submitVariant} loading={busy} loadingText={busyLabel}>
            {submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
