import type { ServerOperationStatus, ServerStatus, TestRequestStatus } from '@tradehost/contracts';
import { useTranslation } from 'react-i18next';
import { StatusBadge, type StatusTone } from '../../../shared/ui/status-badge/status-badge';

const SERVER_TONES: Record<ServerStatus, StatusTone> = {
  provisioning: 'pending',
  active: 'success',
  blocked: 'danger',
  revoked: 'neutral',
  failed: 'danger',
};

const REQUEST_TONES: Record<TestRequestStatus, StatusTone> = {
  under_review: 'pending',
  approved: 'success',
  rejected: 'danger',
};

/** Where a line of a server's activity stands: waiting, under way (the clock), done, failed. */
const ACTIVITY_TONES: Record<ServerOperationStatus, StatusTone> = {
  queued: 'neutral',
  running: 'pending',
  succeeded: 'success',
  failed: 'danger',
};

/** A status of the VPS page: its tone in `tones`, its text under `texts` in the vps namespace. */
function VpsStatusBadge<S extends string>({
  status,
  tones,
  texts,
}: {
  status: S;
  tones: Record<S, StatusTone>;
  texts: string;
}) {
  const { t } = useTranslation('vps');
  return (
    <StatusBadge tone={tones[status]} status={status}>
      {t(`${texts}.${status}`)}
    </StatusBadge>
  );
}

/** A server's status: a colour, an icon of its own shape and, always, its text. */
export function ServerStatusBadge({ status }: { status: ServerStatus }) {
  return <VpsStatusBadge status={status} tones={SERVER_TONES} texts="statuses" />;
}

/** A test-server request's status. */
export function RequestStatusBadge({ status }: { status: TestRequestStatus }) {
  return <VpsStatusBadge status={status} tones={REQUEST_TONES} texts="test.statuses" />;
}

/** The outcome of a line of a server's activity (an operation's status; an action is done). */
export function ActivityStatusBadge({ status }: { status: ServerOperationStatus }) {
  return <VpsStatusBadge status={status} tones={ACTIVITY_TONES} texts="activity.statuses" />;
}
