import type { Server } from '@tradehost/contracts';
import { useLiveConnected } from '../../../shared/live/live-state';
import { useGetVpsServerQuery } from '../api/vps-api';
import { isBusy } from './vps';

/** How often a server with an operation under way is asked about (SPEC 4: it takes 1-2 minutes). */
export const OPERATION_POLL_MS = 2500;
/** While live updates bring each operation's end: a slow check for one ended elsewhere (an operator). */
export const OPERATION_LIVE_POLL_MS = 30_000;

/**
 * Follows a server while an operation runs on it (or it is being created): GET /servers/:id
 * every 2.5 s while the live updates are down (they tell when the operation ends: every 30 s
 * then); each answer replaces the server wherever it shows (its row in the list, its page:
 * vps-api), and the polling stops once the operation has ended.
 */
export function useFollow(server: Server) {
  const busy = isBusy(server);
  const live = useLiveConnected();
  useGetVpsServerQuery(server.id, {
    skip: !busy,
    pollingInterval: busy ? (live ? OPERATION_LIVE_POLL_MS : OPERATION_POLL_MS) : 0,
    skipPollingIfUnfocused: false,
  });
}
