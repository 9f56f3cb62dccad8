import type { Department, TicketStatus } from '@tradehost/contracts';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../shared/lib/format-date';
import { formatFileSize } from '../../../shared/ui/attachment-picker/attachments';
import type { StatusTone } from '../../../shared/ui/status-badge/status-badge';

export const STATUS_TONES: Record<TicketStatus, StatusTone> = {
  new: 'info',
  processing: 'pending',
  closed: 'neutral',
};

/** The support texts and formats in the reader's language: moments, file sizes, departments. */
export function useSupportFormat() {
  const { t, i18n } = useTranslation('support');
  const language = i18n.language;
  return {
    t,
    language,
    dateTime: (iso: string) => formatDateTime(iso, language),
    /** "820 kB", "2.4 MB" (at least 1 kB). */
    size: (bytes: number) => formatFileSize(bytes, language),
    /** The department's name in the reader's language. */
    department: (department: Department | undefined) =>
      department ? (language === 'ru' ? department.name_ru : department.name_en) : '—',
    status: (status: TicketStatus) => t(`statuses.${status}`),
  };
}

export type SupportFormat = ReturnType<typeof useSupportFormat>;
