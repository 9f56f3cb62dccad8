import type { ComponentPropsWithRef } from 'react';
import { FieldMessages } from './field-messages';
import { useField, type FieldOwnProps } from './field-frame';
import styles from './field.module.css';

export interface CheckboxProps
  extends FieldOwnProps, Omit<ComponentPropsWithRef<'input'>, 'children' | 'type'> {
  /** The label; it may contain links (they stay separately focusable). */
  label: FieldOwnProps['label'];
}

export function Checkbox({ className, ...props }: CheckboxProps) {
  const { frame, control } = useField(props);
  const { ids } = frame;
  return (
    <div className={styles.field}>
      <div className={styles.checkboxRow}>
        <input
          type="checkbox"
          className={[styles.checkbox, className].filter(Boolean).join(' ')}
          {...control}
        />
        <label htmlFor={ids.inputId} className={styles.checkboxLabel}>
          {frame.label}
        </label>
      </div>
      <FieldMessages
        className={styles.checkboxMessages}
        hint={frame.hint}
        hintId={ids.hintId}
        error={frame.error}
        errorId={ids.errorId}
      />
    </div>
  );
}
