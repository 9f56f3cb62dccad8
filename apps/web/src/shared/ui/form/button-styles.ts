import styles from './button.module.css';

/** `danger`: a destructive action (deletes, cancels for good), in the danger colour. */
export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

/** The class names of a button, also for links that look like buttons. */
export function buttonClassName({
  variant = 'primary',
  fullWidth = false,
  className,
}: { variant?: ButtonVariant; fullWidth?: boolean; className?: string } = {}): string {
  return [styles.button, styles[variant], fullWidth ? styles.fullWidth : null, className]
    .filter(Boolean)
    .join(' ');
}
