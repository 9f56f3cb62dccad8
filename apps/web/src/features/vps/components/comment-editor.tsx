import { COMMENT_MAX, type Server } from '@tradehost/contracts';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { errorText, fieldErrorText } from '../../../shared/lib/api-error';
import { StrokeIcon } from '../../../shared/ui/icon/stroke-icon';
import fieldStyles from '../../../shared/ui/form/field.module.css';
import { useUpdateVpsCommentMutation } from '../api/vps-api';
import { useVpsFormat } from '../lib/use-vps-format';
import styles from './vps.module.css';

/**
 * The reader's comment on a server, edited in place: a button showing it opens a field; Enter
 * or leaving the field saves (when it changed), Escape gives up. A refusal keeps the field open
 * with what was typed and says why; too long a comment is refused before it is sent.
 */
export function CommentEditor({ server }: { server: Server }) {
  const { t } = useVpsFormat();
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [save, { isLoading }] = useUpdateVpsCommentMutation();
  const inputRef = useRef<HTMLInputElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  /** Set while a save runs or after Escape: the blur that follows does nothing. */
  const settled = useRef(false);
  const wasEditing = useRef(false);

  useEffect(() => {
    if (editing) inputRef.current?.focus();
    else if (wasEditing.current) buttonRef.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  const open = () => {
    settled.current = false;
    setDraft(server.comment);
    setError(null);
    setEditing(true);
  };

  const close = () => {
    settled.current = true;
    setError(null);
    setEditing(false);
  };

  const commit = async () => {
    if (settled.current) return;
    const comment = draft.trim();
    if (comment === server.comment) {
      close();
      return;
    }
    if (comment.length > COMMENT_MAX) {
      setError(fieldErrorText(t, 'COMMENT_TOO_LONG') ?? null);
      return;
    }
    settled.current = true;
    try {
      await save({ id: server.id, comment }).unwrap();
      close();
    } catch (failure) {
      settled.current = false;
      setError(errorText(t, failure));
      inputRef.current?.focus();
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void commit();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    }
  };

  if (!editing) {
    return (
      <button
        ref={buttonRef}
        type="button"
        className={styles.commentButton}
        aria-label={
          server.comment
            ? t('comment.edit', { id: server.id, comment: server.comment })
            : t('comment.addTo', { id: server.id })
        }
        onClick={open}
      >
        {server.comment ? (
          <span className={styles.commentText}>{server.comment}</span>
        ) : (
          <span className={styles.muted}>{t('comment.add')}</span>
        )}
        <StrokeIcon
          className={styles.editIcon}
          size={14}
          strokeWidth={1.8}
          strokeLinecap="butt"
          d="M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4"
        />
      </button>
    );
  }

  const length = draft.trim().length;
  return (
    <div className={styles.commentEditor}>
      <input
        ref={inputRef}
        id={id}
        className={`${fieldStyles.input} ${styles.commentInput}`}
        value={draft}
        aria-label={t('comment.label', { id: server.id })}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error ${id}-hint` : `${id}-hint`}
        aria-busy={isLoading || undefined}
        readOnly={isLoading}
        autoComplete="off"
        onChange={(event) => {
          setDraft(event.target.value);
          if (error) setError(null);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => void commit()}
      />
      {error ? (
        <p id={`${id}-error`} className={fieldStyles.error} role="alert">
          {error}
        </p>
      ) : null}
      <p id={`${id}-hint`} className={length > COMMENT_MAX ? fieldStyles.error : fieldStyles.hint}>
        {isLoading ? t('comment.saving') : t('comment.hint', { length, max: COMMENT_MAX })}
      </p>
    </div>
  );
}
