import { useId, type ReactNode } from 'react';
import styles from './monitoring.module.css';

/**
 * A figure: its name, which explains it on hover and on focus (a tooltip tied to the name by
 * aria-describedby), and its value, coloured by `tone`.
 */
export function Figure({
  label,
  explanation,
  tone,
  variant = 'line',
  children,
}: {
  label: string;
  explanation: string;
  tone?: 'up' | 'down' | undefined;
  variant?: 'tile' | 'line';
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className={variant === 'tile' ? styles.tile : styles.figure}>
      <dt>
        <span className={styles.term} tabIndex={0} aria-describedby={id}>
          {label}
        </span>
        <span role="tooltip" id={id} className={styles.tip}>
          {explanation}
        </span>
      </dt>
      <dd className={tone ? styles[tone] : undefined}>{children}</dd>
    </div>
  );
}
