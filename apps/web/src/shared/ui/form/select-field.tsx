import type { ComponentPropsWithRef } from 'react';
import { FieldFrame, useField, type FieldOwnProps } from './field-frame';
import styles from './field.module.css';

export interface SelectFieldProps extends FieldOwnProps, ComponentPropsWithRef<'select'> {
  /** A class for the field (label, select and messages), e.g. to limit its width. */
  className?: string;
  /** The answers to choose from, after any `<option>`s given as children (a prompt). */
  options?: readonly { value: string; label: string }[];
}

/**
 * A list to choose from (`options`, or `<option>`s as children) that looks like the text inputs
 * beside it in either theme: their background, border, height and focus ring, and an arrow in the
 * theme's muted colour (the browser's own select was white in the light theme, with its own arrow).
 */
export function SelectField({ className, children, options, ...props }: SelectFieldProps) {
  const { frame, control } = useField(props);
  return (
    <FieldFrame {...frame} className={className}>
      <div className={styles.control}>
        <select className={`${styles.input} ${styles.select}`} {...control}>
          {children}
          {options?.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <span className={styles.selectArrow} aria-hidden="true" />
      </div>
    </FieldFrame>
  );
}
