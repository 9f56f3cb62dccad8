import { TICKET_STATUSES, type TicketMessage, type TicketStatus } from '@tradehost/contracts';
import { useState } from 'react';
import { useSupportFormat } from '../lib/use-support-format';
import { AttachmentList } from './attachment-list';
import styles from './support.module.css';

const isStatus = (value: string): value is TicketStatus =>
  TICKET_STATUSES.some((status) => status === value);

/**
 * The thread, oldest first: the reader's messages on one side, the staff's on the other (each
 * with its author, time and files), and status changes as small centred lines. When the staff
 * write while it is open (the page polls), "1 new reply from support" (with the count) is announced.
 */
export function Thread({ messages }: { messages: TicketMessage[] }) {
  const f = useSupportFormat();
  const { t } = f;
  const staffCount = messages.filter(
    (m) => m.kind === 'message' && m.author_kind === 'staff',
  ).length;
  const [seen, setSeen] = useState(staffCount);
  const [announcement, setAnnouncement] = useState('');
  if (staffCount !== seen) {
    setSeen(staffCount);
    if (staffCount > seen) setAnnouncement(t('thread.newReply', { count: staffCount - seen }));
  }

  return (
    <>
      <ol className={styles.thread} aria-label={t('thread.label')}>
        {messages.map((message) => {
          if (message.kind === 'note') return null; // the help desk's only; never sent here
          const time = (
            <time dateTime={message.created_at} className={styles.time}>
              {f.dateTime(message.created_at)}
            </time>
          );
          if (message.kind === 'event')
            return (
              <li key={message.id} className={styles.event} data-testid="thread-event">
                <span>
                  {isStatus(message.body)
                    ? t(`thread.events.${message.body}`)
                    : t('thread.eventOther', { status: message.body })}
                </span>{' '}
                · {time}
              </li>
            );
          const mine = message.author_kind === 'user';
          return (
            <li
              key={message.id}
              className={
                mine ? `${styles.message} ${styles.mine}` : `${styles.message} ${styles.staff}`
              }
              data-testid={mine ? 'thread-user-message' : 'thread-staff-message'}
            >
              <p className={styles.messageHead}>
                <span className={styles.author}>
                  {mine ? t('thread.you') : (message.author_name ?? t('thread.support'))}
                </span>
                {mine ? null : <span className={styles.staffTag}>{t('thread.staffTag')}</span>}
                {time}
              </p>
              <p className={styles.body}>{message.body}</p>
              <AttachmentList attachments={message.attachments} />
            </li>
          );
        })}
      </ol>
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </>
  );
}
