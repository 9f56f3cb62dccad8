import type { Attachment, TicketMessage } from '@tradehost/contracts';
import { useTranslation } from 'react-i18next';
import {
  useAuthorizedFileUrlQuery,
  useDownloadAuthorizedFileMutation,
} from '../../../../shared/api/authorized-file';
import { Button } from '../../../../shared/ui/form';
import { notify } from '../../../../shared/ui/toast/notify';
import { useFormatters } from '../../../operator/lib/format';
import { attachmentPath, previewPath, useFileSize } from '../lib/support';
import { useOperatorError } from '../../../operator/lib/use-operator-error';
import styles from './support.module.css';

/**
 * A ticket's thread, oldest first: the user's messages, the staff's replies, the internal notes
 * (in their own yellow, under an "Internal note" band, never in the look of a reply) and the
 * status changes between them. Each message is an article named by its kind, author and time.
 */
export function TicketThread({ messages }: { messages: readonly TicketMessage[] }) {
  return (
    <ol className={styles.thread}>
      {messages.map((message) => (
        <li key={message.id}>
          {message.kind === 'event' ? (
            <StatusEvent message={message} />
          ) : (
            <ThreadMessage message={message} />
          )}
        </li>
      ))}
    </ol>
  );
}

function StatusEvent({ message }: { message: TicketMessage }) {
  const { t } = useTranslation('operator');
  const format = useFormatters();
  const status = t(`support.statuses.${message.body}`, { defaultValue: message.body });
  return (
    <p className={styles.event}>
      <span>
        {message.author_name
          ? t('support.thread.statusChangedBy', { name: message.author_name, status })
          : t('support.thread.statusChanged', { status })}
        {' · '}
        <time dateTime={message.created_at}>{format.dateTime(message.created_at)}</time>
      </span>
    </p>
  );
}

function ThreadMessage({ message }: { message: TicketMessage }) {
  const { t } = useTranslation('operator');
  const format = useFormatters();
  const note = message.kind === 'note';
  const staff = message.author_kind === 'staff';
  const author =
    message.author_name || (staff ? t('support.thread.staff') : t('support.thread.user'));
  const when = format.dateTime(message.created_at);
  const label = note
    ? t('support.thread.noteLabel', { name: author, date: when })
    : staff
      ? t('support.thread.replyLabel', { name: author, date: when })
      : t('support.thread.userLabel', { name: author, date: when });
  const className = note ? styles.note : staff ? styles.fromStaff : styles.fromUser;

  return (
    <article className={`${styles.entry} ${className}`} aria-label={label}>
      {note ? (
        <p className={styles.noteBand}>
          {t('support.thread.noteBand')} <span>{t('support.thread.noteHidden')}</span>
        </p>
      ) : null}
      <p className={styles.entryHeader}>
        <span className={styles.author}>{author}</span>
        <span className={styles.role}>
          {staff ? t('support.thread.staff') : t('support.thread.user')}
        </span>
        <time className={styles.time} dateTime={message.created_at}>
          {when}
        </time>
      </p>
      <p className={styles.body}>{message.body}</p>
      {message.attachments.length > 0 ? (
        <ul className={styles.attachments} aria-label={t('support.attachment.list')}>
          {message.attachments.map((attachment) => (
            <AttachmentItem key={attachment.id} attachment={attachment} />
          ))}
        </ul>
      ) : null}
    </article>
  );
}

/**
 * A file of a message: the re-encoded preview of an image (fetched with the operator's token,
 * shown from an object URL), its name and size, and its download.
 */
function AttachmentItem({ attachment }: { attachment: Attachment }) {
  const { t } = useTranslation('operator');
  const errorText = useOperatorError();
  const fileSize = useFileSize();
  const preview = useAuthorizedFileUrlQuery(previewPath(attachment.id), {
    skip: !attachment.has_preview,
  });
  const [download, downloading] = useDownloadAuthorizedFileMutation();
  const pdf = attachment.content_type === 'application/pdf';

  const save = async () => {
    try {
      await download({
        path: attachmentPath(attachment.id),
        fileName: attachment.file_name,
      }).unwrap();
    } catch (error) {
      notify('error', errorText.request(error));
    }
  };

  return (
    <li className={styles.attachment}>
      <span className={styles.thumbnail}>
        {attachment.has_preview && preview.data ? (
          <img
            src={preview.data}
            alt={t('support.attachment.preview', { name: attachment.file_name })}
          />
        ) : (
          <span aria-hidden="true">{pdf ? 'PDF' : t('support.attachment.image')}</span>
        )}
      </span>
      <Button
        variant="secondary"
        loading={downloading.isLoading}
        onClick={() => void save()}
        title={attachment.file_name}
      >
        <span className="visually-hidden">{t('support.attachment.download')}</span>{' '}
        {attachment.file_name}
      </Button>
      <span className={styles.fileSize}>{fileSize(attachment.size_bytes)}</span>
    </li>
  );
}
