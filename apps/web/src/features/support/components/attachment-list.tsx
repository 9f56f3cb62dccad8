import type { Attachment } from '@tradehost/contracts';
import {
  useAuthorizedFileUrlQuery,
  useDownloadAuthorizedFileMutation,
} from '../../../shared/api/authorized-file';
import { errorText } from '../../../shared/lib/api-error';
import { notify } from '../../../shared/ui/toast/notify';
import { useSupportFormat } from '../lib/use-support-format';
import { StrokeIcon } from '../../../shared/ui/icon/stroke-icon';
import styles from './support.module.css';

const THUMB_WIDTH = 160;
const THUMB_HEIGHT = 120;

export const attachmentPath = (id: number) => `/user/support/attachments/${id}`;
export const previewPath = (id: number) => `/user/support/attachments/${id}/preview`;

/** The thumbnail's box: the picture's proportions within 160 × 120. */
function thumbSize(attachment: Attachment): { width: number; height: number } {
  const { width, height } = attachment;
  if (!width || !height) return { width: THUMB_WIDTH, height: THUMB_HEIGHT };
  const scale = Math.min(THUMB_WIDTH / width, THUMB_HEIGHT / height, 1);
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/**
 * An image's preview (re-encoded by the server). The API wants the bearer token, which an
 * <img src> cannot send: the picture comes as an object URL (shared/api/authorized-file).
 */
function Thumbnail({ attachment }: { attachment: Attachment }) {
  const { t } = useSupportFormat();
  const { data: url, isError } = useAuthorizedFileUrlQuery(previewPath(attachment.id));
  const size = thumbSize(attachment);
  if (url)
    return (
      <img
        className={styles.thumb}
        src={url}
        alt={t('files.preview', { name: attachment.file_name })}
        width={size.width}
        height={size.height}
      />
    );
  return (
    <span
      className={`${styles.thumb} ${styles.thumbPending}`}
      style={{ width: size.width, height: size.height }}
      role="img"
      aria-label={
        isError
          ? t('files.previewFailed', { name: attachment.file_name })
          : t('files.previewLoading', { name: attachment.file_name })
      }
    />
  );
}

function FileIcon() {
  return (
    <StrokeIcon
      className={styles.fileIcon}
      size={20}
      strokeWidth={1.6}
      d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8zM14 3v5h5M9 13h6M9 17h6"
    />
  );
}

/**
 * The files of a message: images with a thumbnail, every file (a PDF, the original image) as a
 * download by name and size. Nothing is opened in the page: a file is only ever saved.
 */
export function AttachmentList({ attachments }: { attachments: Attachment[] }) {
  const f = useSupportFormat();
  const { t } = f;
  const [download, { isLoading, originalArgs }] = useDownloadAuthorizedFileMutation();
  if (attachments.length === 0) return null;
  const save = (path: string, fileName: string) =>
    download({ path, fileName })
      .unwrap()
      .catch((error: unknown) => notify('error', errorText(t, error)));
  return (
    <ul className={styles.files} aria-label={t('thread.files')}>
      {attachments.map((attachment) => {
        const path = attachmentPath(attachment.id);
        const busy = isLoading && originalArgs?.path === path;
        return (
          <li key={attachment.id} className={styles.file}>
            {attachment.has_preview ? <Thumbnail attachment={attachment} /> : null}
            <button
              type="button"
              className={styles.download}
              aria-busy={busy || undefined}
              aria-label={t('files.download', {
                name: attachment.file_name,
                size: f.size(attachment.size_bytes),
              })}
              onClick={() => void save(path, attachment.file_name)}
            >
              <FileIcon />
              <span className={styles.fileName}>{attachment.file_name}</span>
              <span className={styles.muted}>{f.size(attachment.size_bytes)}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
