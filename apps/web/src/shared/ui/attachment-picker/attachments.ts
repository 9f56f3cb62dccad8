import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MIME_TYPES,
  ATTACHMENTS_PER_MESSAGE,
} from '@tradehost/contracts';
import { numberFormat } from '../../lib/format-money';

export type AttachmentProblem =
  'ATTACHMENT_TOO_LARGE' | 'ATTACHMENT_FORMAT' | 'ATTACHMENTS_TOO_MANY';

const EXTENSIONS = ['.jpg', '.jpeg', '.png', '.gif', '.pdf'];

/**
 * Why a chosen file cannot be attached, or null (the server checks its content again). The type
 * the browser reports decides; a file it has no type for goes by its extension.
 */
export function attachmentProblem(file: File): AttachmentProblem | null {
  const known = file.type
    ? ATTACHMENT_MIME_TYPES.some((type) => type === file.type)
    : EXTENSIONS.some((extension) => file.name.toLowerCase().endsWith(extension));
  if (!known) return 'ATTACHMENT_FORMAT';
  if (file.size > ATTACHMENT_MAX_BYTES) return 'ATTACHMENT_TOO_LARGE';
  return null;
}

export interface Refusal {
  name: string;
  problem: AttachmentProblem;
}

/**
 * The files chosen added to those already there: the ones that pass, up to five in all, and
 * each one refused with its reason.
 */
export function addAttachments(
  current: readonly File[],
  picked: readonly File[],
): { files: File[]; refused: Refusal[] } {
  const files = [...current];
  const refused: Refusal[] = [];
  for (const file of picked) {
    const problem = attachmentProblem(file);
    if (problem) refused.push({ name: file.name, problem });
    else if (files.length >= ATTACHMENTS_PER_MESSAGE)
      refused.push({ name: file.name, problem: 'ATTACHMENTS_TOO_MANY' });
    else files.push(file);
  }
  return { files, refused };
}

/** "820 kB", "2.4 MB" ("2,4 МБ") in the reader's language (at least 1 kB). */
export function formatFileSize(bytes: number, language: string): string {
  const megabytes = bytes >= 1024 * 1024;
  return numberFormat(language, megabytes ? 'MB' : 'kB', {
    style: 'unit',
    unit: megabytes ? 'megabyte' : 'kilobyte',
    maximumFractionDigits: megabytes ? 1 : 0,
  }).format(megabytes ? bytes / (1024 * 1024) : Math.max(1, bytes / 1024));
}
