import { useCallback, useEffect, useMemo, useState } from 'react';
import type { FaqEntry } from './faq-entries';
import type * as FaqSearch from './faq-search';
import type { FaqHit, Segment } from './faq-search';

type SearchModule = typeof FaqSearch;

let pending: Promise<SearchModule> | null = null;
let loaded: SearchModule | null = null;

/**
 * The search module (minisearch and the stemmers) in a chunk of its own, fetched once: the page
 * renders without it and asks for it when the reader turns to the search box or arrives with a
 * query. A failed fetch may be tried again.
 */
export function loadFaqSearch(): Promise<SearchModule> {
  pending ??= import('./faq-search').then(
    (module) => (loaded = module),
    (error: unknown) => {
      pending = null;
      throw error;
    },
  );
  return pending;
}

/** A hit with its highlighting at hand: the text cut into marked and plain pieces. */
export interface FaqResult extends FaqHit {
  highlight: (text: string) => Segment[];
  excerpt: Segment[];
}

export type FaqSearchState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'failed'; retry: () => void }
  | { status: 'ready'; results: FaqResult[] };

/**
 * The questions matching `query`, best first, from an index of `entries` (one language's; a
 * switch of language builds the other's). `wanted` starts fetching the search before there is
 * a query (the reader is about to type).
 */
export function useFaqSearch(
  entries: readonly FaqEntry[] | undefined,
  query: string,
  wanted: boolean,
): FaqSearchState {
  const [module, setModule] = useState<SearchModule | null>(loaded);
  const [failed, setFailed] = useState(false);
  const active = query.trim() !== '';
  const need = !module && !failed && (wanted || active);

  useEffect(() => {
    if (!need) return;
    let live = true;
    loadFaqSearch().then(
      (search) => live && setModule(search),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [need]);

  const retry = useCallback(() => setFailed(false), []);
  const index = useMemo(
    () => (module && entries ? module.createFaqIndex(entries) : null),
    [module, entries],
  );
  const results = useMemo(() => {
    if (!module || !index || !active) return [];
    return index.search(query).map((hit) => ({
      ...hit,
      highlight: (text: string) => module.highlight(text, hit.matched),
      excerpt: module.excerpt(hit.entry.answer, hit.matched),
    }));
  }, [module, index, query, active]);

  if (!active) return { status: 'idle' };
  if (failed) return { status: 'failed', retry };
  if (!index) return { status: 'loading' };
  return { status: 'ready', results };
}
