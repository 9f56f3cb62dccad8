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

/** C0 and C1 control characters and DEL, save the tab, line feed and carriage return of text. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** What breaks a line or spaces it out: tab, line feed, carriage return, U+2028 and U+2029. */
const LINE_BREAK = /[\t\n\r\u2028\u2029]/;
/**
 * What changes how a line reads without showing: the bidirectional controls (the embeddings and
 * overrides U+202A-U+202E, the isolates U+2066-U+2069, the marks LRM, RLM and ALM), which can
 * turn "live.com" into "moc.evil" on screen, and the invisible zero-width space, word joiner,
 * BOM and the rest of U+2060-U+206F, which can make two names look alike or hide a web address
 * from looksLikeWebAddress's eye. The zero-width (non-)joiners U+200C and U+200D stay: Persian
 * and Indic words, and emoji sequences like 👩‍💻, need them.
 */
const BIDI_OR_INVISIBLE = /[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u206f\ufeff]/;

/**
 * Whether a text is one line: no control character (C0, DEL, C1), no tab, no line break, no line
 * or paragraph separator, no bidirectional control or invisible space (BIDI_OR_INVISIBLE). Names,
 * labels, subjects and codes are; a mail's header, a CSV cell or a log line a stored one lands in
 * cannot be split or spoofed by it.
 */
export const isSingleLineText = (text: string): boolean =>
  !CONTROL_CHARACTER.test(text) && !LINE_BREAK.test(text) && !BIDI_OR_INVISIBLE.test(text);

/** Whether a text of several lines (a ticket's message) holds no control character but tab, LF, CR. */
export const isMultiLineText = (text: string): boolean => !CONTROL_CHARACTER.test(text);

/**
 * What a person's or an account's name may not hold, as it stands in mails sent to any address
 * ("YOUR ACCOUNT IS LOCKED. Unlock at https://..."): a scheme (`://`), `www.`, or a domain
 * followed by a path (`evil.com/`). "J. R. R. Tolkien", "Dr.Who" and "A/B test" stay names.
 */
const WEB_ADDRESS = /:\/\/|www\.|[\p{L}\p{N}-]\.\p{L}{2,}\//iu;
/** What a text holds but does not show (joiners, soft hyphens, variation selectors...). */
const NOT_SHOWN = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * Whether the text names a web address as it shows: a joiner or a soft hyphen inside `www.`
 * hides nothing from the reader, so nothing from this check either.
 */
export const looksLikeWebAddress = (text: string): boolean =>
  WEB_ADDRESS.test(text.replace(NOT_SHOWN, ''));

/**
 * The shared rule of every single-line text a request carries (names, labels, subjects,
 * wallets...): a check refusing what isSingleLineText refuses (a bidirectional control as any
 * other control character), with TEXT_NOT_SINGLE_LINE. Put it after `z.trim()`: the line breaks
 * (and a BOM) around a text are trimmed, those inside refused.
 */
export const singleLine = () =>
  z.refine<string>((text) => typeof text !== 'string' || isSingleLineText(text), {
    error: 'TEXT_NOT_SINGLE_LINE',
  });

/** The rule of texts of several lines (messages, answers, reasons): TEXT_CHARACTERS_INVALID. */
export const multiLine = () =>
  z.refine<string>((text) => typeof text !== 'string' || isMultiLineText(text), {
    error: 'TEXT_CHARACTERS_INVALID',
  });

/** A name's rule besides singleLine: no web address (looksLikeWebAddress), NAME_HAS_WEB_ADDRESS. */
export const noWebAddress = () =>
  z.refine<string>((text) => typeof text !== 'string' || !looksLikeWebAddress(text), {
    error: 'NAME_HAS_WEB_ADDRESS',
  });

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

/** What an operator gives for a decision the user or the audit log reads: 1 to 500 characters, lines. */
export const reasonField = () =>
  z
    .string({ error: 'REASON_REQUIRED' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'REASON_REQUIRED' }),
      z.maxLength(REASON_MAX, { error: 'REASON_TOO_LONG' }),
      multiLine(),
    );

/** A user as the operator's lists name them. */
export const personSchema = z.object({ id: z.int(), email: z.string(), name: z.string() });
