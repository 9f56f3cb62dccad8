import type { ReactNode } from 'react';
import { ICON_PATHS, StrokeIcon } from '../icon/stroke-icon';
import styles from './status-badge.module.css';

/** How a status reads: its colour and the shape of its icon. */
export type StatusTone = 'success' | 'pending' | 'danger' | 'neutral' | 'info';

const ICONS: Record<StatusTone, string> = {
  success: ICON_PATHS.check,
  pending: ICON_PATHS.clock,
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
      <StrokeIcon className={styles.icon} strokeWidth={2.5} d={ICONS[tone]} />
      {children}
    </span>
  );
}
