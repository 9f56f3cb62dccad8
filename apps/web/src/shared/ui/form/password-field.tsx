import { useState, type ComponentPropsWithRef, type ReactNode } from 'react';
import { StrokeIcon } from '../icon/stroke-icon';
import { FieldMessages } from './field-messages';
import { joinIds, useFieldIds } from './field-ids';
import styles from './field.module.css';

export interface PasswordFieldProps extends Omit<
  ComponentPropsWithRef<'input'>,
  'children' | 'type'
> {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  /** The accessible name of the show/hide toggle (it is a toggle button: aria-pressed tells its state). */
  toggleLabel?: string;
}

function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <StrokeIcon className={styles.icon}>
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
      {crossed ? <path d="M3 3l18 18" /> : null}
    </StrokeIcon>
  );
}

export function PasswordField({
  label,
  hint,
  error,
  toggleLabel = 'Show password',
  id,
  className,
  ref,
  'aria-describedby': describedByProp,
  ...inputProps
}: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  const ids = useFieldIds(id, Boolean(hint), Boolean(error));
  return (
    <div className={styles.field}>
      <label htmlFor={ids.inputId} className={styles.label}>
        {label}
      </label>
      <div className={styles.control}>
        <input
          ref={ref}
          id={ids.inputId}
          type={visible ? 'text' : 'password'}
          className={[styles.input, styles.withToggle, className].filter(Boolean).join(' ')}
          aria-invalid={error ? true : undefined}
          aria-describedby={joinIds(ids.describedBy, describedByProp)}
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          {...inputProps}
        />
        <button
          type="button"
          className={styles.toggle}
          aria-label={toggleLabel}
          aria-pressed={visible}
          aria-controls={ids.inputId}
          onClick={() => setVisible((value) => !value)}
        >
          <EyeIcon crossed={visible} />
        </button>
      </div>
      <FieldMessages hint={hint} hintId={ids.hintId} error={error} errorId={ids.errorId} />
    </div>
  );
}
