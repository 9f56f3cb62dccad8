import type { ComponentPropsWithRef, ReactNode } from 'react';
import { buttonClassName, type ButtonVariant } from './button-styles';
import styles from './button.module.css';

export interface ButtonProps extends ComponentPropsWithRef<'button'> {
  variant?: ButtonVariant;
  /** Shows a spinner, sets aria-busy and disables the button. */
  loading?: boolean;
  /** What the button says while loading (its children otherwise). */
  loadingText?: ReactNode;
  fullWidth?: boolean;
  /**
   * An icon before the words (an aria-hidden <svg>), set apart from them and centred on them by
   * the button's own gap; the spinner takes its place while loading.
   */
  icon?: ReactNode;
}

export function Button({
  variant = 'primary',
  loading = false,
  loadingText,
  fullWidth = false,
  icon,
  type = 'button',
  disabled,
  className,
  children,
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClassName({ variant, fullWidth, className })}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...props}
    >
      {loading ? <span className={styles.spinner} aria-hidden="true" /> : icon}
      <span>{loading && loadingText ? loadingText : children}</span>
    </button>
  );
}
