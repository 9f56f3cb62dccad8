import { useEffect, useState } from 'react';

/**
 * `value` once it has stayed the same for `ms`: what a field asks the API for while it is typed
 * in, so that a word typed fast is one request, not one a letter.
 */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
