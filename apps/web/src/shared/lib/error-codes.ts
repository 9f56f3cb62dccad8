import type { ErrorCode } from '@tradehost/contracts';
import english from '../../locales/en/errors.json';

/**
 * The API's error codes and their English texts, read from the console's own English texts
 * (locales/en/errors.json, which a test holds equal to the contracts' ERROR_MESSAGES): the first
 * view carries those texts once, not twice.
 */
const texts: Readonly<Record<string, string>> = english;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(texts, value);
}

/** The code whose English text is `message`, when there is one. */
export function errorCodeOf(message: string): ErrorCode | undefined {
  return (Object.keys(texts) as ErrorCode[]).find((code) => texts[code] === message);
}

/** The English text of a code. */
export const englishErrorText = (code: ErrorCode): string => texts[code]!;
