import { useCallback, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import styles from './table.module.css';

/** Which ends of a frame have columns scrolled out of sight: 'start', 'end', both, or none. */
export function hiddenEnds(box: {
  scrollLeft: number;
  scrollWidth: number;
  clientWidth: number;
}): string | undefined {
  const ends = [
    box.scrollLeft > 1 ? 'start' : null,
    box.scrollLeft + box.clientWidth < box.scrollWidth - 1 ? 'end' : null,
  ].filter(Boolean);
  return ends.length > 0 ? ends.join(' ') : undefined;
}

export interface TableFrameProps {
  children: ReactNode;
  /** The id of what names the table (its heading): the frame, when it scrolls, is a named group. */
  labelledBy?: string;
}

/**
 * A table's bordered frame (shared/ui/table's `frame`) that scrolls sideways when the table is
 * wider than the page has room for, and shows it: a shadow at each edge that has columns beyond
 * it. While it scrolls it takes the focus, so the arrow keys scroll a table without buttons too.
 */
export function TableFrame({ children, labelledBy }: TableFrameProps) {
  const frame = useRef<HTMLDivElement>(null);
  const [hidden, setHidden] = useState<string | undefined>();
  const measure = useCallback(() => {
    if (frame.current) setHidden(hiddenEnds(frame.current));
  }, []);

  useLayoutEffect(() => {
    const element = frame.current;
    if (!element) return;
    window.addEventListener('resize', measure);
    // the observer's first report comes once the frame is laid out, before it is painted: a
    // measure here would force that layout inside the commit's task
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    if (!observer) measure();
    observer?.observe(element);
    if (element.firstElementChild) observer?.observe(element.firstElementChild);
    return () => {
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, [measure]);

  const scrolls = hidden !== undefined;
  return (
    <div className={styles.scroller} data-hidden={hidden}>
      <div
        ref={frame}
        className={styles.frame}
        onScroll={measure}
        tabIndex={scrolls ? 0 : undefined}
        role={scrolls && labelledBy ? 'group' : undefined}
        aria-labelledby={scrolls ? labelledBy : undefined}
      >
        {children}
      </div>
    </div>
  );
}
