import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MAX_PIXELS,
  ATTACHMENT_NAME_MAX,
  ATTACHMENT_PREVIEW_SIDE,
  ATTACHMENTS_PER_MESSAGE,
  characterCount,
  isErrorCode,
  isStorableText,
  type ErrorCode,
} from '@tradehost/contracts';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import type * as z from 'zod/mini';
import { AppError, fieldError, fieldErrors } from '../../lib/errors.ts';

/**
 * Ticket attachments on their way in: the multipart form read within its limits, each file
 * checked by its content (never its name or declared type), images decoded and re-encoded for
 * their preview, and the name cleaned; and the headers they go out with.
 */

export type AttachmentType = 'image/jpeg' | 'image/png' | 'image/gif' | 'application/pdf';

/** Room for the boundaries, part headers and text fields around the largest allowed files. */
const MULTIPART_OVERHEAD = 64 * 1024;
/** The largest body a ticket form can be: five files of the largest size and its fields. */
export const FORM_MAX_BYTES = ATTACHMENTS_PER_MESSAGE * ATTACHMENT_MAX_BYTES + MULTIPART_OVERHEAD;

/**
 * The parser's limits (@fastify/multipart ignores `bodyLimit`): a file stops being read at
 * ATTACHMENT_MAX_BYTES (413 ATTACHMENT_TOO_LARGE, never buffered whole), a sixth file is refused,
 * and fields are few and short (a user's text is at most 4 KB in UTF-8, a staff reply 32 KB).
 */
export const MULTIPART_LIMITS = {
  fileSize: ATTACHMENT_MAX_BYTES,
  files: ATTACHMENTS_PER_MESSAGE,
  fields: 4,
  parts: ATTACHMENTS_PER_MESSAGE + 5,
  fieldNameSize: 100,
  fieldSize: 40 * 1024,
  headerPairs: 20,
};

const WEBP_QUALITY = 80;

/** Where an upload's error is shown: on the form's file picker. */
const filesError = (status: number, code: ErrorCode) => fieldError(status, 'files', code);

/**
 * Before a byte of the body is read: a ticket form is multipart (415 otherwise) and, when it says
 * its length, no larger than five files of the largest size can be (413). A body without a
 * length (chunked) is cut off by the parser's limits as it streams instead.
 */
export async function screenForm(request: FastifyRequest) {
  if (!/^multipart\/form-data\b/i.test(request.headers['content-type'] ?? ''))
    throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE');
  const length = Number(request.headers['content-length']);
  if (length > FORM_MAX_BYTES) throw new AppError(413, 'PAYLOAD_TOO_LARGE');
}

/** One uploaded file as the form carried it. */
export interface Upload {
  /** The name the browser sent (uncleaned). */
  name: string;
  bytes: Buffer;
}

/** The text fields (the first of each name) and the files of a form. */
export interface SupportForm {
  fields: Record<string, unknown>;
  /** Fields longer than the parser takes (the rest was cut off). */
  truncated: Set<string>;
  files: Upload[];
}

/**
 * Reads the whole form within MULTIPART_LIMITS: at most ATTACHMENTS_PER_MESSAGE files of at most
 * ATTACHMENT_MAX_BYTES each are ever held. A browser's empty file input (no name, no bytes) is no
 * file.
 */
export async function readForm(request: FastifyRequest): Promise<SupportForm> {
  const errors = request.server.multipartErrors;
  const form: SupportForm = { fields: {}, truncated: new Set(), files: [] };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (bytes.length === 0 && !part.filename) continue;
        form.files.push({ name: part.filename ?? '', bytes });
      } else if (!(part.fieldname in form.fields)) {
        // a JSON part is parsed by the plugin: a field is text, anything else is no value
        form.fields[part.fieldname] = typeof part.value === 'string' ? part.value : undefined;
        if (part.valueTruncated) form.truncated.add(part.fieldname);
      }
    }
    return form;
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof errors.RequestFileTooLargeError)
      throw filesError(413, 'ATTACHMENT_TOO_LARGE');
    if (error instanceof errors.FilesLimitError) throw filesError(422, 'ATTACHMENTS_TOO_MANY');
    if (error instanceof errors.PartsLimitError || error instanceof errors.FieldsLimitError)
      throw new AppError(413, 'PAYLOAD_TOO_LARGE');
    // busboy's own failures (a body that is no multipart form) carry no status
    if (error instanceof Error && !('statusCode' in error)) throw new AppError(400, 'BAD_REQUEST');
    throw error;
  }
}

/**
 * The form's text fields checked by `schema` (the same contract the console's form uses): 422
 * with every field's code, the way JSON bodies are answered. Line breaks are LF (a form sends
 * CR LF). A field cut off by the parser is too long (`tooLong` names its code); a text PostgreSQL
 * cannot hold is TEXT_CHARACTERS_INVALID.
 */
export function formFields<S extends z.ZodMiniObject>(
  schema: S,
  form: SupportForm,
  tooLong: Record<string, ErrorCode>,
): z.output<S> {
  const input: Record<string, unknown> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = form.fields[key];
    if (form.truncated.has(key)) throw fieldError(422, key, tooLong[key] ?? 'VALIDATION');
    if (typeof value === 'string' && !isStorableText(value))
      throw fieldError(422, key, 'TEXT_CHARACTERS_INVALID');
    // a form sends each line break as CR LF; the console counted a textarea's LF as one character
    if (typeof value === 'string') input[key] = value.replace(/\r\n?/g, '\n');
  }
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw fieldErrors(
    422,
    parsed.error.issues.map((issue) => [
      issue.path.join('.'),
      isErrorCode(issue.message) ? issue.message : 'VALIDATION',
    ]),
  );
}

// ---- names -------------------------------------------------------------------------------------

const EXTENSIONS: Record<AttachmentType, { ext: string; also: string[] }> = {
  'image/jpeg': { ext: 'jpg', also: ['jpeg', 'jpe', 'jfif'] },
  'image/png': { ext: 'png', also: [] },
  'image/gif': { ext: 'gif', also: [] },
  'application/pdf': { ext: 'pdf', also: [] },
};

/** Control and format characters (bidirectional overrides among them) and line separators. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** The first `max` characters (code points) of `text`. */
const firstCharacters = (text: string, max: number) => Array.from(text).slice(0, max).join('');

/**
 * The name a file is shown and downloaded under: the last segment of what the browser sent (no
 * directories: `../../x.png` is `x.png`), without control or format characters, its extension
 * the one of its content (`page.html` that is a PNG is `page.html.png`), at most
 * ATTACHMENT_NAME_MAX characters, `file` when nothing is left. Never a path: files are stored
 * under generated keys.
 */
export function cleanFileName(raw: string, type: AttachmentType): string {
  // browsers send `"`, CR and LF of a name as %22, %0D and %0A (the HTML form encoding)
  const sent = raw.replace(/%(22|0D|0A)/gi, (code) => decodeURIComponent(code));
  const base = sent.split(/[/\\]/).pop() ?? '';
  const name = base
    .normalize('NFC')
    .replace(/\s+/g, ' ')
    .replace(INVISIBLE, '')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  const { ext, also } = EXTENSIONS[type];
  const dot = name.lastIndexOf('.');
  const given = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  const matches = given === ext || also.includes(given);
  const stem = (matches ? name.slice(0, dot) : name) || 'file';
  const suffix = matches ? name.slice(dot) : `.${ext}`;
  const room = ATTACHMENT_NAME_MAX - characterCount(suffix);
  return `${firstCharacters(stem, room).trimEnd()}${suffix}`;
}

/**
 * A Content-Disposition header naming `name` safely: an ASCII fallback with anything unusual
 * replaced, and the exact name as RFC 5987 `filename*` (UTF-8, percent-encoded).
 */
export function contentDisposition(kind: 'attachment' | 'inline', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

// ---- content -------------------------------------------------------------------------------------

/** An upload that passed every check, ready to be stored. */
export interface CheckedAttachment {
  fileName: string;
  contentType: AttachmentType;
  /** The extension of the stored file (by content). */
  extension: string;
  bytes: Buffer;
  /** A re-encoded WebP of an image (at most ATTACHMENT_PREVIEW_SIDE a side, no metadata); none for a PDF. */
  preview: Buffer | null;
  width: number | null;
  height: number | null;
}

const IMAGE_TYPES: Record<string, AttachmentType> = {
  'image/jpeg': 'image/jpeg',
  'image/png': 'image/png',
  // an animated PNG is a PNG (its first frame is the preview)
  'image/apng': 'image/png',
  'image/gif': 'image/gif',
};
/** What libvips calls each format it must see in an image of that type. */
const SHARP_FORMATS: Record<string, AttachmentType> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
};

/** A PDF starts with its header, `%PDF-` and the version. */
const PDF_HEADER = /^%PDF-\d\.\d/;

async function checkImage(bytes: Buffer, type: AttachmentType) {
  // the header only (no pixels): the size is judged here, with a code of its own
  const header = await sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch(() => {
      throw filesError(422, 'ATTACHMENT_UNREADABLE');
    });
  // libvips reads by content too: what it sees must be what the magic bytes said
  if (SHARP_FORMATS[header.format] !== type) throw filesError(422, 'ATTACHMENT_FORMAT');
  if (!header.width || !header.height) throw filesError(422, 'ATTACHMENT_UNREADABLE');
  if (header.width * header.height > ATTACHMENT_MAX_PIXELS)
    throw filesError(422, 'ATTACHMENT_DIMENSIONS');
  try {
    // every pixel decoded (a damaged file is refused) and only the pixels written out: whatever
    // the file carries besides (a script appended to a GIF, EXIF with a location) is left behind
    const preview = await sharp(bytes, {
      limitInputPixels: ATTACHMENT_MAX_PIXELS,
      failOn: 'warning',
    })
      .rotate()
      .resize(ATTACHMENT_PREVIEW_SIDE, ATTACHMENT_PREVIEW_SIDE, {
        fit: 'inside',
        withoutEnlargement: true,
      })
      .webp({ quality: WEBP_QUALITY })
      .toBuffer();
    return { preview, width: header.autoOrient.width, height: header.autoOrient.height };
  } catch {
    throw filesError(422, 'ATTACHMENT_UNREADABLE');
  }
}

/**
 * Checks an upload by its content: a JPEG, PNG or GIF that decodes (and has at most
 * ATTACHMENT_MAX_PIXELS) with its preview made, or a PDF by its header. Refuses (422 on `files`)
 * an empty file, any other kind of file whatever its name (an HTML page or an SVG named .png, a
 * text named .pdf), an image too large or damaged.
 */
export async function checkAttachment(upload: Upload): Promise<CheckedAttachment> {
  const { bytes } = upload;
  if (bytes.length === 0) throw filesError(422, 'ATTACHMENT_UNREADABLE');
  if (bytes.length > ATTACHMENT_MAX_BYTES) throw filesError(413, 'ATTACHMENT_TOO_LARGE');
  const detected = await fileTypeFromBuffer(bytes);
  if (detected?.mime === 'application/pdf') {
    if (!PDF_HEADER.test(bytes.subarray(0, 16).toString('latin1')))
      throw filesError(422, 'ATTACHMENT_FORMAT');
    const contentType = 'application/pdf';
    return {
      fileName: cleanFileName(upload.name, contentType),
      contentType,
      extension: EXTENSIONS[contentType].ext,
      bytes,
      preview: null,
      width: null,
      height: null,
    };
  }
  const contentType = detected ? IMAGE_TYPES[detected.mime] : undefined;
  if (!contentType) throw filesError(422, 'ATTACHMENT_FORMAT');
  const image = await checkImage(bytes, contentType);
  return {
    fileName: cleanFileName(upload.name, contentType),
    contentType,
    extension: EXTENSIONS[contentType].ext,
    bytes,
    ...image,
  };
}

/** Every upload checked, one after the other (each decode holds its pixels), before any is stored. */
export async function checkAttachments(uploads: Upload[]): Promise<CheckedAttachment[]> {
  if (uploads.length > ATTACHMENTS_PER_MESSAGE) throw filesError(422, 'ATTACHMENTS_TOO_MANY');
  const checked: CheckedAttachment[] = [];
  for (const upload of uploads) checked.push(await checkAttachment(upload));
  return checked;
}
