/** Paged lists: the rows of a page, the `meta` of the answer, and a LIKE pattern from typed text. */

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
