import {
  ATTACHMENT_ACCEPT,
  ATTACHMENT_MAX_BYTES,
  ATTACHMENTS_PER_MESSAGE,
} from '@tradehost/contracts';
import { useId, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { joinIds } from '../form/field-ids';
import { buttonClassName } from '../form/button-styles';
import { FormAlert } from '../form/form-alert';
import { ICON_PATHS, StrokeIcon } from '../icon/stroke-icon';
import { addAttachments, formatFileSize, type Refusal } from './attachments';
import styles from './attachment-picker.module.css';

export interface AttachmentPickerProps {
  files: File[];
  onChange: (files: File[]) => void;
  disabled?: boolean;
  /** The file input's id (to move the focus there, e.g. after the server refused the files). */
  id?: string;
  /** The server's refusal of the files sent, shown under the picker and read with it. */
  error?: string;
}

/**
 * Files for a message (a user's ticket, an operator's reply): a picker styled as a button in
 * the reader's language (JPEG, PNG, GIF or PDF, each up to 5 MB, five at most, checked here
 * first and by the server on their content), the chosen ones by name and size, each removable
 * before sending, and what was refused and why (announced, and read with the picker).
 */
export function AttachmentPicker({
  files,
  onChange,
  disabled = false,
  id,
  error,
}: AttachmentPickerProps) {
  const { t, i18n } = useTranslation('controls');
  const ownId = useId();
  const inputId = id ?? ownId;
  const rulesId = useId();
  const refusedId = useId();
  const errorId = useId();
  const [refused, setRefused] = useState<Refusal[]>([]);
  const full = files.length >= ATTACHMENTS_PER_MESSAGE;
  const size = (bytes: number) => formatFileSize(bytes, i18n.language);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = [...(event.target.files ?? [])];
    event.target.value = ''; // the same file chosen again is a change too
    if (picked.length === 0) return;
    const result = addAttachments(files, picked);
    setRefused(result.refused);
    if (result.files.length !== files.length) onChange(result.files);
  };

  const remove = (index: number) => {
    setRefused([]);
    onChange(files.filter((_, i) => i !== index));
  };

  return (
    <div className={styles.attachments}>
      <div className={styles.pickerRow}>
        <input
          id={inputId}
          type="file"
          multiple
          accept={ATTACHMENT_ACCEPT}
          className={`visually-hidden ${styles.fileInput}`}
          aria-describedby={joinIds(
            rulesId,
            refused.length > 0 ? refusedId : undefined,
            error ? errorId : undefined,
          )}
          aria-invalid={refused.length > 0 || error ? true : undefined}
          disabled={disabled || full}
          onChange={choose}
        />
        <label
          htmlFor={inputId}
          className={buttonClassName({ variant: 'secondary', className: styles.pickerButton })}
          data-disabled={disabled || full || undefined}
        >
          <StrokeIcon
            size={16}
            strokeWidth={1.8}
            d="M20 11.5l-7.8 7.8a5 5 0 0 1-7.1-7.1l8.5-8.5a3.3 3.3 0 0 1 4.7 4.7l-8.5 8.5a1.7 1.7 0 0 1-2.4-2.4l7.8-7.8"
          />
          {t('attachments.choose')}
        </label>
        <p id={rulesId} className={styles.muted}>
          {t('attachments.rules', {
            count: ATTACHMENTS_PER_MESSAGE,
            size: size(ATTACHMENT_MAX_BYTES),
          })}
        </p>
      </div>
      {refused.length > 0 ? (
        <FormAlert tone="error">
          <ul id={refusedId} className={styles.refusals}>
            {refused.map((refusal, index) => (
              <li key={`${refusal.name}-${index}`}>
                {t('attachments.refused', {
                  name: refusal.name,
                  reason: t(`errors:${refusal.problem}`),
                })}
              </li>
            ))}
          </ul>
        </FormAlert>
      ) : null}
      {error ? (
        <FormAlert tone="error">
          <p id={errorId}>{error}</p>
        </FormAlert>
      ) : null}
      {files.length > 0 ? (
        <ul className={styles.chosen} aria-label={t('attachments.chosen')}>
          {files.map((file, index) => (
            <li key={`${file.name}-${file.size}-${index}`} className={styles.chosenFile}>
              <span className={styles.fileName}>{file.name}</span>
              <span className={styles.muted}>{size(file.size)}</span>
              <button
                type="button"
                className={styles.removeFile}
                aria-label={t('attachments.remove', { name: file.name })}
                disabled={disabled}
                onClick={() => remove(index)}
              >
                <StrokeIcon size={16} d={ICON_PATHS.close} />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
