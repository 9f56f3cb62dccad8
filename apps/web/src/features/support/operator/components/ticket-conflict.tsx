import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormAlert } from '../../../../shared/ui/form';

/**
 * A closed ticket that cannot open again (a reply or a new status would open it) because its
 * user has another open ticket in the department: the refusal, with a link to that ticket.
 */
export function TicketConflictAlert({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation('operator');
  return (
    <FormAlert tone="error">
      {t('support.conflict.text')}{' '}
      <Link to={`/operator/support/${ticketId}`}>
        {t('support.conflict.link', { number: t('number', { id: ticketId }) })}
      </Link>
    </FormAlert>
  );
}
