import { zodResolver } from '@hookform/resolvers/zod';
import {
  ticketMessageFieldsSchema,
  ticketOpenConflictSchema,
  type TicketSummary,
} from '@tradehost/contracts';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { errorBody, fieldErrorText } from '../../../shared/lib/api-error';
import { useFormFailure } from '../../../shared/lib/use-form-failure';
import { Button, FormAlert } from '../../../shared/ui/form';
import { notify } from '../../../shared/ui/toast/notify';
import { useSendTicketMessageMutation } from '../api/support-api';
import { useSupportFormat } from '../lib/use-support-format';
import { AttachmentPicker } from '../../../shared/ui/attachment-picker/attachment-picker';
import { MessageField } from './message-field';
import styles from './support.module.css';

type FormValues = { text: string };
const FIELDS = ['text'] as const;

/**
 * The reply: the text with the characters left and files. On a closed ticket it says that
 * writing resumes it; the API refuses that while another ticket of the department is open, and
 * the refusal links to it.
 */
export function ReplyBox({ ticket, titleId }: { ticket: TicketSummary; titleId: string }) {
  const { t } = useSupportFormat();
  const closed = ticket.status === 'closed';
  const {
    register,
    handleSubmit,
    control,
    reset,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<FormValues>({
    resolver: zodResolver(ticketMessageFieldsSchema),
    defaultValues: { text: '' },
  });
  const text = useWatch({ control, name: 'text' });
  const [files, setFiles] = useState<File[]>([]);
  const [conflict, setConflict] = useState<number | null>(null);
  const { failure, alertRef, fail, clear } = useFormFailure();
  const [send] = useSendTicketMessageMutation();

  const onSubmit = async (values: FormValues) => {
    clear();
    setConflict(null);
    try {
      const result = await send({ ticketId: ticket.id, text: values.text, files }).unwrap();
      reset({ text: '' });
      setFiles([]);
      notify(
        'success',
        closed && result.ticket.status !== 'closed' ? t('reply.resumed') : t('reply.sent'),
      );
    } catch (error) {
      const conflict = errorBody(error, ticketOpenConflictSchema);
      if (conflict) setConflict(conflict.ticket_id);
      fail(error, { fields: FIELDS, setError, setFocus });
    }
  };

  return (
    <section className={styles.reply} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.sectionTitle}>
        {closed ? t('reply.resumeTitle') : t('reply.title')}
      </h2>
      {closed ? (
        <FormAlert tone="info" className={styles.closedNotice}>
          <p>{t('reply.closedNotice')}</p>
        </FormAlert>
      ) : null}
      <form className={styles.form} noValidate onSubmit={handleSubmit(onSubmit)}>
        {failure ? (
          <FormAlert ref={alertRef} key={failure.serial} tone="error">
            <p>
              {failure.text}
              {conflict !== null ? (
                <>
                  {' '}
                  <Link to={`/support/${conflict}`}>
                    {t('form.openExisting', { id: conflict })}
                  </Link>
                </>
              ) : null}
            </p>
          </FormAlert>
        ) : null}
        <MessageField
          label={t('reply.text')}
          text={text}
          rows={4}
          error={fieldErrorText(t, errors.text?.message)}
          {...register('text')}
        />
        <AttachmentPicker files={files} onChange={setFiles} disabled={isSubmitting} />
        <div className={styles.replyActions}>
          <Button type="submit" loading={isSubmitting} loadingText={t('form.sending')}>
            {closed ? t('reply.sendResume') : t('reply.send')}
          </Button>
        </div>
      </form>
    </section>
  );
}
