import type { ComponentPropsWithRef, ReactNode } from 'react';
import { FieldMessages } from './field-messages';
import { joinIds, useFieldIds } from './field-ids';
import styles from './field.module.css';

export interface CheckboxProps extends Omit<ComponentPropsWithRef<'input'>, 'children' | 'type'> {
  /** The label; it may contain links (they stay separately focusable). */
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
}

export function Checkbox({
  label,
  hint,
  error,
  id,
  className,
  ref,
  'aria-describedby': describedByProp,
  ...inputProps
}: CheckboxProps) {
  const ids = useFieldIds(id, Boolean(hint), Boolean(error));
  return (
    <div className={styles.field}>
      <div className={styles.checkboxRow}>
        <input
          ref={ref}
          id={ids.inputId}
          type="checkbox"
          className={[styles.checkbox, className].filter(Boolean).join(' ')}
          aria-invalid={error ? true : undefined}
          aria-describedby={joinIds(ids.describedBy, describedByProp)}
          {...inputProps}
        />
        <label htmlFor={ids.inputId} className={styles.checkboxLabel}>
          {label}
        </label>
      </div>
      <FieldMessages
        className={styles.checkboxMessages}
        hint={hint}
        hintId={ids.hintId}
        error={error}
        errorId={ids.errorId}
      />
    </div>
  );
}
