import {
  combineSlices,
  configureStore,
  createAction,
  createDynamicMiddleware,
  type Reducer,
  type UnknownAction,
} from '@reduxjs/toolkit';
import { FLUSH, PAUSE, PERSIST, persistReducer, PURGE, REGISTER, REHYDRATE } from 'redux-persist';
import { authPersistTransform, authReducer } from '../features/auth/model/auth-slice';
import { settingsReducer } from '../features/settings/model/settings-slice';
import { whenApiLoaded, type BaseApi } from '../shared/api/api-registry';
import { readStorage, removeStorage, writeStorage } from '../shared/lib/preferences';
import { uiReducer } from '../shared/model/ui-slice';
import { createAppListeners } from './listeners';

/** The RTK Query cache, there once the API has loaded (shared/api/api-registry.ts). */
type ApiState = { [path in BaseApi['reducerPath']]: ReturnType<BaseApi['reducer']> };

const rootReducer = combineSlices({
  auth: authReducer,
  settings: settingsReducer,
  ui: uiReducer,
}).withLazyLoadedSlices<ApiState>();
export type RootState = ReturnType<typeof rootReducer>;

// One root reducer for every store (tests make many): the API's slice joins it when it loads.
whenApiLoaded((api) => rootReducer.inject(api));

/** The API joined the store: the action gives the store the API's slice before its middleware runs. */
export const apiAttached = createAction('app/apiAttached');

/**
 * localStorage for redux-persist (its own `redux-persist/lib/storage` is CommonJS with a default
 * export that bundlers unwrap differently); a blocked storage reads as empty.
 */
const storage = {
  getItem: async (key: string) => readStorage(key),
  setItem: async (key: string, value: string) => writeStorage(key, value),
  removeItem: async (key: string) => removeStorage(key),
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
 * the restoring; without it the store works, unpersisted, as in tests), the API (its slice and
 * middleware as soon as it has loaded) and the listeners that join the features.
 */
// redux-persist's types predate Redux 5: state as the app sees it (its `_persist` key is the library's).
const persistedReducer = persistReducer(
  persistConfig,
  rootReducer as Reducer<RootState>,
) as unknown as Reducer<RootState, UnknownAction, Partial<RootState>>;

export function makeStore(preloadedState?: Partial<RootState>) {
  const listeners = createAppListeners();
  const apiMiddleware = createDynamicMiddleware();
  const store = configureStore({
    reducer: persistedReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({
        serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] },
      })
        .prepend(listeners.middleware)
        .concat(apiMiddleware.middleware),
  });
  whenApiLoaded((api) => {
    store.dispatch(apiAttached());
    apiMiddleware.addMiddleware(api.middleware);
  });
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
