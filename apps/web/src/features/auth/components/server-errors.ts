import { errorCodeOf, isErrorCode } from '@tradehost/contracts';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';

/** What the base API makes of a failed call (RTK Query's `.unwrap()` rejects with it). */
export interface NormalisedApiError {
  status: number | string;
  code?: string;
  message?: string;
  errors?: Record<string, string[]>;
}

export function asApiError(error: unknown): NormalisedApiError | undefined {
  if (typeof error === 'object' && error !== null && 'status' in error) {
    return error as NormalisedApiError;
  }
  return undefined;
}

export function hasCode(error: unknown, code: string): boolean {
  const apiError = asApiError(error);
  return (
    apiError?.code === code || (apiError?.message ? errorCodeOf(apiError.message) === code : false)
  );
}

/**
 * How a field error is kept in react-hook-form: an error code (as the zod
 * schemas produce) when the server's text maps to one, the text otherwise; the
 * field translates it when it renders, so a language switch applies at once.
 */
export function fieldErrorValue(message: string): string {
  return isErrorCode(message) ? message : (errorCodeOf(message) ?? message);
}

/**
 * Puts each 422 `errors` entry on its field and returns the first field (in
 * form order) that got one, for the focus.
 */
export function applyFieldErrors<T extends FieldValues>(
  error: unknown,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
): Path<T> | undefined {
  const fieldErrors = asApiError(error)?.errors;
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
