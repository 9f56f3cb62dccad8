import { zodResolver } from '@hookform/resolvers/zod';
import {
  cannedReplyRequestSchema,
  characterCount,
  STAFF_TEXT_MAX,
  TICKET_TITLE_MAX,
  type CannedReply,
  type CannedReplyRequest,
} from '@tradehost/contracts';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TextAreaField, TextField } from '../../../../shared/ui/form';
import {
  useCreateCannedReplyMutation,
  useUpdateCannedReplyMutation,
} from '../api/support-operator-api';
import type { ItemDialogProps } from '../../../operator/lib/use-item-dialog';
import { useOperatorError } from '../../../operator/lib/use-operator-error';
import { useSaveItem } from '../../../operator/lib/use-save-item';
import { ItemFormDialog } from '../../../operator/components/item-dialogs';
import styles from '../../../operator/components/controls.module.css';

const FIELDS = ['title', 'body_en', 'body_ru'] as const;
type Field = (typeof FIELDS)[number];

const resolver = zodResolver(cannedReplyRequestSchema) as unknown as Resolver<
  CannedReplyRequest,
  unknown,
  CannedReplyRequest
>;

/** The ticket's codes, in the words of a canned reply's fields. */
const FIELD_TEXTS: Record<string, string> = {
  TICKET_TITLE_REQUIRED: 'support.canned.form.titleRequired',
  TICKET_TITLE_TOO_LONG: 'support.canned.form.titleTooLong',
  TICKET_TEXT_REQUIRED: 'support.canned.form.bodyRequired',
  TICKET_TEXT_TOO_LONG: 'support.canned.form.bodyTooLong',
};

export interface CannedReplyDialogProps extends ItemDialogProps {
  /** The reply to edit; null adds one. */
  reply: CannedReply | null;
}

/** Adds a canned reply or edits one: its title (only the staff see it) and its text in both languages. */
export function CannedReplyDialog({ reply, ...dialog }: CannedReplyDialogProps) {
  const { t } = useTranslation('operator');
  const errorText = useOperatorError();
  const [create] = useCreateCannedReplyMutation();
  const [update] = useUpdateCannedReplyMutation();
  const {
    register,
    handleSubmit,
    control,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<CannedReplyRequest>({
    resolver,
    defaultValues: reply
      ? { title: reply.title, body_en: reply.body_en, body_ru: reply.body_ru }
      : { title: '', body_en: '', body_ru: '' },
  });
  const [bodyEn = '', bodyRu = ''] = useWatch({ control, name: ['body_en', 'body_ru'] });

  const message = (field: Field): string | undefined => {
    const text = errors[field]?.message;
    if (!text) return undefined;
    const own = FIELD_TEXTS[text];
    return own
      ? t(own, { max: field === 'title' ? TICKET_TITLE_MAX : STAFF_TEXT_MAX })
      : errorText.field(text);
  };

  const lengthHint = (text: string) =>
    t('support.canned.form.length', { length: characterCount(text), max: STAFF_TEXT_MAX });

  const { failure, submit } = useSaveItem({
    save: (values: CannedReplyRequest) =>
      reply ? update({ id: reply.id, body: values }).unwrap() : create(values).unwrap(),
    savedText: (values) =>
      t(reply ? 'support.canned.updated' : 'support.canned.created', { title: values.title }),
    onSaved: () => dialog.onOpenChange(false),
    form: { fields: FIELDS, setError, setFocus },
  });

  return (
    <ItemFormDialog
      {...dialog}
      title={
        reply
          ? t('support.canned.form.editTitle', { title: reply.title })
          : t('support.canned.form.addTitle')
      }
      description={t('support.canned.form.lead')}
      onSubmit={handleSubmit(submit)}
      submitting={isSubmitting}
      failure={failure}
      submitLabel={reply ? t('support.save') : t('support.canned.form.add')}
      submittingLabel={t('support.saving')}
    >
      <div className={styles.wide}>
        <TextField
          label={t('support.canned.form.title')}
          hint={t('support.canned.form.titleHint')}
          autoComplete="off"
          required
          maxLength={TICKET_TITLE_MAX}
          error={message('title')}
          {...register('title')}
        />
      </div>
      <div className={styles.wide}>
        <TextAreaField
          label={t('support.canned.form.body_en')}
          hint={lengthHint(bodyEn)}
          rows={5}
          lang="en"
          required
          error={message('body_en')}
          {...register('body_en')}
        />
      </div>
      <div className={styles.wide}>
        <TextAreaField
          label={t('support.canned.form.body_ru')}
          hint={lengthHint(bodyRu)}
          rows={5}
          lang="ru"
          required
          error={message('body_ru')}
          {...register('body_ru')}
        />
      </div>
    </ItemFormDialog>
  );
}
