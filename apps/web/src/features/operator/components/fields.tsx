import type { ComponentPropsWithRef, ReactNode } from 'react';
import { FieldMessages } from '../../../shared/ui/form/field-messages';
import { joinIds, useFieldIds } from '../../../shared/ui/form/field-ids';
import fieldStyles from '../../../shared/ui/form/field.module.css';
import styles from './operator.module.css';

export interface SelectFieldProps extends Omit<ComponentPropsWithRef<'select'>, 'children'> {
  label: ReactNode;
  options: readonly { value: string; label: string }[];
  hint?: ReactNode;
  error?: string;
}

/** A labelled native select, in the look of the shared text fields. */
export function SelectField({
  label,
  options,
  hint,
  error,
  id,
  className,
  ref,
  'aria-describedby': describedBy,
  ...props
}: SelectFieldProps) {
  const ids = useFieldIds(id, Boolean(hint), Boolean(error));
  return (
    <div className={[fieldStyles.field, className].filter(Boolean).join(' ')}>
      <label htmlFor={ids.inputId} className={fieldStyles.label}>
        {label}
      </label>
      <select
        ref={ref}
        id={ids.inputId}
        className={`${fieldStyles.input} ${styles.select}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={joinIds(ids.describedBy, describedBy)}
        {...props}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldMessages hint={hint} hintId={ids.hintId} error={error} errorId={ids.errorId} />
    </div>
  );
}

export interface TextAreaFieldProps extends Omit<ComponentPropsWithRef<'textarea'>, 'children'> {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
}

/** A labelled textarea, in the look of the shared text fields. */
export function TextAreaField({
  label,
  hint,
  error,
  id,
  className,
  ref,
  'aria-describedby': describedBy,
  ...props
}: TextAreaFieldProps) {
  const ids = useFieldIds(id, Boolean(hint), Boolean(error));
  return (
    <div className={[fieldStyles.field, className].filter(Boolean).join(' ')}>
      <label htmlFor={ids.inputId} className={fieldStyles.label}>
        {label}
      </label>
      <textarea
        ref={ref}
        id={ids.inputId}
        className={`${fieldStyles.input} ${styles.textarea}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={joinIds(ids.describedBy, describedBy)}
        {...props}
      />
      <FieldMessages hint={hint} hintId={ids.hintId} error={error} errorId={ids.errorId} />
    </div>
  );
}
