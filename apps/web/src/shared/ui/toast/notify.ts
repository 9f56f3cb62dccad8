import type * as Toastify from 'react-toastify';
import type { ToastOptions } from 'react-toastify';

export type NotifyKind = 'success' | 'error' | 'warning';

/**
 * react-toastify loads with the first notice, not with the first page (it is ~10 KB gzipped that
 * a sign-in without failures never needs). The Toaster of the app shell mounts its container once
 * wanted; react-toastify queues a toast raised before the container is there.
 */
let library: Promise<typeof Toastify> | null = null;
let wanted = false;
const subscribers = new Set<() => void>();

function loadToasts() {
  library ??= import('react-toastify');
  return library;
}

/** Shows a toast (5 s, no icon, in the theme). `toastId` keeps one copy of a repeated notice. */
export function notify(
  kind: NotifyKind,
  text: string,
  options?: Pick<ToastOptions, 'toastId'>,
): void {
  if (!wanted) {
    wanted = true;
    subscribers.forEach((notifySubscriber) => notifySubscriber());
  }
  void loadToasts().then(({ toast }) => {
    toast[kind](text, options);
  });
}

/** For useSyncExternalStore: whether a toast was ever asked for. */
export const toasterStore = {
  subscribe(subscriber: () => void) {
    subscribers.add(subscriber);
    return () => subscribers.delete(subscriber);
  },
  wanted: () => wanted,
};
