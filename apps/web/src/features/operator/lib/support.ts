import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MIME_TYPES,
  ATTACHMENTS_PER_MESSAGE,
  type Department,
} from '@tradehost/contracts';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** The reader's language as the help desk picks names and bodies by it. */
export function useReaderLanguage(): 'en' | 'ru' {
  const { i18n } = useTranslation();
  return (i18n.resolvedLanguage ?? i18n.language ?? 'en').startsWith('ru') ? 'ru' : 'en';
}

/** A department's name in the reader's language; "#id" for one the list does not (yet) have. */
export function useDepartmentName(departments: readonly Department[] | undefined) {
  const language = useReaderLanguage();
  return useCallback(
    (id: number) => {
      const department = departments?.find((one) => one.id === id);
      if (!department) return `#${id}`;
      return language === 'ru' ? department.name_ru : department.name_en;
    },
    [departments, language],
  );
}

/** "200 kB", "1.2 MB" ("1,2 МБ") in the reader's language. */
export function useFileSize() {
  const language = useReaderLanguage();
  return useCallback(
    (bytes: number) => {
      const [value, unit] =
        bytes >= 1024 * 1024
          ? [bytes / (1024 * 1024), 'megabyte']
          : [Math.max(1, Math.round(bytes / 1024)), 'kilobyte'];
      return new Intl.NumberFormat(language, {
        style: 'unit',
        unit,
        unitDisplay: 'short',
        maximumFractionDigits: 1,
      }).format(value);
    },
    [language],
  );
}

/**
 * What is wrong with the files chosen for a message, as the API would refuse them (it decides by
 * content; the browser only by the type the system gives, to save a useless upload).
 */
export function filesProblem(
  files: readonly File[],
): 'ATTACHMENTS_TOO_MANY' | 'ATTACHMENT_TOO_LARGE' | 'ATTACHMENT_FORMAT' | undefined {
  if (files.length > ATTACHMENTS_PER_MESSAGE) return 'ATTACHMENTS_TOO_MANY';
  if (files.some((file) => file.size > ATTACHMENT_MAX_BYTES)) return 'ATTACHMENT_TOO_LARGE';
  const types: readonly string[] = ATTACHMENT_MIME_TYPES;
  if (files.some((file) => !types.includes(file.type))) return 'ATTACHMENT_FORMAT';
  return undefined;
}

/** The attachments' routes of the help desk (served with the operator's token only). */
export const attachmentPath = (id: number) => `/admin/support/attachments/${id}`;
export const previewPath = (id: number) => `/admin/support/attachments/${id}/preview`;
