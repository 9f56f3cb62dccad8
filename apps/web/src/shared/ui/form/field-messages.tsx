import type { ReactNode } from 'react';
import styles from './field.module.css';

interface FieldMessagesProps {
  hint?: ReactNode;
  hintId: string;
  error?: string;
  errorId: string;
  className?: string;
}

/** The error (first, it matters most) and the hint under a control. */
export function FieldMessages({ hint, hintId, error, errorId, className }: FieldMessagesProps) {
  if (!hint && !error) return null;
  return (
    <div className={className}>
      {error ? (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      ) : null}
      {hint ? (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}
