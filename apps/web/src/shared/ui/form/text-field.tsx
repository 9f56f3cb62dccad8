import type { ComponentPropsWithRef, ReactNode } from 'react';
import { FieldMessages } from './field-messages';
import { joinIds, useFieldIds } from './field-ids';
import styles from './field.module.css';

export interface TextFieldProps extends Omit<ComponentPropsWithRef<'input'>, 'children'> {
  /** The visible label, tied to the input by htmlFor/id. */
  label: ReactNode;
  /** Marks the label "optional" with this text (e.g. a translated "optional"). */
  optionalText?: string;
  /** Help under the input, linked by aria-describedby. */
  hint?: ReactNode;
  /** The error text (already translated); sets aria-invalid and is linked by aria-describedby. */
  error?: string;
}

export function TextField({
  label,
  optionalText,
  hint,
  error,
  id,
  className,
  ref,
  'aria-describedby': describedByProp,
  ...inputProps
}: TextFieldProps) {
  const ids = useFieldIds(id, Boolean(hint), Boolean(error));
  return (
    <div className={styles.field}>
      <label htmlFor={ids.inputId} className={styles.label}>
        {label}
        {optionalText ? <span className={styles.optional}> ({optionalText})</span> : null}
      </label>
      <input
        ref={ref}
        id={ids.inputId}
        className={[styles.input, className].filter(Boolean).join(' ')}
        aria-invalid={error ? true : undefined}
        aria-describedby={joinIds(ids.describedBy, describedByProp)}
        {...inputProps}
      />
      <FieldMessages hint={hint} hintId={ids.hintId} error={error} errorId={ids.errorId} />
    </div>
  );
}
