import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** Paged lists: the rows of a page, the `meta` of the answer, and searches from typed text. */

export interface Paging {
  limit: number;
  offset: number;
}

/** The rows of page `page` (from 1) of `perPage` rows. */
export const pagingOf = (page: number, perPage: number): Paging => ({
  limit: perPage,
  offset: (page - 1) * perPage,
});

/** The `meta` of a page of the API (contracts: pageMetaSchema). */
export const pageMeta = (page: number, perPage: number, total: number) => ({
  page,
  per_page: perPage,
  total,
});

/** A LIKE pattern matching `text` anywhere, its own % _ and \ taken literally. */
export const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A search box's text when it is a number (up to 19 digits): what ids and logins are searched by. */
export const digitsOf = (search: string): string | undefined =>
  /^\d{1,19}$/.test(search) ? search : undefined;

/** `column` (a number) starts with `digits`; nothing to match when there are none. */
export const startsWithDigits = (
  column: AnyPgColumn,
  digits: string | undefined,
): SQL | undefined => (digits ? sql`${column}::text like ${`${digits}%`}` : undefined);
