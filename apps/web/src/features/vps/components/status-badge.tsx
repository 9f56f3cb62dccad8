import type { ServerStatus, TestRequestStatus } from '@tradehost/contracts';
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

/** A server's status: a colour, an icon of its own shape and, always, its text. */
export function ServerStatusBadge({ status }: { status: ServerStatus }) {
  const { t } = useTranslation('vps');
  return (
    <StatusBadge tone={SERVER_TONES[status]} status={status}>
      {t(`statuses.${status}`)}
    </StatusBadge>
  );
}

/** A test-server request's status. */
export function RequestStatusBadge({ status }: { status: TestRequestStatus }) {
  const { t } = useTranslation('vps');
  return (
    <StatusBadge tone={REQUEST_TONES[status]} status={status}>
      {t(`test.statuses.${status}`)}
    </StatusBadge>
  );
}
