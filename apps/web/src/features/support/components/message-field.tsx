import { characterCount, TICKET_TEXT_MAX } from '@tradehost/contracts';
import type { ComponentPropsWithRef, ReactNode } from 'react';
import { FieldMessages } from '../../../shared/ui/form/field-messages';
import { joinIds, useFieldIds } from '../../../shared/ui/form/field-ids';
import fieldStyles from '../../../shared/ui/form/field.module.css';
import { useSupportFormat } from '../lib/use-support-format';
import styles from './support.module.css';

export interface MessageFieldProps extends Omit<ComponentPropsWithRef<'textarea'>, 'children'> {
  label: ReactNode;
  /** The text as typed, for the characters left. */
  text: string;
  hint?: ReactNode;
  /** The error text (already translated). */
  error?: string;
}

/**
 * The text of a ticket or a message, with the characters left: counted as the API and the
 * database count them (code points, after trimming; an emoji is one), so no `maxLength` (the
 * browser's counts UTF-16 units). Over the limit the counter says by how much.
 */
export function MessageField({
  label,
  text,
  hint,
  error,
  id,
  className,
  'aria-describedby': describedBy,
  ...props
}: MessageFieldProps) {
  const { t } = useSupportFormat();
  const ids = useFieldIds(id, Boolean(hint), Boolean(error));
  const counterId = `${ids.inputId}-count`;
  const left = TICKET_TEXT_MAX - characterCount(text.trim());
  return (
    <div className={fieldStyles.field}>
      <label htmlFor={ids.inputId} className={fieldStyles.label}>
        {label}
      </label>
      <textarea
        id={ids.inputId}
        className={[fieldStyles.input, styles.textarea, className].filter(Boolean).join(' ')}
        rows={6}
        aria-invalid={error ? true : undefined}
        aria-describedby={joinIds(ids.describedBy, counterId, describedBy)}
        {...props}
      />
      <p
        id={counterId}
        className={left < 0 ? `${styles.counter} ${styles.counterOver}` : styles.counter}
        data-testid="characters-left"
      >
        {left < 0
          ? t('form.charactersOver', { count: -left })
          : t('form.charactersLeft', { count: left })}
      </p>
      <FieldMessages hint={hint} hintId={ids.hintId} error={error} errorId={ids.errorId} />
    </div>
  );
}
