import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import type { Persistor } from 'redux-persist';
import { i18n } from '../shared/i18n';
import { AppShell } from './app-shell';
import { RestoreGate } from './restore-gate';
import { StartFallback } from './start-frame';
import type { AppStore } from './store';

export interface ProvidersProps {
  store: AppStore;
  /**
   * Restores the session before the children render (meanwhile the spinner, or what index.html
   * painted: start-frame.tsx); none in tests.
   */
  persistor?: Persistor;
  children: ReactNode;
}

export function Providers({ store, persistor, children }: ProvidersProps) {
  return (
    <Provider store={store}>
      <I18nextProvider i18n={i18n}>
        <AppShell>
          {persistor ? (
            <RestoreGate loading={<StartFallback />} persistor={persistor}>
              {children}
            </RestoreGate>
          ) : (
            children
          )}
        </AppShell>
      </I18nextProvider>
    </Provider>
  );
}
