import { isLiveOpen } from './live-state';

/**
 * How many times this tab's live updates have refreshed the balances and the balance histories:
 * a `balance` event (money moved on one of the reader's purses, by them or anyone) and the
 * re-read after a drop (app/live-updates.ts counts both). A page that would refresh them itself
 * after the reader's own money action compares the count with the one it saw before: when it has
 * grown, the live update has done it, and a refresh of its own would read the same again.
 */
let refreshes = 0;
/** The own money actions waiting for the live update of their balance (each stops its timer). */
const waiting = new Set<() => void>();

/**
 * How long an own money action waits for the live update of its balance before reading it
 * itself: the API publishes it as its transaction commits, before or just after the answer.
 */
export const LIVE_BALANCE_WAIT_MS = 3000;

export function noteBalancesRefreshed(): void {
  refreshes += 1;
  for (const arrived of [...waiting]) arrived();
}

export function balanceRefreshes(): number {
  return refreshes;
}

/**
 * After the reader's own money moved (an action's answer, a payment found paid, a refund), the
 * balances and the history it went to are the live update's to refresh: the `balance` event of
 * the posting patches the cached user and reads the histories again. `refresh` (an
 * invalidation of 'User' and that history) runs only when the live update did not do it: at once
 * when the stream is not open, or after LIVE_BALANCE_WAIT_MS when no live refresh came (an event
 * lost). `since` is balanceRefreshes() as it was before the money moved (before the request).
 */
export function refreshBalancesUnlessLive(since: number, refresh: () => void): void {
  if (refreshes > since) return;
  if (!isLiveOpen()) {
    refresh();
    return;
  }
  const arrived = () => {
    waiting.delete(arrived);
    clearTimeout(timer);
  };
  const timer = setTimeout(() => {
    waiting.delete(arrived);
    refresh();
  }, LIVE_BALANCE_WAIT_MS);
  waiting.add(arrived);
}

/**
 * refreshBalancesUnlessLive for a mutation's onQueryStarted: counts from the request's start;
 * `refresh` gets the answer (it may decide nothing moved) and runs only on a success.
 */
export async function refreshAfterOwnMoney<T>(
  answer: Promise<{ data: T }>,
  refresh: (data: T) => void,
): Promise<void> {
  const since = refreshes;
  const settled = await answer.catch(() => null);
  if (settled) refreshBalancesUnlessLive(since, () => refresh(settled.data));
}
