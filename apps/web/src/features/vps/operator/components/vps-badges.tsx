import type {
  PowerState,
  ServerOperationStatus,
  ServerStatus,
  TestRequestStatus,
} from '@tradehost/contracts';
import { useTranslation } from 'react-i18next';
import { Badge, type Tone } from '../../../operator/components/badge';
import styles from '../../../operator/components/controls.module.css';

const SERVER_TONES: Record<ServerStatus, Tone> = {
  provisioning: 'info',
  active: 'success',
  blocked: 'warning',
  revoked: 'neutral',
  failed: 'danger',
};

const POWER_TONES: Record<PowerState, Tone> = {
  running: 'success',
  stopped: 'neutral',
  unknown: 'warning',
};

const OPERATION_TONES: Record<ServerOperationStatus, Tone> = {
  queued: 'info',
  running: 'info',
  succeeded: 'success',
  failed: 'danger',
};

const TEST_TONES: Record<TestRequestStatus, Tone> = {
  under_review: 'warning',
  approved: 'success',
  rejected: 'danger',
};

export function ServerStatusBadge({ status }: { status: ServerStatus }) {
  const { t } = useTranslation('operator');
  return <Badge tone={SERVER_TONES[status]}>{t(`vps.serverStatuses.${status}`)}</Badge>;
}

export function PowerBadge({ power }: { power: PowerState }) {
  const { t } = useTranslation('operator');
  return <Badge tone={POWER_TONES[power]}>{t(`vps.power.${power}`)}</Badge>;
}

export function OperationStatusBadge({
  status,
  stuck = false,
}: {
  status: ServerOperationStatus;
  stuck?: boolean;
}) {
  const { t } = useTranslation('operator');
  return (
    <span className={styles.inline}>
      <Badge tone={OPERATION_TONES[status]}>{t(`vps.operationStatuses.${status}`)}</Badge>
      {stuck ? <Badge tone="danger">{t('vps.operationStatuses.stuck')}</Badge> : null}
    </span>
  );
}

export function TestStatusBadge({ status }: { status: TestRequestStatus }) {
  const { t } = useTranslation('operator');
  return <Badge tone={TEST_TONES[status]}>{t(`vps.testStatuses.${status}`)}</Badge>;
}
