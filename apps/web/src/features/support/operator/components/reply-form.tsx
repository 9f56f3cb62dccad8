import { zodResolver } from '@hookform/resolvers/zod';
import {
  characterCount,
  STAFF_TEXT_MAX,
  staffTextField,
  ticketOpenConflictSchema,
  type AdminTicketSummary,
} from '@tradehost/contracts';
import { useId, useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import * as z from 'zod/mini';
import { applyFieldErrors, errorBody } from '../../../../shared/lib/api-error';
import { AttachmentPicker } from '../../../../shared/ui/attachment-picker/attachment-picker';
import { Button, FormAlert, SelectField, TextAreaField } from '../../../../shared/ui/form';
import segments from '../../../../shared/ui/segments/segments.module.css';
import { notify } from '../../../../shared/ui/toast/notify';
import { useGetCannedRepliesQuery, usePostStaffMessageMutation } from '../api/support-operator-api';
import { codeOf, useOperatorError } from '../../../operator/lib/use-operator-error';
import styles from './support.module.css';
import { TicketConflictAlert } from './ticket-conflict';

type Mode = 'reply' | 'note';
interface ReplyValues {
  text: string;
}

const resolver = zodResolver(z.object({ text: staffTextField() })) as unknown as Resolver<
  ReplyValues,
  unknown,
  ReplyValues
>;
const TEXT_CODES = ['TICKET_TEXT_REQUIRED', 'TICKET_TEXT_TOO_LONG'];
const FILE_CODES = [
  'ATTACHMENT_TOO_LARGE',
  'ATTACHMENT_FORMAT',
  'ATTACHMENT_UNREADABLE',
  'ATTACHMENTS_TOO_MANY',
  'PAYLOAD_TOO_LARGE',
];

/**
 * The reply box of a ticket: a reply to the user (they are told by e-mail) or an internal note
 * (only the staff see it), switched at the top and in the note's yellow while a note; the
 * characters left, up to five files, and the canned replies, inserted in the ticket owner's
 * language.
 */
export function ReplyForm({ ticket }: { ticket: AdminTicketSummary }) {
  const { t } = useTranslation('operator');
  const errorText = useOperatorError();
  const modeName = useId();
  const [mode, setMode] = useState<Mode>('reply');
  const [files, setFiles] = useState<File[]>([]);
  const [filesError, setFilesError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [conflict, setConflict] = useState<number | null>(null);
  const [cannedId, setCannedId] = useState('');
  const filesId = useId();
  const focusFiles = () => document.getElementById(filesId)?.focus();
  const canned = useGetCannedRepliesQuery();
  const [post] = usePostStaffMessageMutation();
  const {
    register,
    handleSubmit,
    control,
    getValues,
    setValue,
    setError,
    setFocus,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ReplyValues>({ resolver, defaultValues: { text: '' } });
  const text = useWatch({ control, name: 'text' }) ?? '';
  const left = STAFF_TEXT_MAX - characterCount(text);
  const note = mode === 'note';
  const language = t(`support.languages.${ticket.user_language}`);
  const replies = canned.data?.data ?? [];

  const insertCanned = () => {
    const reply = replies.find((one) => String(one.id) === cannedId);
    if (!reply) return;
    const body = ticket.user_language === 'ru' ? reply.body_ru : reply.body_en;
    const current = getValues('text').replace(/\s+$/, '');
    setValue('text', current ? `${current}\n\n${body}` : body, {
      shouldDirty: true,
      shouldValidate: Boolean(errors.text),
    });
    setFocus('text');
  };

  const changeFiles = (next: File[]) => {
    setFiles(next);
    setFilesError(undefined);
  };

  const onValid = async ({ text: body }: ReplyValues) => {
    setFailure(null);
    setConflict(null);
    try {
      await post({ ticketId: ticket.id, text: body, internal: note, files }).unwrap();
      reset({ text: '' });
      setFiles([]);
      setFilesError(undefined);
      notify('success', note ? t('support.reply.noteAdded') : t('support.reply.sent'));
    } catch (error) {
      const code = codeOf(error);
      const conflict = errorBody(error, ticketOpenConflictSchema);
      if (conflict) {
        setConflict(conflict.ticket_id);
      } else if (code && TEXT_CODES.includes(code)) {
        setError('text', { type: 'server', message: code });
        setFocus('text');
      } else if (code && FILE_CODES.includes(code)) {
        setFilesError(code);
        focusFiles();
      } else if (applyFieldErrors(error, ['text'], setError)) {
        setFocus('text');
      } else {
        setFailure(errorText.request(error));
      }
    }
  };

  return (
    <form
      className={`${styles.replyForm} ${note ? styles.noteMode : ''}`.trim()}
      noValidate
      onSubmit={handleSubmit(onValid)}
    >
      <fieldset className={styles.modes}>
        <legend className="visually-hidden">{t('support.reply.mode')}</legend>
        <div className={segments.segments}>
          {(['reply', 'note'] as const).map((value) => (
            <label key={value} className={segments.segment}>
              <input
                type="radio"
                className={segments.radio}
                name={modeName}
                value={value}
                checked={mode === value}
                onChange={() => setMode(value)}
              />
              <span className={segments.text}>{t(`support.reply.modes.${value}`)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {note ? (
        <p className={styles.modeBand} role="note">
          {t('support.reply.noteWarning')}
        </p>
      ) : null}
      {replies.length > 0 ? (
        <div className={styles.canned}>
          <SelectField
            label={t('support.reply.canned')}
            hint={t('support.reply.cannedHint', { language })}
            options={[
              { value: '', label: t('support.reply.cannedNone') },
              ...replies.map((reply) => ({ value: String(reply.id), label: reply.title })),
            ]}
            value={cannedId}
            onChange={(event) => setCannedId(event.target.value)}
          />
          <Button variant="secondary" disabled={!cannedId} onClick={insertCanned}>
            {t('support.reply.insert')}
          </Button>
        </div>
      ) : canned.isSuccess ? (
        <p className={styles.counter}>
          {t('support.reply.noCanned')}{' '}
          <Link to="/operator/support/canned">{t('support.reply.addCanned')}</Link>
        </p>
      ) : null}
      <TextAreaField
        label={note ? t('support.reply.noteLabel') : t('support.reply.replyLabel')}
        hint={
          <span className={left < 0 ? styles.counterOver : undefined}>
            {left >= 0
              ? t('support.reply.left', { count: left })
              : t('support.reply.over', { count: -left })}
          </span>
        }
        rows={6}
        required
        error={errorText.field(errors.text?.message)}
        {...register('text')}
      />
      <AttachmentPicker
        id={filesId}
        files={files}
        onChange={changeFiles}
        error={errorText.field(filesError)}
      />
      {failure ? <FormAlert tone="error">{failure}</FormAlert> : null}
      {conflict ? <TicketConflictAlert ticketId={conflict} /> : null}
      <div className={styles.formFooter}>
        <Button
          type="submit"
          loading={isSubmitting}
          loadingText={note ? t('support.reply.adding') : t('support.reply.sending')}
        >
          {note ? t('support.reply.addNote') : t('support.reply.send')}
        </Button>
      </div>
    </form>
  );
}
