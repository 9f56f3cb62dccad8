import type { TicketStatus } from '@tradehost/contracts';
import { useTranslation } from 'react-i18next';
import { SectionNav } from '../../../../shared/ui/section-nav/section-nav';
import { Badge, type Tone } from '../../../operator/components/badge';

const TICKET_TONES: Record<TicketStatus, Tone> = {
  new: 'info',
  processing: 'warning',
  closed: 'neutral',
};

/** New, Processing, Closed (SPEC 4). */
export function TicketStatusBadge({ status }: { status: TicketStatus }) {
  const { t } = useTranslation('operator');
  return <Badge tone={TICKET_TONES[status]}>{t(`support.statuses.${status}`)}</Badge>;
}

/** The help desk's pages: the tickets, the canned replies, the departments. */
export function SupportNav() {
  const { t } = useTranslation('operator');
  return (
    <SectionNav
      label={t('support.nav.label')}
      items={[
        { to: '/operator/support', end: true, label: t('support.nav.desk') },
        { to: '/operator/support/canned', label: t('support.nav.canned') },
        { to: '/operator/support/departments', label: t('support.nav.departments') },
      ]}
    />
  );
}
