import { useEffect, useRef } from 'react';

/** A ref whose element takes focus once mounted (for headings of content that replaced a form). */
export function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return ref;
}
