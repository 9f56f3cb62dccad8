import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hiddenEnds, TableFrame } from './table-frame';

/** jsdom lays nothing out: the frame's widths as a browser would measure them. */
function widths(element: HTMLElement, scrollWidth: number, clientWidth: number) {
  Object.defineProperty(element, 'scrollWidth', { configurable: true, value: scrollWidth });
  Object.defineProperty(element, 'clientWidth', { configurable: true, value: clientWidth });
}

describe('hiddenEnds', () => {
  it('names the edges with columns beyond them', () => {
    expect(hiddenEnds({ scrollLeft: 0, scrollWidth: 600, clientWidth: 600 })).toBeUndefined();
    expect(hiddenEnds({ scrollLeft: 0, scrollWidth: 900, clientWidth: 600 })).toBe('end');
    expect(hiddenEnds({ scrollLeft: 120, scrollWidth: 900, clientWidth: 600 })).toBe('start end');
    expect(hiddenEnds({ scrollLeft: 300, scrollWidth: 900, clientWidth: 600 })).toBe('start');
    // sub-pixel widths round either way: no shade for half a pixel
    expect(hiddenEnds({ scrollLeft: 0, scrollWidth: 600.5, clientWidth: 600 })).toBeUndefined();
  });
});

describe('TableFrame', () => {
  afterEach(() => vi.restoreAllMocks());

  const table = (
    <>
      <h2 id="levels">Levels</h2>
      <TableFrame labelledBy="levels">
        <table aria-labelledby="levels">
          <tbody>
            <tr>
              <td>Level 1</td>
            </tr>
          </tbody>
        </table>
      </TableFrame>
    </>
  );

  it('shades the edge with hidden columns and takes the focus while the table scrolls', () => {
    const { container } = render(table);
    const frame = screen.getByRole('table').parentElement!;
    const scroller = container.querySelector('[class*="scroller"]')!;
    // as wide as its room: nothing shaded, nothing to focus
    expect(scroller).not.toHaveAttribute('data-hidden');
    expect(frame).not.toHaveAttribute('tabindex');

    widths(frame, 900, 375);
    fireEvent(window, new Event('resize'));
    expect(scroller).toHaveAttribute('data-hidden', 'end');
    expect(screen.getByRole('group', { name: 'Levels' })).toBe(frame);
    expect(frame).toHaveAttribute('tabindex', '0');

    frame.scrollLeft = 200;
    fireEvent.scroll(frame);
    expect(scroller).toHaveAttribute('data-hidden', 'start end');
    frame.scrollLeft = 525;
    fireEvent.scroll(frame);
    expect(scroller).toHaveAttribute('data-hidden', 'start');

    widths(frame, 375, 375);
    frame.scrollLeft = 0;
    fireEvent(window, new Event('resize'));
    expect(scroller).not.toHaveAttribute('data-hidden');
    expect(screen.queryByRole('group')).toBeNull();
  });
});
