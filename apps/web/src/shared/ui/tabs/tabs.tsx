import { useId, useRef, type KeyboardEvent, type ReactNode, type Ref } from 'react';
import { useBringIntoRow } from './bring-into-row';
import styles from './tabs.module.css';

export interface TabItem<T extends string> {
  value: T;
  label: ReactNode;
}

export interface TabsProps<T extends string> {
  /** The accessible name of the tab list. */
  label: string;
  items: readonly TabItem<T>[];
  value: T;
  onChange: (value: T) => void;
  /** The selected tab's panel. */
  children: ReactNode;
  /** `sub` for a second row of tabs inside a panel (smaller). */
  variant?: 'main' | 'sub';
  className?: string;
  /** The panel element (focusable), e.g. to move the focus there. */
  panelRef?: Ref<HTMLDivElement>;
}

/**
 * Tabs of the WAI-ARIA pattern with manual activation: the arrow keys, Home and End move the
 * focus along the tabs, Enter or Space (or a click) selects one; Tab leaves for the panel. Manual
 * because selecting may load data or change the address. Only the selected panel is rendered.
 * A row of tabs wider than the screen (a phone) scrolls sideways, the selected one brought into
 * view: on arrival (a link to the last tab) and whenever the selection changes.
 */
export function Tabs<T extends string>({
  label,
  items,
  value,
  onChange,
  children,
  variant = 'main',
  className,
  panelRef,
}: TabsProps<T>) {
  const id = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const tabId = (item: T) => `${id}-tab-${item}`;
  const panelId = `${id}-panel`;

  useBringIntoRow(listRef, (row) => row.querySelector('[aria-selected="true"]'), value);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const tabs = Array.from(
      listRef.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]') ?? [],
    );
    const index = tabs.indexOf(document.activeElement as HTMLButtonElement);
    if (index < 0) return;
    const target = {
      ArrowRight: (index + 1) % tabs.length,
      ArrowLeft: (index - 1 + tabs.length) % tabs.length,
      Home: 0,
      End: tabs.length - 1,
    }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    tabs[target]?.focus();
  };

  return (
    <div className={[styles.tabs, styles[variant], className].filter(Boolean).join(' ')}>
      <div
        ref={listRef}
        role="tablist"
        aria-label={label}
        className={styles.list}
        onKeyDown={onKeyDown}
      >
        {items.map((item) => {
          const selected = item.value === value;
          return (
            <button
              key={item.value}
              id={tabId(item.value)}
              type="button"
              role="tab"
              className={styles.tab}
              aria-selected={selected}
              aria-controls={selected ? panelId : undefined}
              tabIndex={selected ? 0 : -1}
              onClick={() => {
                if (!selected) onChange(item.value);
              }}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      <div
        ref={panelRef}
        id={panelId}
        role="tabpanel"
        aria-labelledby={tabId(value)}
        tabIndex={0}
        className={styles.panel}
      >
        {children}
      </div>
    </div>
  );
}
