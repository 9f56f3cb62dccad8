import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { ApiError } from '@tradehost/contracts';
import type { TFunction } from 'i18next';
import type { FieldValues, Path, UseFormSetError, UseFormSetFocus } from 'react-hook-form';
import { englishErrorText, errorCodeOf, isErrorCode } from './error-codes';

/** The code of a call that never got an answer (offline, DNS, CORS, server down). */
export const NETWORK_ERROR_CODE = 'NETWORK';

/**
 * Every failed call, as the base API hands it to the components: the API's error body
 * `{message, code, errors?}` and the HTTP status (0 when there was no answer). The body's other
 * fields (a 409 TICKET_OPEN_EXISTS's `ticket_id`) are kept in `details`; `errorBody` reads them.
 */
export interface ApiRequestError extends ApiError {
  status: number;
  /** The error body's fields beside message, code and errors; absent when it has none. */
  details?: Record<string, unknown>;
}

export function isApiRequestError(value: unknown): value is ApiRequestError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ApiRequestError).status === 'number' &&
    typeof (value as ApiRequestError).code === 'string'
  );
}

const STATUS_CODES: Record<number, string> = {
  400: 'VALIDATION',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'VALIDATION',
  429: 'TOO_MANY_REQUESTS',
};

function codeForStatus(status: number): string {
  return STATUS_CODES[status] ?? 'INTERNAL';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fieldErrors(value: unknown): Record<string, string[]> | undefined {
  if (!isRecord(value)) return undefined;
  const result: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(value)) {
    const texts = (Array.isArray(messages) ? messages : [messages]).filter(
      (message): message is string => typeof message === 'string',
    );
    if (texts.length > 0) result[field] = texts;
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

/**
 * RTK Query's fetch error as an ApiRequestError. A body in the API's shape is kept as it is; an
 * answer without one (a proxy's HTML page, an empty 502) gets the code of its status; a body with
 * a message but no code keeps the message under the code UNKNOWN so that it is what shows.
 */
export function toApiRequestError(error: FetchBaseQueryError): ApiRequestError {
  if (error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR') {
    return { status: 0, code: NETWORK_ERROR_CODE, message: error.error };
  }
  if (error.status === 'CUSTOM_ERROR') {
    return { status: 0, code: 'INTERNAL', message: error.error };
  }
  const status = error.status === 'PARSING_ERROR' ? error.originalStatus : error.status;
  const body = isRecord(error.data) ? error.data : {};
  const message = typeof body.message === 'string' ? body.message : '';
  const code =
    typeof body.code === 'string' && body.code
      ? body.code
      : status === 429 || !message
        ? codeForStatus(status)
        : 'UNKNOWN';
  const errors = fieldErrors(body.errors);
  const { message: _message, code: _code, errors: _errors, ...details } = body;
  return {
    status,
    code,
    message,
    ...(errors ? { errors } : {}),
    ...(Object.keys(details).length > 0 ? { details } : {}),
  };
}

/** A schema of an error body (a contract's zod schema): what `errorBody` checks against. */
export interface ErrorBodySchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

/**
 * A failed call's whole body (message and code with the details beside them) as `schema` reads
 * it, or undefined when the call failed otherwise: `errorBody(error, ticketOpenConflictSchema)`
 * gives the open ticket's `ticket_id` of a 409 TICKET_OPEN_EXISTS.
 */
export function errorBody<T>(error: unknown, schema: ErrorBodySchema<T>): T | undefined {
  if (!isApiRequestError(error)) return undefined;
  const { status: _status, details, ...fields } = error;
  const parsed = schema.safeParse({ ...details, ...fields });
  return parsed.success ? parsed.data : undefined;
}

const MISSING = '\u0000missing';

function codeAndMessage(error: unknown): { code?: string; message?: string } {
  if (typeof error === 'string') return isErrorCode(error) ? { code: error } : { message: error };
  if (!isRecord(error)) return {};
  return {
    code: typeof error.code === 'string' ? error.code : undefined,
    message: typeof error.message === 'string' ? error.message : undefined,
  };
}

/**
 * The reader's text for a failed call (or a bare error code or server text): the translation of
 * `errors:<code>`, else the server's message (translated when it is one of the known English
 * texts), else `Request {{name}} failure`. Any `t` works: the keys carry their namespaces.
 */
export function errorText(t: TFunction, error: unknown, name?: string): string {
  const { code, message } = codeAndMessage(error);
  if (code) {
    const text = t(`errors:${code}`, { defaultValue: MISSING });
    if (text !== MISSING) return text;
  }
  if (message) return serverText(t, message);
  return name ? t('common:requestFailure', { name }) : t('common:requestFailed');
}

/**
 * A text the server wrote for the reader (a payment's reason: an operator's own words, or the
 * system's English text of an error code, as a crypto payment refused by the explorer has): in
 * the reader's language when it is one of the API's English texts, else as written.
 */
export function serverText(t: TFunction, text: string): string {
  const known = errorCodeOf(text);
  return known ? t(`errors:${known}`, { defaultValue: text }) : text;
}

/*
 * A failed call on a react-hook-form form, for any form of the console. A field keeps an error
 * code (as the zod schemas of the contracts produce) when the server's text maps to one, else
 * the text; the field translates it as it renders, so a language switch applies at once.
 */

/** How a server's field message is kept on its field: its error code, else the text. */
export function fieldErrorValue(message: string): string {
  return isErrorCode(message) ? message : (errorCodeOf(message) ?? message);
}

/** Whether a failed call carries `code` (by its code, or by the English text of that code). */
export function hasErrorCode(error: unknown, code: string): boolean {
  if (!isApiRequestError(error)) return false;
  return error.code === code || (error.message ? errorCodeOf(error.message) === code : false);
}

/** The parts of a react-hook-form form a failed submit writes to. */
export interface FailingForm<T extends FieldValues> {
  /** The fields in form order: the first that gets a server error takes the focus. */
  fields: readonly Path<T>[];
  setError: UseFormSetError<T>;
  setFocus: UseFormSetFocus<T>;
}

/**
 * Puts each entry of a 422's `errors` on its field and returns the first field (in form order)
 * that got one, for the focus.
 */
export function applyFieldErrors<T extends FieldValues>(
  error: unknown,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
): Path<T> | undefined {
  const fieldErrors = isApiRequestError(error) ? error.errors : undefined;
  if (!fieldErrors) return undefined;
  let first: Path<T> | undefined;
  for (const field of fields) {
    const message = fieldErrors[field]?.[0];
    if (!message) continue;
    setError(field, { type: 'server', message: fieldErrorValue(message) });
    first ??= field;
  }
  return first;
}

/** A field's message in the reader's language: an error code's translation, else the text. */
export function fieldErrorText(t: TFunction, message: string | undefined): string | undefined {
  if (!message) return undefined;
  if (isErrorCode(message))
    return t(`errors:${message}`, { defaultValue: englishErrorText(message) });
  return message;
}
