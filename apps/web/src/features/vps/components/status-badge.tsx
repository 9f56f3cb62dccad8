import type { ServerStatus, TestRequestStatus } from '@tradehost/contracts';
import { useTranslation } from 'react-i18next';
import styles from './status-badge.module.css';

type Tone = 'success' | 'pending' | 'danger' | 'neutral' | 'info';

const SERVER_TONES: Record<ServerStatus, Tone> = {
  provisioning: 'pending',
  active: 'success',
  blocked: 'danger',
  revoked: 'neutral',
  failed: 'danger',
};

const REQUEST_TONES: Record<TestRequestStatus, Tone> = {
  under_review: 'pending',
  approved: 'success',
  rejected: 'danger',
};

const ICONS: Record<Tone, string> = {
  success: 'M5 12.5l4.5 4.5L19 7.5',
  pending: 'M12 7v5l3 2M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z',
  danger: 'M7 7l10 10M17 7L7 17',
  neutral: 'M6 12h12',
  info: 'M7 17L17 7M9 7h8v8',
};

function Badge({ tone, status, text }: { tone: Tone; status: string; text: string }) {
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
      {text}
    </span>
  );
}

/** A server's status: a colour, an icon of its own shape and, always, its text. */
export function ServerStatusBadge({ status }: { status: ServerStatus }) {
  const { t } = useTranslation('vps');
  return <Badge tone={SERVER_TONES[status]} status={status} text={t(`statuses.${status}`)} />;
}

/** A test-server request's status. */
export function RequestStatusBadge({ status }: { status: TestRequestStatus }) {
  const { t } = useTranslation('vps');
  return <Badge tone={REQUEST_TONES[status]} status={status} text={t(`test.statuses.${status}`)} />;
}
