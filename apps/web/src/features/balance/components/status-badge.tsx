import type { OperationStatus } from '@tradehost/contracts';
import { useTranslation } from 'react-i18next';
import { StatusBadge, type StatusTone } from '../../../shared/ui/status-badge/status-badge';

/** SPEC 4's statuses: each has a colour, an icon of its own shape and, always, its text. */
const TONES: Record<OperationStatus, StatusTone> = {
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

/** A payment's, transfer's, charge's or withdrawal's status. */
export function OperationStatusBadge({ status }: { status: OperationStatus }) {
  const { t } = useTranslation('balance');
  return (
    <StatusBadge tone={TONES[status]} status={status}>
      {t(`statuses.${status}`)}
    </StatusBadge>
  );
}
