import { useSearchParams } from 'react-router';

/** A search parameter when it is one of `values` (a status, a method), else undefined. */
export function oneOf<T extends string>(values: readonly T[], value: string | null): T | undefined {
  return (values as readonly string[]).includes(value ?? '') ? (value as T) : undefined;
}

/**
 * A list's search parameters and the setter of one of its filters (a search, a status): an
 * empty value or the `fallback` (the default, "all") drops the parameter, and any change goes
 * back to the first page (`pageParam`: the list's page parameter, when a page has two lists).
 * `onChange` runs first (a notice about the list goes with it).
 */
export function useFilterParams(onChange?: () => void, pageParam = 'page') {
  const [params, setParams] = useSearchParams();
  const setFilter = (name: string, value: string | undefined, fallback?: string) => {
    onChange?.();
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      if (value && value !== fallback) next.set(name, value);
      else next.delete(name);
      next.delete(pageParam);
      return next;
    });
  };
  return [params, setFilter] as const;
}
