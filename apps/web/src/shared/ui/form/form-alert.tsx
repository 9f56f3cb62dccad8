import type { ReactNode, Ref } from 'react';
import styles from './form-alert.module.css';

export type FormAlertTone = 'error' | 'warning' | 'success' | 'info';

export interface FormAlertProps {
  /** error and warning are announced at once (role="alert"); success and info politely (role="status"). */
  tone?: FormAlertTone;
  title?: ReactNode;
  children?: ReactNode;
  className?: string;
  id?: string;
  /** The alert takes focus (tabIndex -1) when a failed submit moves focus to it. */
  ref?: Ref<HTMLDivElement>;
}

export function FormAlert({ tone = 'error', title, children, className, id, ref }: FormAlertProps) {
  const assertive = tone === 'error' || tone === 'warning';
  return (
    <div
      ref={ref}
      id={id}
      role={assertive ? 'alert' : 'status'}
      tabIndex={-1}
      className={[styles.alert, styles[tone], className].filter(Boolean).join(' ')}
    >
      {title ? <p className={styles.title}>{title}</p> : null}
      {children ? <div className={styles.body}>{children}</div> : null}
    </div>
  );
}
