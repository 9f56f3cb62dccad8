import type { Persistor } from 'redux-persist';
import { Providers } from './providers';
import { AppRouter } from './router';
import type { AppStore } from './store';

export function App({ store, persistor }: { store: AppStore; persistor: Persistor }) {
  return (
    <Providers store={store} persistor={persistor}>
      <AppRouter />
    </Providers>
  );
}
