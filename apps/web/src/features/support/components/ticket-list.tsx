import type { Department, TicketSummary } from '@tradehost/contracts';
import { Link } from 'react-router';
import { useSupportFormat } from '../lib/use-support-format';
import styles from './support.module.css';
import { TicketStatusBadge } from './ticket-status-badge';

export interface TicketListProps {
  tickets: TicketSummary[];
  departments: Department[] | undefined;
  label: string;
}

/**
 * The reader's tickets, newest activity first: each a link to its dialog with the number, the
 * subject, the department, the status and the last activity, and "New reply" when the staff
 * wrote or changed the status since the reader last opened it. One layout from phones up.
 */
export function TicketList({ tickets, departments, label }: TicketListProps) {
  const f = useSupportFormat();
  const { t } = f;
  return (
    <ul className={styles.tickets} aria-label={label}>
      {tickets.map((ticket) => {
        const department = departments?.find((d) => d.id === ticket.department_id);
        return (
          <li
            key={ticket.id}
            className={ticket.unread ? `${styles.ticket} ${styles.ticketUnread}` : styles.ticket}
            data-testid="ticket-row"
          >
            <div className={styles.ticketMain}>
              <Link
                to={`/support/${ticket.id}`}
                className={styles.ticketLink}
                // the marker in the name (a hidden text in the link would read with a space before its comma)
                aria-label={
                  ticket.unread
                    ? t('list.unreadLink', { id: ticket.id, title: ticket.title })
                    : undefined
                }
              >
                <span className={styles.ticketNumber}>{t('list.number', { id: ticket.id })}</span>{' '}
                <span className={styles.ticketTitle}>{ticket.title}</span>
              </Link>
              {/* one run of text, wrapping as a sentence does: the dot stays by the department (a
                  no-break space before it) and the activity goes on after it on the same line;
                  as three boxes, the dot ended a line of its own and the activity took two more */}
              <p className={styles.ticketMeta}>
                {f.department(department)}
                <span aria-hidden="true">{'\u00a0·'}</span> {t('list.activity')}{' '}
                <time dateTime={ticket.updated_at}>{f.dateTime(ticket.updated_at)}</time>
              </p>
            </div>
            <div className={styles.ticketSide}>
              {ticket.unread ? (
                <span className={styles.unread} aria-hidden="true">
                  <span className={styles.unreadDot} aria-hidden="true" />
                  {t('list.unread')}
                </span>
              ) : null}
              <TicketStatusBadge status={ticket.status} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
