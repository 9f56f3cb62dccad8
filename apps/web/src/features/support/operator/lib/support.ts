import type { Department } from '@tradehost/contracts';
import { useCallback } from 'react';
import { useReaderLanguage } from '../../../operator/lib/reader-language';

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

/** The attachments' routes of the help desk (served with the operator's token only). */
export const attachmentPath = (id: number) => `/admin/support/attachments/${id}`;
export const previewPath = (id: number) => `/admin/support/attachments/${id}/preview`;
