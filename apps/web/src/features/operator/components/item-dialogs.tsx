/** The dialogs of a list's items (lib/use-item-dialog.ts holds their state): its form, its deletion. */
import type { FormEventHandler, ReactNode, RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../shared/ui/dialog/dialog';
import { notify } from '../../../shared/ui/toast/notify';
import type { ItemDialogProps } from '../lib/use-item-dialog';
import { ConfirmDecisionDialog } from './decision-dialogs';
import { FormDialogFooter } from './form-dialog-footer';
import styles from './controls.module.css';

export interface ItemFormDialogProps extends ItemDialogProps {
  title: ReactNode;
  description?: ReactNode;
  /** The form's submit (react-hook-form's handleSubmit). */
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** While it is sent: the dialog stays, the submit button is busy. */
  submitting: boolean;
  /** The refusal that is not a field's. */
  failure: ReactNode;
  submitLabel: string;
  submittingLabel: string;
  /** The fields. */
  children: ReactNode;
}

/** An operator's add/edit dialog: its form in two columns, then the refusal, Cancel and the submit. */
export function ItemFormDialog({
  onSubmit,
  submitting,
  failure,
  submitLabel,
  submittingLabel,
  children,
  ...dialog
}: ItemFormDialogProps) {
  const { t } = useTranslation('operator');
  return (
    <Dialog {...dialog} closeLabel={t('dialog.close')} busy={submitting}>
      <form className={styles.dialogForm} noValidate onSubmit={onSubmit}>
        {children}
        <FormDialogFooter
          failure={failure}
          submitting={submitting}
          onCancel={() => dialog.onOpenChange(false)}
          submitLabel={submitLabel}
          submittingLabel={submittingLabel}
        />
      </form>
    </Dialog>
  );
}

export interface DeleteItemDialogProps extends ItemDialogProps {
  /** Closes the dialog, the focus going to `focus`. */
  close: (focus: HTMLElement | null) => void;
  title: string;
  /** "Delete …?" */
  question: string;
  submitLabel: string;
  /** Deletes it (the mutation's call, unwrapped: it throws the refusal). */
  remove: () => Promise<unknown>;
  /** The toast once it is deleted. */
  deletedText: string;
  /** Where the focus goes once the item's row is gone: the list's heading. */
  headingRef: RefObject<HTMLElement | null>;
}

/** "Delete …?" of a list's item: Cancel (where the focus starts) and Delete; a refusal shows in it. */
export function DeleteItemDialog({
  close,
  question,
  remove,
  deletedText,
  headingRef,
  ...dialog
}: DeleteItemDialogProps) {
  const { t } = useTranslation('operator');
  return (
    <ConfirmDecisionDialog
      {...dialog}
      description={question}
      submittingLabel={t('support.deleting')}
      danger
      run={async () => {
        try {
          await remove();
        } catch (error) {
          return { error };
        }
        notify('success', deletedText);
        // its row goes: the focus goes to the list's heading
        close(headingRef.current);
        return null;
      }}
    />
  );
}
