import { useLayoutEffect, type RefObject } from 'react';

/**
 * Scrolls a row of tabs that is wider than its room (a phone) so that the current one shows in
 * full, in the middle as far as the row's ends allow; a row that fits is left alone.
 */
export function bringIntoRow(row: HTMLElement | null, current: Element | null | undefined) {
  if (!row || !current || row.scrollWidth <= row.clientWidth) return;
  const tab = current.getBoundingClientRect();
  const box = row.getBoundingClientRect();
  row.scrollLeft += tab.left - box.left - (box.width - tab.width) / 2;
}

/**
 * Brings the row's current tab (`current` finds it in the row) into view whenever `key` changes:
 * on arrival, and when the selection moves. It measures when the browser has laid the row out
 * for the next frame (a ResizeObserver's first report, before that frame is painted), where a
 * measure in the commit would force the page's layout inside the commit's task: on /vps's first
 * load that forced layout was the biggest piece of script time after React's own. Every browser
 * the console supports has ResizeObserver; where there is none (jsdom) the row is left alone.
 */
export function useBringIntoRow(
  row: RefObject<HTMLElement | null>,
  current: (row: HTMLElement) => Element | null | undefined,
  key: unknown,
) {
  useLayoutEffect(() => {
    const element = row.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      observer.disconnect();
      bringIntoRow(element, current(element));
    });
    observer.observe(element);
    return () => observer.disconnect();
    // `current` is a finder: a new one on every render finds the same tab
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [row, key]);
}
