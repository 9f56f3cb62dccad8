import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Tabs } from './tabs';

const ITEMS = [
  { value: 'a', label: 'Alpha' },
  { value: 'b', label: 'Beta' },
  { value: 'c', label: 'Gamma' },
] as const;

function Harness({ initial = 'a' }: { initial?: 'a' | 'b' | 'c' }) {
  const [value, setValue] = useState<'a' | 'b' | 'c'>(initial);
  return (
    <Tabs label="Things" items={ITEMS} value={value} onChange={setValue}>
      <p>Panel {value}</p>
    </Tabs>
  );
}

/**
 * A phone's layout, which jsdom does not compute: a 300 px row, scrolled by `scrollLeft` (kept
 * between its ends, as a browser does), of tabs 150 px wide one after another (450 px in all).
 */
function narrowRow() {
  const inRow = (element: Element) => element.getAttribute('role') === 'tablist';
  const scrolled = new WeakMap<Element, number>();
  vi.spyOn(Element.prototype, 'scrollLeft', 'get').mockImplementation(function (this: Element) {
    return scrolled.get(this) ?? 0;
  });
  vi.spyOn(Element.prototype, 'scrollLeft', 'set').mockImplementation(function (
    this: Element,
    value: number,
  ) {
    scrolled.set(this, Math.min(Math.max(value, 0), inRow(this) ? 150 : 0));
  });
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockImplementation(function (
    this: HTMLElement,
  ) {
    return inRow(this) ? 450 : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (
    this: HTMLElement,
  ) {
    return inRow(this) ? 300 : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (
    this: HTMLElement,
  ) {
    const row = this.closest<HTMLElement>('[role="tablist"]');
    const index = row ? [...row.children].indexOf(this) : -1;
    const left = inRow(this) ? 0 : index * 150 - (row?.scrollLeft ?? 0);
    const width = inRow(this) ? 300 : 150;
    return DOMRect.fromRect({ x: left, y: 0, width, height: 44 });
  });
  // a browser's observer: its first report comes after the commit, once the row is laid out
  vi.stubGlobal(
    'ResizeObserver',
    class {
      private live = true;
      private readonly report: () => void;
      constructor(report: () => void) {
        this.report = report;
      }
      observe() {
        setTimeout(() => this.live && this.report(), 0);
      }
      disconnect() {
        this.live = false;
      }
    },
  );
}

describe('Tabs', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('scrolls a row wider than the screen to the selected tab, on arrival and on a change', async () => {
    narrowRow();
    const measured = vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get');
    const user = userEvent.setup();
    render(<Harness initial="c" />);
    const row = screen.getByRole('tablist');
    // not measured in the commit (that would force the page's layout inside its task), but
    // once the row is laid out for the next frame
    expect(measured).not.toHaveBeenCalled();
    // the last tab, arrived at by its address: in the middle as far as the row's end allows
    await waitFor(() => expect(row.scrollLeft).toBe(150));
    await user.click(screen.getByRole('tab', { name: 'Alpha' }));
    await waitFor(() => expect(row.scrollLeft).toBe(0));
    await user.click(screen.getByRole('tab', { name: 'Beta' }));
    await waitFor(() => expect(row.scrollLeft).toBe(75));
  });

  it('ties the selected tab to its panel', () => {
    render(<Harness />);
    expect(screen.getByRole('tablist', { name: 'Things' })).toBeInTheDocument();
    const alpha = screen.getByRole('tab', { name: 'Alpha' });
    expect(alpha).toHaveAttribute('aria-selected', 'true');
    expect(alpha).toHaveAttribute('tabindex', '0');
    expect(screen.getByRole('tab', { name: 'Beta' })).toHaveAttribute('tabindex', '-1');
    const panel = screen.getByRole('tabpanel', { name: 'Alpha' });
    expect(alpha).toHaveAttribute('aria-controls', panel.id);
    expect(panel).toHaveTextContent('Panel a');
  });

  it('moves with the arrows, Home and End, and selects with Enter or a click', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.tab();
    expect(screen.getByRole('tab', { name: 'Alpha' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Beta' })).toHaveFocus();
    // manual activation: the focus moved, the selection did not
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Panel a');
    await user.keyboard('{Enter}');
    expect(screen.getByRole('tab', { name: 'Beta' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'Beta' })).toHaveTextContent('Panel b');
    await user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Gamma' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Alpha' })).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Gamma' })).toHaveFocus();
    await user.keyboard('{Home}');
    expect(screen.getByRole('tab', { name: 'Alpha' })).toHaveFocus();
    await user.click(screen.getByRole('tab', { name: 'Gamma' }));
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Panel c');
    // Tab leaves the list for the panel
    await user.tab();
    expect(screen.getByRole('tabpanel')).toHaveFocus();
  });
});
