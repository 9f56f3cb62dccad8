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
