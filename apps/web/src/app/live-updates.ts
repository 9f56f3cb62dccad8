import type { LiveEvent, LiveEvents } from '@tradehost/contracts';
import { useEffect } from 'react';
import { authApi } from '../features/auth/api/auth-api';
import { supportApi } from '../features/support/api/support-api';
import { baseApi } from '../shared/api/base-api';
import { i18n } from '../shared/i18n';
import { notify } from '../shared/ui/toast/notify';
import { noteBalancesRefreshed } from '../shared/live/balance-refreshes';
import { startLiveClient, type LiveState } from '../shared/live/live-client';
import { setLiveState } from '../shared/live/live-state';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { RootState } from './store';
import { useAppStore } from './hooks';

// An absolute address so that fetch accepts it outside a browser too (tests); the same origin.
const EVENTS_URL = new URL('/api/user/events', globalThis.location?.href ?? 'http://localhost')
  .href;

/** The store's dispatch, thunks included (the API's state joins the store when it loads). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type LiveDispatch = ThunkDispatch<any, unknown, UnknownAction>;

/**
 * Tags of features this module does not import: importing their APIs would load them with the
 * signed-in layout and inject their endpoints before the operator's of the same name.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const invalidate = (tags: readonly unknown[]) => baseApi.util.invalidateTags(tags as any);

/** The partner page's figures (statistics, levels) and its payouts. */
const PARTNER_TAGS = ['PartnerInfo', 'PartnerPayments'] as const;

const TOLD_OPERATIONS = [
  'start',
  'shutdown',
  'reboot',
  'snapshot',
  'rollback',
  'snapshot_delete',
  'reinstall',
  'password_reset',
] as const;

/**
 * An operation the owner asked for (start, shutdown, reboot, the repairs) says when it has ended
 * on whatever page the owner is: it takes minutes, and the owner has usually moved on (the chat
 * that ordered one is told by the bot). The end of an order or an upgrade has its own mail.
 */
function tellOperationEnded({ id, operation }: LiveEvents['server']): void {
  const kind = TOLD_OPERATIONS.find((k) => k === operation?.kind);
  if (!kind || !operation) return;
  const outcome = operation.ok ? 'ok' : 'failed';
  notify(operation.ok ? 'success' : 'error', i18n.t(`serverOperation.${kind}.${outcome}`, { id }), {
    toastId: `server-${id}-${kind}-${outcome}`,
  });
}

/** What a live update changes in the RTK Query cache: patched where it carries the value, else refetched. */
export function applyLiveEvent(dispatch: LiveDispatch, { event, data }: LiveEvent): void {
  switch (event) {
    case 'balance':
      dispatch(
        authApi.util.updateQueryData('getUser', undefined, (user) => {
          if (data.balance !== undefined) user.balance = data.balance;
          if (data.balance_partner !== undefined) user.balance_partner = data.balance_partner;
        }),
      );
      // the histories of payments, transfers and charges show the new entry
      dispatch(authApi.util.invalidateTags(['Payments', 'Transfers', 'Charges', 'Withdrawals']));
      // the partner purse moved (a reward, a payout, a move to the main balance): the partner
      // page's figures and payouts count it
      if (data.balance_partner !== undefined) dispatch(invalidate(PARTNER_TAGS));
      noteBalancesRefreshed();
      return;
    case 'server':
      dispatch(
        invalidate([
          { type: 'VpsServers', id: data.id },
          { type: 'VpsServers', id: 'LIST' },
        ]),
      );
      tellOperationEnded(data);
      return;
    case 'monitoring':
      dispatch(
        invalidate(['MonitoringAccounts', { type: 'MonitoringAlertHistory', id: data.account_id }]),
      );
      return;
    case 'ticket':
      dispatch(supportApi.util.updateQueryData('getSupportUnread', undefined, () => data.unread));
      dispatch(
        supportApi.util.invalidateTags([
          { type: 'SupportTickets', id: data.ticket_id },
          { type: 'SupportTickets', id: 'LIST' },
        ]),
      );
      return;
  }
}

/** After a drop, updates may have been missed: what they would have changed is read again. */
export function resyncAfterDrop(dispatch: LiveDispatch): void {
  dispatch(
    authApi.util.invalidateTags(['User', 'Payments', 'Transfers', 'Charges', 'Withdrawals']),
  );
  noteBalancesRefreshed();
  dispatch(invalidate(['VpsServers', 'MonitoringAccounts', ...PARTNER_TAGS]));
  dispatch(supportApi.util.invalidateTags(['SupportTickets', 'SupportUnread']));
}
/**
 * The live updates of the signed-in console (one stream per tab, while the signed-in layout is
 * shown): events patch the cache (applyLiveEvent); the connection's state tells the pages
 * whether to poll (shared/live/live-state.ts).
 */
export function useLiveUpdates(): void {
  const store = useAppStore();
  useEffect(() => {
    const token = () => {
      const { auth } = store.getState() as RootState;
      return auth.authorized ? auth.token : null;
    };
    let wasOpen = false;
    let dropped = false;
    const stop = startLiveClient({
      url: EVENTS_URL,
      token,
      onEvent: (event) => applyLiveEvent(store.dispatch, event),
      onState: (state: LiveState) => {
        setLiveState(state);
        if (state === 'open') {
          if (dropped) resyncAfterDrop(store.dispatch);
          wasOpen = true;
          dropped = false;
        } else if (state === 'down') {
          dropped = wasOpen;
        }
      },
      // an expired token: a user fetch refreshes it (or ends the session) through the base query
      onUnauthorized: () => store.dispatch(authApi.util.invalidateTags(['User'])),
    });
    return () => {
      stop();
      setLiveState('down');
    };
  }, [store]);
}
