import { zodResolver } from '@hookform/resolvers/zod';
import {
  createTicketFieldsSchema,
  ticketOpenConflictSchema,
  type Department,
} from '@tradehost/contracts';
import { useId, useState, type RefObject } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import type * as z from 'zod/mini';
import { errorBody, fieldErrorText } from '../../../shared/lib/api-error';
import { useFormFailure } from '../../../shared/lib/use-form-failure';
import { Dialog, DialogActions } from '../../../shared/ui/dialog/dialog';
import { Button, FormAlert, TextField } from '../../../shared/ui/form';
import { FieldMessages } from '../../../shared/ui/form/field-messages';
import fieldStyles from '../../../shared/ui/form/field.module.css';
import { ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { notify } from '../../../shared/ui/toast/notify';
import { useCreateTicketMutation, useGetSupportDepartmentsQuery } from '../api/support-api';
import { useSupportFormat } from '../lib/use-support-format';
import { AttachmentPicker } from '../../../shared/ui/attachment-picker/attachment-picker';
import { MessageField } from './message-field';
import styles from './support.module.css';

/** The department comes from a select as a string; the contract's schema takes it as a number. */
type FormValues = z.input<typeof createTicketFieldsSchema>;
type Fields = z.output<typeof createTicketFieldsSchema>;
const FIELDS = ['department_id', 'title', 'text'] as const;

export interface NewTicketDialogProps {
  /** The department chosen beforehand (its code, from ?new=<code>). */
  departmentCode?: string;
  onClose: () => void;
  /** Where the focus goes when the form closes. */
  returnFocusTo?: RefObject<HTMLElement | null>;
}

/** "New ticket": a department, a subject, the text with the characters left, and files. */
export function NewTicketDialog({ departmentCode, onClose, returnFocusTo }: NewTicketDialogProps) {
  const { t } = useSupportFormat();
  const departments = useGetSupportDepartmentsQuery();
  const [busy, setBusy] = useState(false);

  let body;
  if (departments.isError && !departments.isFetching) {
    body = (
      <ErrorState
        title={t('form.departmentsFailed')}
        retryLabel={t('retry')}
        onRetry={() => void departments.refetch()}
      />
    );
  } else if (!departments.data) {
    body = <LoadingState>{t('form.loading')}</LoadingState>;
  } else {
    body = (
      <NewTicketForm
        departments={departments.data}
        departmentCode={departmentCode}
        onCancel={onClose}
        onBusy={setBusy}
      />
    );
  }
  return (
    <Dialog
      open
      onOpenChange={onClose}
      title={t('form.title')}
      description={t('form.lead')}
      closeLabel={t('close')}
      busy={busy}
      returnFocusTo={returnFocusTo}
    >
      {body}
    </Dialog>
  );
}

function NewTicketForm({
  departments,
  departmentCode,
  onCancel,
  onBusy,
}: {
  departments: Department[];
  departmentCode?: string;
  onCancel: () => void;
  onBusy: (busy: boolean) => void;
}) {
  const f = useSupportFormat();
  const { t } = f;
  const navigate = useNavigate();
  const selectId = useId();
  const chosen = departments.find((d) => departmentCode && d.code === departmentCode);
  const {
    register,
    handleSubmit,
    control,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<FormValues, unknown, Fields>({
    resolver: zodResolver(createTicketFieldsSchema),
    defaultValues: { department_id: chosen ? String(chosen.id) : '', title: '', text: '' },
  });
  const [files, setFiles] = useState<File[]>([]);
  const [conflict, setConflict] = useState<number | null>(null);
  const { failure, alertRef, fail, clear } = useFormFailure();
  const [create] = useCreateTicketMutation();
  const text = useWatch({ control, name: 'text' });

  const onSubmit = async (values: Fields) => {
    clear();
    setConflict(null);
    onBusy(true);
    try {
      const { ticket } = await create({
        departmentId: values.department_id,
        title: values.title,
        text: values.text,
        files,
      }).unwrap();
      onBusy(false);
      notify('success', t('form.created', { id: ticket.id }));
      // the form's address (?new) gives way to the ticket: Back leads to the list
      void navigate(`/support/${ticket.id}`, { replace: true });
    } catch (error) {
      onBusy(false);
      const conflict = errorBody(error, ticketOpenConflictSchema);
      if (conflict) setConflict(conflict.ticket_id);
      fail(error, { fields: FIELDS, setError, setFocus });
    }
  };

  const departmentError = fieldErrorText(t, errors.department_id?.message);
  return (
    <form className={styles.form} noValidate onSubmit={handleSubmit(onSubmit)}>
      {failure ? (
        <FormAlert ref={alertRef} key={failure.serial} tone="error">
          <p>
            {failure.text}
            {conflict !== null ? (
              <>
                {' '}
                <Link to={`/support/${conflict}`}>{t('form.openExisting', { id: conflict })}</Link>
              </>
            ) : null}
          </p>
        </FormAlert>
      ) : null}
      <div className={fieldStyles.field}>
        <label htmlFor={selectId} className={fieldStyles.label}>
          {t('form.department')}
        </label>
        <select
          id={selectId}
          className={`${fieldStyles.input} ${styles.select}`}
          aria-invalid={departmentError ? true : undefined}
          aria-describedby={departmentError ? `${selectId}-error` : undefined}
          {...register('department_id')}
        >
          <option value="" disabled>
            {t('form.departmentPlaceholder')}
          </option>
          {departments.map((department) => (
            <option key={department.id} value={String(department.id)}>
              {f.department(department)}
            </option>
          ))}
        </select>
        <FieldMessages
          error={departmentError}
          errorId={`${selectId}-error`}
          hintId={`${selectId}-hint`}
        />
      </div>
      <TextField
        label={t('form.subject')}
        autoComplete="off"
        error={fieldErrorText(t, errors.title?.message)}
        {...register('title')}
      />
      <MessageField
        label={t('form.text')}
        text={text}
        error={fieldErrorText(t, errors.text?.message)}
        {...register('text')}
      />
      <AttachmentPicker files={files} onChange={setFiles} disabled={isSubmitting} />
      <DialogActions>
        <Button variant="secondary" disabled={isSubmitting} onClick={onCancel}>
          {t('cancel')}
        </Button>
        <Button type="submit" loading={isSubmitting} loadingText={t('form.sending')}>
          {t('form.submit')}
        </Button>
      </DialogActions>
    </form>
  );
}
