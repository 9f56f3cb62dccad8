import { FAQ_GROUPS, type FaqGroup } from '@tradehost/contracts';
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { errorText } from '../../../shared/lib/api-error';
import { Button, FormAlert, TextField } from '../../../shared/ui/form';
import { Page, useDocumentTitle } from '../../../shared/ui/page/page';
import segments from '../../../shared/ui/segments/segments.module.css';
import { EmptyState, ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { useGetFaqQuery } from '../api/faq-api';
import { ContactSupport } from '../components/contact-support';
import { FaqQuestion } from '../components/faq-question';
import styles from '../components/faq.module.css';
import { entriesFor, faqLanguage, type FaqEntry } from '../lib/faq-entries';
import { useFaqSearch, type FaqResult } from '../lib/use-faq-search';

/** How long the search waits for the typing to pause before it runs (and the address follows). */
export const SEARCH_DEBOUNCE_MS = 250;

const isGroup = (value: string | null): value is FaqGroup =>
  value !== null && (FAQ_GROUPS as readonly string[]).includes(value);

/**
 * Route module (lazy): the FAQ (SPEC 2: FAQ with search; its four groups). The questions come
 * from the API in both languages and show in the reader's; the search runs in the browser (its
 * code loads when the reader turns to the search box). The address keeps the query (?q=) and the
 * topic (?group=), so a search can be shared; /faq#<slug> opens a question and scrolls to it.
 */
export function Component() {
  const { t, i18n } = useTranslation('faq');
  useDocumentTitle(t('title'));
  const language = faqLanguage(i18n.resolvedLanguage ?? i18n.language);
  const { data: items, isLoading, isError, error, refetch } = useGetFaqQuery();
  const entries = useMemo(
    () => (items ? entriesFor(items, language) : undefined),
    [items, language],
  );

  const [params, setParams] = useSearchParams();
  const query = params.get('q')?.trim() ?? '';
  const groupParam = params.get('group');
  const group = isGroup(groupParam) ? groupParam : null;

  // the box: what is typed now; the address gets it once the typing pauses
  const [text, setText] = useState(query);
  const [seenQuery, setSeenQuery] = useState(query);
  // the query this page put in the address itself: the router renders it as a transition, after
  // any key typed meanwhile, so arriving it must not take those keys back out of the box
  const [committed, setCommitted] = useState<string | null>(null);
  if (query !== seenQuery) {
    setSeenQuery(query);
    if (query === committed) setCommitted(null);
    // Back, Forward or a link changed the query: the box shows it
    else if (text.trim() !== query) setText(query);
  }
  const [wanted, setWanted] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const queryRef = useRef(query);
  useEffect(() => {
    queryRef.current = query;
  }, [query]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const commit = useCallback(
    (value: string) => {
      clearTimeout(timer.current);
      const next = value.trim();
      const current = queryRef.current;
      if (next === current) return;
      setCommitted(next);
      setParams(
        (previous) => {
          const updated = new URLSearchParams(previous);
          if (next) updated.set('q', next);
          else updated.delete('q');
          return updated;
        },
        // a new search is a step Back returns from; its refinements replace it
        { replace: current !== '' && next !== '' },
      );
    },
    [setParams],
  );

  const onType = (value: string) => {
    setText(value);
    setWanted(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => commit(value), SEARCH_DEBOUNCE_MS);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    commit(text);
  };
  const chooseGroup = (next: FaqGroup | null) =>
    setParams(
      (previous) => {
        const updated = new URLSearchParams(previous);
        if (next) updated.set('group', next);
        else updated.delete('group');
        return updated;
      },
      { replace: true },
    );

  const search = useFaqSearch(entries, query, wanted);
  const results = search.status === 'ready' ? search.results : [];
  const shown = group ? results.filter((result) => result.entry.group === group) : results;

  // the open questions; /faq#<slug> opens its question and scrolls to it
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback(
    (slug: string) =>
      setOpen((previous) => {
        const next = new Set(previous);
        if (!next.delete(slug)) next.add(slug);
        return next;
      }),
    [],
  );
  const location = useLocation();
  const target = decodeURIComponent(location.hash.slice(1));
  const arrival = entries ? location.key : null;
  const [seenArrival, setSeenArrival] = useState<string | null>(null);
  const [scrollTarget, setScrollTarget] = useState<{ slug: string } | null>(null);
  if (arrival !== null && arrival !== seenArrival) {
    // a new address (or the questions just came): open its question, then scroll to it
    setSeenArrival(arrival);
    if (target && entries?.some((entry) => entry.slug === target)) {
      setOpen((previous) => (previous.has(target) ? previous : new Set(previous).add(target)));
      setScrollTarget({ slug: target });
    }
  }
  useEffect(() => {
    const element = scrollTarget ? document.getElementById(scrollTarget.slug) : null;
    if (!element) return;
    element.scrollIntoView?.({ block: 'start' });
    element.querySelector('button')?.focus({ preventScroll: true });
  }, [scrollTarget]);

  const searching = query !== '';
  // "Write to support": the department of the best answer, else of the topic chosen
  const contactGroup = (searching ? shown[0]?.entry.group : undefined) ?? group;

  let content;
  if (isLoading) content = <LoadingState>{t('loading')}</LoadingState>;
  else if (isError || !entries)
    content = (
      <ErrorState
        title={t('loadFailed')}
        detail={errorText(t, error)}
        retryLabel={t('retry')}
        onRetry={() => void refetch()}
      />
    );
  else if (entries.length === 0)
    content = <EmptyState title={t('empty.title')}>{t('empty.text')}</EmptyState>;
  else if (searching)
    content = (
      <SearchResults
        search={search}
        query={query}
        results={shown}
        elsewhere={results.length - shown.length}
        onSearchAll={() => chooseGroup(null)}
        open={open}
        onToggle={toggle}
      />
    );
  else
    content = (
      <div className={styles.groups}>
        {FAQ_GROUPS.filter((each) => !group || each === group).map((each) => (
          <GroupSection
            key={each}
            group={each}
            entries={entries.filter((entry) => entry.group === each)}
            open={open}
            onToggle={toggle}
          />
        ))}
      </div>
    );

  const ready = entries !== undefined && entries.length > 0;
  return (
    <Page title={t('title')} lead={t('description')}>
      {ready ? (
        <div className={styles.controls}>
          <form
            role="search"
            aria-label={t('search.landmark')}
            className={styles.searchForm}
            onSubmit={onSubmit}
          >
            <TextField
              type="search"
              label={t('search.label')}
              placeholder={t('search.placeholder')}
              value={text}
              onChange={(event) => onType(event.target.value)}
              onFocus={() => setWanted(true)}
              autoComplete="off"
              spellCheck={false}
              enterKeyHint="search"
              maxLength={200}
            />
          </form>
          <fieldset className={styles.topics}>
            <legend className={styles.topicsLegend}>{t('groups.label')}</legend>
            <div className={segments.segments}>
              {[null, ...FAQ_GROUPS].map((each) => (
                <label key={each ?? 'all'} className={segments.segment}>
                  <input
                    type="radio"
                    name="faq-group"
                    className={segments.radio}
                    checked={group === each}
                    onChange={() => chooseGroup(each)}
                  />
                  <span className={segments.text}>{t(`groups.${each ?? 'all'}`)}</span>
                </label>
              ))}
            </div>
          </fieldset>
        </div>
      ) : null}
      {ready ? (
        // the live region is there before the first search, so each count is announced
        // (shown above the results; "nothing found" is the empty state's heading)
        <p
          role="status"
          className={
            searching && (search.status === 'loading' || shown.length > 0)
              ? styles.count
              : 'visually-hidden'
          }
        >
          {statusText(t, search, query, shown.length)}
        </p>
      ) : null}
      {content}
      {items ? <ContactSupport group={contactGroup} /> : null}
    </Page>
  );
}

function statusText(
  t: ReturnType<typeof useTranslation<'faq'>>['t'],
  search: ReturnType<typeof useFaqSearch>,
  query: string,
  count: number,
): string {
  if (search.status === 'loading') return t('search.loading');
  if (search.status !== 'ready') return '';
  return count === 0 ? t('search.none', { query }) : t('search.count', { count, query });
}

function GroupSection({
  group,
  entries,
  open,
  onToggle,
}: {
  group: FaqGroup;
  entries: FaqEntry[];
  open: ReadonlySet<string>;
  onToggle: (slug: string) => void;
}) {
  const { t } = useTranslation('faq');
  const headingId = `faq-group-${group}`;
  return (
    <section className={styles.group} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.groupTitle}>
        {t(`groups.${group}`)}
      </h2>
      {entries.length === 0 ? (
        <p className={styles.muted}>{t('groups.empty')}</p>
      ) : (
        <ul className={styles.list}>
          {entries.map((entry) => (
            <FaqQuestion
              key={entry.id}
              entry={entry}
              open={open.has(entry.slug)}
              onToggle={onToggle}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function SearchResults({
  search,
  query,
  results,
  elsewhere,
  onSearchAll,
  open,
  onToggle,
}: {
  search: ReturnType<typeof useFaqSearch>;
  query: string;
  results: FaqResult[];
  /** Matches in the topics the filter hides. */
  elsewhere: number;
  onSearchAll: () => void;
  open: ReadonlySet<string>;
  onToggle: (slug: string) => void;
}) {
  const { t } = useTranslation('faq');
  if (search.status === 'failed')
    return (
      <FormAlert tone="error" title={t('search.failed')}>
        <div className={styles.alertActions}>
          <Button variant="secondary" onClick={search.retry}>
            {t('retry')}
          </Button>
        </div>
      </FormAlert>
    );
  if (search.status !== 'ready') return null;
  if (results.length === 0)
    return (
      <div className={styles.noResults}>
        <EmptyState title={t('search.none', { query })}>{t('search.noneText')}</EmptyState>
        {elsewhere > 0 ? (
          <div>
            <Button variant="secondary" onClick={onSearchAll}>
              {t('search.allTopics', { count: elsewhere })}
            </Button>
          </div>
        ) : null}
      </div>
    );
  return (
    <section aria-labelledby="faq-results-title">
      <h2 id="faq-results-title" className="visually-hidden">
        {t('search.results')}
      </h2>
      <ol className={styles.list}>
        {results.map((result) => (
          <FaqQuestion
            key={result.entry.id}
            entry={result.entry}
            open={open.has(result.entry.slug)}
            onToggle={onToggle}
            groupLabel={t(`groups.${result.entry.group}`)}
            highlight={result.highlight}
            excerpt={result.excerpt}
          />
        ))}
      </ol>
    </section>
  );
}
