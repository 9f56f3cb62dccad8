import { startTransition, useEffect, useState, type ReactNode } from 'react';
import type { Persistor } from 'redux-persist';

/**
 * redux-persist's PersistGate, with the lift as a transition: `loading` until the persisted
 * session is restored, then `children`. PersistGate lifts with a plain setState, an urgent
 * update, so the whole console's first render under it (the router's making, the layout, the
 * page) ran as one task: 170 ms of a signed-in /vps load under Lighthouse, counted four times
 * over in its blocking time. As a transition React renders it in slices, yielding to the browser
 * between them.
 */
export function RestoreGate({
  persistor,
  loading,
  children,
}: {
  persistor: Persistor;
  loading: ReactNode;
  children: ReactNode;
}) {
  const [restored, setRestored] = useState(() => persistor.getState().bootstrapped);
  useEffect(() => {
    if (restored) return;
    const lift = () => {
      if (persistor.getState().bootstrapped) startTransition(() => setRestored(true));
    };
    const unsubscribe = persistor.subscribe(lift);
    // restored between the first render and this subscription
    lift();
    return unsubscribe;
  }, [persistor, restored]);
  return restored ? children : loading;
}
