import { zodResolver } from '@hookform/resolvers/zod';
import {
  FAQ_GROUPS,
  faqItemRequestSchema,
  type FaqGroup,
  type FaqItem,
} from '@tradehost/contracts';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type * as z from 'zod/mini';
import { Checkbox, SelectField, TextAreaField, TextField } from '../../../../shared/ui/form';
import { useCreateFaqItemMutation, useUpdateFaqItemMutation } from '../api/faq-operator-api';
import { useReaderLanguage } from '../../../operator/lib/reader-language';
import type { ItemDialogProps } from '../../../operator/lib/use-item-dialog';
import { codeOf, useOperatorError } from '../../../operator/lib/use-operator-error';
import { useSaveItem } from '../../../operator/lib/use-save-item';
import { ItemFormDialog } from '../../../operator/components/item-dialogs';
import styles from '../../../operator/components/controls.module.css';

/** What the form holds: the position as typed. */
interface FaqFormValues {
  group: FaqGroup;
  slug: string;
  position: string;
  question_en: string;
  answer_en: string;
  question_ru: string;
  answer_ru: string;
  published: boolean;
}

type FaqValues = z.output<typeof faqItemRequestSchema>;

const FIELDS = [
  'group',
  'slug',
  'position',
  'question_en',
  'answer_en',
  'question_ru',
  'answer_ru',
  'published',
] as const;
type Field = (typeof FIELDS)[number];
type TextKey = 'question_en' | 'answer_en' | 'question_ru' | 'answer_ru';
const TEXT_FIELDS: readonly string[] = ['question_en', 'answer_en', 'question_ru', 'answer_ru'];
const MAX: Record<TextKey, number> = {
  question_en: 300,
  answer_en: 5000,
  question_ru: 300,
  answer_ru: 5000,
};
/** The refusals of the link name: on its field. */
const SLUG_CODES = ['FAQ_SLUG_TAKEN', 'FAQ_SLUG_INVALID'];

const schemaResolver = zodResolver(faqItemRequestSchema) as unknown as Resolver<
  FaqFormValues,
  unknown,
  FaqValues
>;

/** The contract's schema over the position as a number (an empty or odd text: not a number). */
const resolver: Resolver<FaqFormValues, unknown, FaqValues> = (values, context, options) => {
  const typed = values.position.trim();
  const position = /^\d{1,5}$/.test(typed) ? Number(typed) : Number.NaN;
  return schemaResolver({ ...values, position: position as unknown as string }, context, options);
};

function valuesOf(
  item: FaqItem | null,
  group: FaqGroup,
  positionIn: (group: FaqGroup) => number,
): FaqFormValues {
  if (!item) {
    return {
      group,
      slug: '',
      position: String(positionIn(group)),
      question_en: '',
      answer_en: '',
      question_ru: '',
      answer_ru: '',
      published: true,
    };
  }
  return {
    group: item.group,
    slug: item.slug,
    position: String(item.position),
    question_en: item.question_en,
    answer_en: item.answer_en,
    question_ru: item.question_ru,
    answer_ru: item.answer_ru,
    published: item.published,
  };
}

export interface FaqItemDialogProps extends ItemDialogProps {
  /** The question to edit; null adds one. */
  item: FaqItem | null;
  /** A new question's group. */
  group: FaqGroup;
  /** A new question's position in a group: after its last one. */
  positionIn: (group: FaqGroup) => number;
}

/**
 * Adds a FAQ question or edits one: its group, link name (/faq#<slug>), place in the group, the
 * question and answer in English and Russian, and whether it is published. The contract's schema
 * checks it first; the server's refusals (a link name taken) land on their fields.
 */
export function FaqItemDialog({ item, group, positionIn, ...dialog }: FaqItemDialogProps) {
  const { t } = useTranslation('operator');
  const errorText = useOperatorError();
  const language = useReaderLanguage();
  const [create] = useCreateFaqItemMutation();
  const [update] = useUpdateFaqItemMutation();
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    setValue,
    getFieldState,
    formState: { errors, isSubmitting },
  } = useForm<FaqFormValues, unknown, FaqValues>({
    resolver,
    defaultValues: valuesOf(item, group, positionIn),
  });

  const message = (field: Field): string | undefined => {
    const text = errors[field]?.message;
    if (!text) return undefined;
    if (field === 'position') return t('faq.form.positionInvalid');
    if (TEXT_FIELDS.includes(field)) {
      if (text === 'FAQ_TEXT_REQUIRED') return t(`faq.form.required.${field}`);
      if (text === 'FAQ_TEXT_TOO_LONG')
        return t('faq.form.tooLong', { max: MAX[field as TextKey] });
    }
    return errorText.field(text);
  };

  const { failure, submit } = useSaveItem({
    save: (values: FaqValues) =>
      item ? update({ id: item.id, body: values }).unwrap() : create(values).unwrap(),
    savedText: (values) =>
      t(item ? 'faq.updated' : 'faq.created', {
        question: language === 'ru' ? values.question_ru : values.question_en,
      }),
    onSaved: () => dialog.onOpenChange(false),
    form: { fields: FIELDS, setError, setFocus },
    // the link name's refusals and the group's go on their fields
    refused: (error) => {
      const code = codeOf(error);
      const field =
        code && SLUG_CODES.includes(code) ? 'slug' : code === 'FAQ_GROUP_INVALID' ? 'group' : null;
      if (!code || !field) return false;
      setError(field, { type: 'server', message: code });
      setFocus(field);
      return true;
    },
  });

  const text = (field: TextKey, rows: number, lang: 'en' | 'ru') => (
    <div className={styles.wide}>
      <TextAreaField
        label={t(`faq.form.${field}`)}
        rows={rows}
        lang={lang}
        required
        maxLength={MAX[field]}
        error={message(field)}
        {...register(field)}
      />
    </div>
  );

  return (
    <ItemFormDialog
      {...dialog}
      title={item ? t('faq.form.editTitle') : t('faq.form.addTitle')}
      description={t('faq.form.lead')}
      onSubmit={handleSubmit(submit)}
      submitting={isSubmitting}
      failure={failure}
      submitLabel={item ? t('support.save') : t('faq.form.add')}
      submittingLabel={t('support.saving')}
    >
      <SelectField
        label={t('faq.form.group')}
        options={FAQ_GROUPS.map((value) => ({ value, label: t(`faq.groups.${value}`) }))}
        required
        error={message('group')}
        {...register('group', {
          // a new question goes after the last of the group chosen, unless a place is typed
          onChange: (event: { target: { value: FaqGroup } }) => {
            if (!item && !getFieldState('position').isDirty)
              setValue('position', String(positionIn(event.target.value)));
          },
        })}
      />
      <TextField
        label={t('faq.form.position')}
        hint={t('faq.form.positionHint')}
        inputMode="numeric"
        autoComplete="off"
        required
        error={message('position')}
        {...register('position')}
      />
      <div className={styles.wide}>
        <TextField
          label={t('faq.form.slug')}
          hint={t('faq.form.slugHint')}
          autoComplete="off"
          spellCheck={false}
          required
          maxLength={80}
          error={message('slug')}
          {...register('slug')}
        />
      </div>
      {text('question_en', 2, 'en')}
      {text('answer_en', 6, 'en')}
      {text('question_ru', 2, 'ru')}
      {text('answer_ru', 6, 'ru')}
      <div className={styles.wide}>
        <Checkbox
          label={t('faq.form.published')}
          hint={t('faq.form.publishedHint')}
          {...register('published')}
        />
      </div>
    </ItemFormDialog>
  );
}
