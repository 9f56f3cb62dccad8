import { startTransition, useEffect, useState } from 'react';
import type { LiveState } from './live-client';

/**
 * Whether the live updates' stream of this tab is open (app/live-updates.ts sets it): pages
 * poll for what the live updates bring only while it is not.
 */
let current: LiveState = 'down';
const listeners = new Set<() => void>();

export function setLiveState(state: LiveState): void {
  if (state === current) return;
  current = state;
  for (const listener of [...listeners]) listener();
}

/** Whether the stream is open now (outside React: shared/live/balance-refreshes.ts). */
export const isLiveOpen = (): boolean => current === 'open';

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}

/**
 * Whether the stream is open. A change re-renders its readers as a transition, which React
 * renders in slices between the browser's other work, not in the task that saw it: the stream
 * opens while a page renders its first answers, and what it changes (polling periods: the
 * support badge's, a busy server's) is not urgent. Read through useSyncExternalStore, whose
 * renders are always urgent, the opening re-rendered the layout and every polling list in one
 * task, on a phone one of the longest of the signed-in start.
 */
export function useLiveConnected(): boolean {
  const [connected, setConnected] = useState(isLiveOpen);
  useEffect(() => {
    const update = () => startTransition(() => setConnected(isLiveOpen()));
    // a change between the first render and this subscription
    update();
    return subscribe(update);
  }, []);
  return connected;
}

/** `ms` while the live updates are down, 0 (no polling) while they bring the changes. */
export function useFallbackPolling(ms: number): number {
  return useLiveConnected() ? 0 : ms;
}
