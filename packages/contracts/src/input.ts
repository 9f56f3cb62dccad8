import * as z from 'zod/mini';
import type { ErrorCode } from './error-codes.ts';

/**
 * The rules every input obeys whatever its schema says, so that no value the schemas accept can
 * fail in the database instead of being refused.
 */

/** A lone UTF-16 surrogate: half of a character, which no UTF-8 (so no PostgreSQL text) can hold. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Whether a text can be stored: it holds neither NUL (PostgreSQL's text and jsonb refuse it) nor a
 * lone surrogate. The API refuses any other in a body, query or path with TEXT_CHARACTERS_INVALID.
 */
export const isStorableText = (text: string): boolean =>
  !text.includes('\u0000') && !LONE_SURROGATE.test(text);

/**
 * The largest id of each kind of key column: `serial` (a PostgreSQL integer), and `bigserial` up
 * to what a JavaScript number holds exactly.
 */
export const ID_MAX = { serial: 2_147_483_647, bigserial: Number.MAX_SAFE_INTEGER } as const;

/** An id of a `column`-kind key: an integer from 1 to what the column holds, else `error`. */
export const idSchema = (column: keyof typeof ID_MAX, error: ErrorCode = 'NOT_FOUND') =>
  z.coerce
    .number({ error })
    .check(z.int({ error }), z.minimum(1, { error }), z.maximum(ID_MAX[column], { error }));

/** `:id` of a path naming a row with a bigserial key; out of range is 404 as no such row is. */
export const idParamsSchema = z.object({ id: idSchema('bigserial') });

/**
 * A price typed in dollars (a string or a number, up to 6 digits and 2 decimals, above 0), taken
 * as cents; anything else is AMOUNT_INVALID.
 */
export const priceCentsField = () =>
  z.pipe(
    z.union([z.string(), z.number()], { error: 'AMOUNT_INVALID' }),
    z.transform((value, ctx) => {
      const text = String(value).trim();
      if (!/^\d{1,6}(\.\d{1,2})?$/.test(text) || Number(text) <= 0) {
        ctx.issues.push({ code: 'custom', message: 'AMOUNT_INVALID', input: value });
        return 0;
      }
      return Math.round(Number(text) * 100);
    }),
  );

/** A discount in whole percent from `min` to 90, else DISCOUNT_INVALID. */
export const discountPercentField = (min: number) =>
  z.coerce
    .number({ error: 'DISCOUNT_INVALID' })
    .check(
      z.int({ error: 'DISCOUNT_INVALID' }),
      z.minimum(min, { error: 'DISCOUNT_INVALID' }),
      z.maximum(90, { error: 'DISCOUNT_INVALID' }),
    );

export const REASON_MAX = 500;

/** What an operator gives for a decision the user or the audit log reads: 1 to 500 characters. */
export const reasonField = () =>
  z
    .string({ error: 'REASON_REQUIRED' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'REASON_REQUIRED' }),
      z.maxLength(REASON_MAX, { error: 'REASON_TOO_LONG' }),
    );

/** A user as the operator's lists name them. */
export const personSchema = z.object({ id: z.int(), email: z.string(), name: z.string() });
