import type { TicketStatus } from '@tradehost/contracts';
import { StatusBadge } from '../../../shared/ui/status-badge/status-badge';
import { STATUS_TONES, useSupportFormat } from '../lib/use-support-format';

/** New, Processing or Closed (SPEC 4), in words, with the tone's colour and icon. */
export function TicketStatusBadge({ status }: { status: TicketStatus }) {
  const f = useSupportFormat();
  return (
    <StatusBadge tone={STATUS_TONES[status]} status={status}>
      {f.status(status)}
    </StatusBadge>
  );
}
