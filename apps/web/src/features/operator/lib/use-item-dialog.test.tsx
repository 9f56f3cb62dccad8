import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useItemDialog } from './use-item-dialog';

describe('the state of a list item’s dialog', () => {
  it('opens about an item with a new key each time, the focus to go back to its opener', () => {
    const { result } = renderHook(() => useItemDialog<{ id: number } | null>());
    expect(result.current.subject).toBeNull();
    expect(result.current.dialog.open).toBe(false);

    const edit = document.createElement('button');
    act(() => result.current.show({ id: 3 }, edit));
    expect(result.current.subject).toEqual({ item: { id: 3 }, key: 1 });
    expect(result.current.dialog.open).toBe(true);
    expect(result.current.dialog.returnFocusTo.current).toBe(edit);

    act(() => result.current.dialog.onOpenChange(false));
    expect(result.current.dialog.open).toBe(false);
    // still rendered while it closes
    expect(result.current.subject).toEqual({ item: { id: 3 }, key: 1 });

    const add = document.createElement('button');
    act(() => result.current.show(null, add));
    expect(result.current.subject).toEqual({ item: null, key: 2 });
    expect(result.current.dialog.returnFocusTo.current).toBe(add);
  });

  it('closes with the focus sent elsewhere when the opener is gone, or back to it', () => {
    const { result } = renderHook(() => useItemDialog<string>());
    const opener = document.createElement('button');
    const heading = document.createElement('h2');
    act(() => result.current.show('a', opener));
    act(() => result.current.close());
    expect(result.current.dialog.open).toBe(false);
    expect(result.current.dialog.returnFocusTo.current).toBe(opener);

    act(() => result.current.show('b', opener));
    act(() => result.current.close(heading));
    expect(result.current.dialog.open).toBe(false);
    expect(result.current.dialog.returnFocusTo.current).toBe(heading);
  });
});
