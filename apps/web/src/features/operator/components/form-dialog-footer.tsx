import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogActions } from '../../../shared/ui/dialog/dialog';
import { Button, FormAlert } from '../../../shared/ui/form';
import styles from './controls.module.css';

/**
 * The end of an operator's form dialog, across its whole width: the refusal that is not a
 * field's, then Cancel and the submit button (busy while the form is sent).
 */
export function FormDialogFooter({
  failure,
  submitting,
  onCancel,
  submitLabel,
  submittingLabel,
}: {
  failure: ReactNode;
  submitting: boolean;
  onCancel: () => void;
  submitLabel: string;
  submittingLabel: string;
}) {
  const { t } = useTranslation('operator');
  return (
    <>
      {failure ? (
        <div className={styles.wide}>
          <FormAlert tone="error">{failure}</FormAlert>
        </div>
      ) : null}
      <div className={styles.wide}>
        <DialogActions>
          <Button variant="secondary" disabled={submitting} onClick={onCancel}>
            {t('dialog.cancel')}
          </Button>
          <Button type="submit" loading={submitting} loadingText={submittingLabel}>
            {submitLabel}
          </Button>
        </DialogActions>
      </div>
    </>
  );
}
