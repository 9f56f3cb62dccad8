import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
}

const visible = () => document.visibilityState !== 'hidden';

/**
 * Whether the page is shown (not a background tab, not a minimised window): polling pauses
 * while it is hidden. (RTK Query's skipPollingIfUnfocused needs its focus listeners, which the
 * console does not set up.)
 */
export function usePageVisible(): boolean {
  return useSyncExternalStore(subscribe, visible, () => true);
}
