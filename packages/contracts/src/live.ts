import type { OperationKind } from './vps.ts';

/**
 * The live updates of the console: server-sent events of `GET /api/user/events`, one stream per
 * tab. Each is a hint that something the console shows has changed; the console patches or
 * refetches what it shows, and polls instead while the stream is down.
 */
export interface LiveEvents {
  /** A purse changed (money arrived or left); only the purses that changed are present. */
  balance: { balance?: number; balance_partner?: number };
  /**
   * A server's operation ended: its state now and, when the operation's end was recorded, which
   * it was and whether it did what was asked (the console says so).
   */
  server: {
    id: number;
    status: string;
    power: string;
    operation?: { kind: OperationKind; ok: boolean };
  };
  /** New data arrived for a monitoring account (at most one event per account every few seconds). */
  monitoring: { account_id: number };
  /** Staff answered a ticket or changed its status; `unread` is the user's unread ticket count. */
  ticket: { ticket_id: number; unread: number };
}

export type LiveEventName = keyof LiveEvents;

/** One live update as it travels between the instances (pub/sub channel `user:<id>`). */
export type LiveEvent = {
  [K in LiveEventName]: { event: K; data: LiveEvents[K] };
}[LiveEventName];

export const LIVE_EVENT_NAMES: readonly LiveEventName[] = [
  'balance',
  'server',
  'monitoring',
  'ticket',
];

export function isLiveEventName(name: unknown): name is LiveEventName {
  return typeof name === 'string' && (LIVE_EVENT_NAMES as readonly string[]).includes(name);
}
