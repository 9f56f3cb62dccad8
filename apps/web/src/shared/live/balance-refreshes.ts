import { baseApi } from '../api/base-api';
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

/** The history an own money action added to (its list's tag). */
type History = Parameters<typeof baseApi.util.invalidateTags>[0][number];
type Dispatch = (action: ReturnType<typeof baseApi.util.invalidateTags>) => unknown;

/**
 * After the reader's own money moved (an action's answer, a payment found paid, a refund), the
 * balances and the history it went to are the live update's to refresh: the `balance` event of
 * the posting patches the cached user and reads the histories again. This reads them itself (an
 * invalidation of 'User', where every balance on screen comes from, and of `history`) only when
 * the live update did not do it: at once when the stream is not open, or after
 * LIVE_BALANCE_WAIT_MS when no live refresh came (an event lost). `since` is balanceRefreshes()
 * as it was before the money moved (before the request).
 */
export function refreshBalancesUnlessLive(
  since: number,
  dispatch: Dispatch,
  history: History,
): void {
  if (refreshes > since) return;
  const refresh = () => dispatch(baseApi.util.invalidateTags(['User', history]));
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
 * refreshBalancesUnlessLive for a mutation's onQueryStarted: counts from the request's start,
 * and refreshes only on a success.
 */
export async function refreshAfterOwnMoney(
  answer: Promise<unknown>,
  dispatch: Dispatch,
  history: History,
): Promise<void> {
  const since = refreshes;
  const succeeded = await answer.then(
    () => true,
    () => false,
  );
  if (succeeded) refreshBalancesUnlessLive(since, dispatch, history);
}
