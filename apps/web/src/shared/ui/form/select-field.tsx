import type { ComponentPropsWithRef, ReactNode } from 'react';
import { FieldMessages } from './field-messages';
import { joinIds, useFieldIds } from './field-ids';
import styles from './field.module.css';

export interface SelectFieldProps extends ComponentPropsWithRef<'select'> {
  /** The visible label, tied to the select by htmlFor/id. */
  label: ReactNode;
  /** Help under the select, linked by aria-describedby. */
  hint?: ReactNode;
  /** The error text (already translated); sets aria-invalid and is linked by aria-describedby. */
  error?: string;
  /** A class for the field (label, select and messages), e.g. to limit its width. */
  className?: string;
}

/**
 * A list to choose from (`<option>`s as children) that looks like the text inputs beside it in
 * either theme: their background, border, height and focus ring, and an arrow in the theme's
 * muted colour (the browser's own select was white in the light theme, with its own arrow).
 */
export function SelectField({
  label,
  hint,
  error,
  id,
  className,
  ref,
  children,
  'aria-describedby': describedByProp,
  ...selectProps
}: SelectFieldProps) {
  const ids = useFieldIds(id, Boolean(hint), Boolean(error));
  return (
    <div className={[styles.field, className].filter(Boolean).join(' ')}>
      <label htmlFor={ids.inputId} className={styles.label}>
        {label}
      </label>
      <div className={styles.control}>
        <select
          ref={ref}
          id={ids.inputId}
          className={`${styles.input} ${styles.select}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={joinIds(ids.describedBy, describedByProp)}
          {...selectProps}
        >
          {children}
        </select>
        <span className={styles.selectArrow} aria-hidden="true" />
      </div>
      <FieldMessages hint={hint} hintId={ids.hintId} error={error} errorId={ids.errorId} />
    </div>
  );
}
