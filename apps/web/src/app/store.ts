import {
  combineReducers,
  configureStore,
  type Reducer,
  type UnknownAction,
} from '@reduxjs/toolkit';
import { FLUSH, PAUSE, PERSIST, persistReducer, PURGE, REGISTER, REHYDRATE } from 'redux-persist';
import { authPersistTransform, authReducer } from '../features/auth/model/auth-slice';
import { settingsReducer } from '../features/settings/model/settings-slice';
import { baseApi } from '../shared/api/base-api';
import { readStorage, writeStorage } from '../shared/lib/preferences';
import { uiReducer } from '../shared/model/ui-slice';
import { createAppListeners } from './listeners';

const rootReducer = combineReducers({
  [baseApi.reducerPath]: baseApi.reducer,
  auth: authReducer,
  settings: settingsReducer,
  ui: uiReducer,
});
export type RootState = ReturnType<typeof rootReducer>;

/**
 * localStorage for redux-persist (its own `redux-persist/lib/storage` is CommonJS with a default
 * export that bundlers unwrap differently); a blocked storage reads as empty.
 */
const storage = {
  getItem: async (key: string) => readStorage(key),
  setItem: async (key: string, value: string) => writeStorage(key, value),
  removeItem: async (key: string) => {
    try {
      localStorage.removeItem(key);
    } catch {
      // nothing stored
    }
  },
};

/** Only the auth slice survives a reload (SPEC 4: version 1, timeout 5 s), at `persist:tradehost:auth`. */
export const persistConfig = {
  key: 'tradehost:auth',
  version: 1,
  timeout: 5000,
  storage,
  whitelist: ['auth'],
  transforms: [authPersistTransform],
};

/**
 * A store with everything wired: the persisted auth slice (persistStore starts the saving and
 * the restoring; without it the store works, unpersisted, as in tests), the API middleware and
 * the listeners that join the features.
 */
// redux-persist's types predate Redux 5: state as the app sees it (its `_persist` key is the library's).
const persistedReducer = persistReducer(
  persistConfig,
  rootReducer as Reducer<RootState>,
) as unknown as Reducer<RootState, UnknownAction, Partial<RootState>>;

export function makeStore(preloadedState?: Partial<RootState>) {
  const listeners = createAppListeners();
  return configureStore({
    reducer: persistedReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({
        serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] },
      })
        .prepend(listeners.middleware)
        .concat(baseApi.middleware),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
