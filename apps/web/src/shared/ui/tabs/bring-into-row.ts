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
