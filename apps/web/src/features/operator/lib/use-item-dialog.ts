import { useCallback, useRef, useState, type RefObject } from 'react';

/** What a list's dialog about one item takes from the page: shown or not, and where the focus goes back. */
export interface ItemDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusTo: RefObject<HTMLElement | null>;
}

/**
 * The state of a list's dialog about one of its items (its form, null adding one; or the
 * question before deleting it): the item, a `key` new each time it opens (a fresh form), the
 * dialog's props, and the control that opened it, where the focus goes back when it closes.
 * The dialog stays rendered once opened (it closes with its animation); render it while
 * `subject` is set.
 */
export function useItemDialog<T>() {
  const returnFocusTo = useRef<HTMLElement | null>(null);
  const [subject, setSubject] = useState<{ item: T; key: number } | null>(null);
  const [open, setOpen] = useState(false);

  const show = useCallback((item: T, opener: HTMLElement) => {
    returnFocusTo.current = opener;
    setSubject((current) => ({ item, key: (current?.key ?? 0) + 1 }));
    setOpen(true);
  }, []);

  /** Closes it; `focus`: where the focus goes instead of the opener (gone with its row). */
  const close = useCallback((focus?: HTMLElement | null) => {
    if (focus !== undefined) returnFocusTo.current = focus;
    setOpen(false);
  }, []);

  const dialog: ItemDialogProps = { open, onOpenChange: setOpen, returnFocusTo };
  return { subject, show, close, dialog };
}
