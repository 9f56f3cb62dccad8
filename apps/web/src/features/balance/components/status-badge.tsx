import type { OperationStatus } from '@tradehost/contracts';
import { useTranslation } from 'react-i18next';
import styles from './status-badge.module.css';

type Tone = 'success' | 'pending' | 'danger' | 'neutral' | 'info';

/** SPEC 4's statuses: each has a colour, an icon of its own shape and, always, its text. */
const TONES: Record<OperationStatus, Tone> = {
  paid: 'success',
  received: 'success',
  paid_out: 'success',
  processing: 'pending',
  under_review: 'pending',
  not_paid: 'danger',
  rejected: 'danger',
  cancelled: 'neutral',
  deleted: 'neutral',
  sent: 'info',
};

const ICONS: Record<Tone, string> = {
  success: 'M5 12.5l4.5 4.5L19 7.5',
  pending: 'M12 7v5l3 2M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z',
  danger: 'M7 7l10 10M17 7L7 17',
  neutral: 'M6 12h12',
  info: 'M7 17L17 7M9 7h8v8',
};

export function StatusBadge({ status }: { status: OperationStatus }) {
  const { t } = useTranslation('balance');
  const tone = TONES[status];
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
      {t(`statuses.${status}`)}
    </span>
  );
}
