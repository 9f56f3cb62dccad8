import { useSyncExternalStore } from 'react';
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

export const getLiveState = (): LiveState => current;

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}

export function useLiveConnected(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => current === 'open',
    () => false,
  );
}

/** `ms` while the live updates are down, 0 (no polling) while they bring the changes. */
export function useFallbackPolling(ms: number): number {
  return useLiveConnected() ? 0 : ms;
}
