import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';

export type PrefetchDispatch = ThunkDispatch<unknown, unknown, UnknownAction>;

/**
 * A route's `handle` (react-router). `prefetch` starts the calls its screen makes first: the
 * console's start (app/router.tsx, preloadRoutes) runs it once the route's module has loaded,
 * beside the first render, so the answers do not wait for the screen to mount and ask. The
 * screen's own queries then find them in the cache or under way.
 */
export interface RouteHandle {
  prefetch?: (dispatch: PrefetchDispatch, url: URL) => void;
}
