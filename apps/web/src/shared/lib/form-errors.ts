import { ERROR_MESSAGES, errorCodeOf, isErrorCode } from '@tradehost/contracts';
import type { TFunction } from 'i18next';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { isApiRequestError } from './api-error';

/**
 * Server failures on react-hook-form fields, for any form of the console. A field keeps an
 * error code (as the zod schemas of the contracts produce) when the server's text maps to one,
 * else the text; the field translates it as it renders, so a language switch applies at once.
 */
export function fieldErrorValue(message: string): string {
  return isErrorCode(message) ? message : (errorCodeOf(message) ?? message);
}

/** Whether a failed call carries `code` (by its code, or by the English text of that code). */
export function hasErrorCode(error: unknown, code: string): boolean {
  if (!isApiRequestError(error)) return false;
  return error.code === code || (error.message ? errorCodeOf(error.message) === code : false);
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
    return t(`errors:${message}`, { defaultValue: ERROR_MESSAGES[message] });
  return message;
}
