import { lazy, Suspense, useSyncExternalStore } from 'react';
import { toasterStore } from './notify';

const ToastHost = lazy(() => import('./toast-host'));

/** The toast container, loaded with the first notify(). */
export function Toaster({ theme, closeLabel }: { theme: 'light' | 'dark'; closeLabel: string }) {
  const wanted = useSyncExternalStore(toasterStore.subscribe, toasterStore.wanted, () => false);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <ToastHost theme={theme} closeLabel={closeLabel} />
    </Suspense>
  );
}
