import './shared/styles/global.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { persistStore, type PersistorOptions } from 'redux-persist';
import { App } from './app/app';
import { prepareRouter, preloadRoutes } from './app/router';
import { startContainer } from './app/start-frame';
import { makeStore } from './app/store';
import { selectAuthorized } from './features/auth/model/auth-slice';
import { recordReferral, takeReferralCode } from './features/auth/model/referral';
import { refreshSession, sessionNeedsRefresh } from './shared/api/session-refresh';
import { i18nReady } from './shared/i18n';

// The ?ref= code leaves the URL before the router reads it; it is recorded once the persisted
// session is back (the restore would otherwise overwrite it).
const referralCode = takeReferralCode();
const store = makeStore();
// redux-persist's option (missing from its types): the restore starts at `persistor.persist()`
const restoreLater: PersistorOptions & { manualPersist: true } = { manualPersist: true };
const persistor = persistStore(store, restoreLater, () => {
  if (referralCode) store.dispatch(recordReferral(referralCode));
  // a returning reader's expired token is refreshed while the page's code downloads, not
  // after it, when the page's first call would find it expired
  if (sessionNeedsRefresh(store.getState(), Date.now())) void refreshSession(store.dispatch);
  // the page's chunks are fetched while the app renders its first frame, then its first calls;
  // in a task of its own: matching the routes and asking for each page's files took as long as
  // the restore itself, and the two made one long task
  const authorized = selectAuthorized(store.getState());
  setTimeout(() => preloadRoutes(authorized, new URL(window.location.href), store.dispatch), 0);
  setTimeout(() => prepareRouter(authorized), 0);
});

// The restore (reading the stored session, its reducers, the callback above) in a task of its
// own: with the entry's evaluation it was one long task, which holds a phone's page.
setTimeout(() => persistor.persist(), 0);

// What index.html painted stays on screen until the page replaces it (app/start-frame.tsx).
const container = startContainer();

// At once in English; a reader who chose another language waits for its texts (a chunk of their
// own). The first render is a transition: it yields to the browser every few milliseconds
// rather than taking one long task.
void i18nReady.then(() => {
  const root = createRoot(container);
  startTransition(() =>
    root.render(
      <StrictMode>
        <App store={store} persistor={persistor} />
      </StrictMode>,
    ),
  );
});
