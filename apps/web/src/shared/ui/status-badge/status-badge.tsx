import type { ReactNode } from 'react';
import styles from './status-badge.module.css';

/** How a status reads: its colour and the shape of its icon. */
export type StatusTone = 'success' | 'pending' | 'danger' | 'neutral' | 'info';

const ICONS: Record<StatusTone, string> = {
  success: 'M5 12.5l4.5 4.5L19 7.5',
  pending: 'M12 7v5l3 2M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z',
  danger: 'M7 7l10 10M17 7L7 17',
  neutral: 'M6 12h12',
  info: 'M7 17L17 7M9 7h8v8',
};

export interface StatusBadgeProps {
  tone: StatusTone;
  /** The status's code, kept on the badge as data-status. */
  status: string;
  /** The status in words. */
  children: ReactNode;
}

/** A status (SPEC 4): a colour, an icon of its own shape and, always, its text. */
export function StatusBadge({ tone, status, children }: StatusBadgeProps) {
  return (
    <span className={`${styles.badge} ${styles[tone]}`} data-status={status}>
      <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path
          d={ICONS[tone]}
          fill="none"
          stroke="currentColor"
          strokeWidth="2.5"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      {children}
    </span>
  );
}
