import type { Ref } from 'react';
import { Link } from 'react-router';
import type { Failure } from '../../../shared/lib/use-failure';
import { FailureAlert as SharedFailureAlert } from '../../../shared/ui/failure-alert/failure-alert';
import { useMonitoringFormat } from '../lib/use-monitoring-format';

/** A failed call's alert; a refusal for want of money offers the top-up. */
export function FailureAlert(props: { failure: Failure | null; alertRef: Ref<HTMLDivElement> }) {
  const { t } = useMonitoringFormat();
  return (
    <SharedFailureAlert
      {...props}
      topUp={<Link to="/balance-operations?tab=topup">{t('plans.topUp')}</Link>}
    />
  );
}
