import { useEffect } from 'react';

/** Sets document.title while the page shows. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
