import { useState, type ComponentPropsWithRef } from 'react';
import { StrokeIcon } from '../icon/stroke-icon';
import { FieldFrame, useField, type FieldOwnProps } from './field-frame';
import styles from './field.module.css';

export interface PasswordFieldProps
  extends FieldOwnProps, Omit<ComponentPropsWithRef<'input'>, 'children' | 'type'> {
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
  toggleLabel = 'Show password',
  className,
  ...props
}: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  const { frame, control } = useField(props);
  return (
    <FieldFrame {...frame}>
      <div className={styles.control}>
        <input
          type={visible ? 'text' : 'password'}
          className={[styles.input, styles.withToggle, className].filter(Boolean).join(' ')}
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          {...control}
        />
        <button
          type="button"
          className={styles.toggle}
          aria-label={toggleLabel}
          aria-pressed={visible}
          aria-controls={control.id}
          onClick={() => setVisible((value) => !value)}
        >
          <EyeIcon crossed={visible} />
        </button>
      </div>
    </FieldFrame>
  );
}
