/**
 * How many times this tab's live updates have refreshed the balances and the balance histories:
 * a `balance` event (money moved on one of the reader's purses, by them or anyone) and the
 * re-read after a drop (app/live-updates.ts counts both). A page that would refresh them itself
 * after the reader's own money action compares the count with the one it saw before: when it has
 * grown, the live update has done it, and a refresh of its own would read the same again.
 */
let refreshes = 0;

export function noteBalancesRefreshed(): void {
  refreshes += 1;
}

export function balanceRefreshes(): number {
  return refreshes;
}
