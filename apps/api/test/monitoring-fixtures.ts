import { expect } from 'vitest';
import { fund, postKeyed, quickUser, type Json, type TestApp } from './helpers.ts';

/** What the monitoring tests publish: the protocol's messages, a publisher, a known history. */

export const FREE = '/api/user/monitoring/subscriptions/free';
export const HELLO = '/api/ingest/v1/hello';
export const DEALS = '/api/ingest/v1/deals';
export const SNAPSHOT = '/api/ingest/v1/snapshot';
export const LOGIN = 5_012_345;

export const hello = (fields: Record<string, unknown> = {}) => ({
  platform: 'MT5',
  login: LOGIN,
  server: 'Broker-Live',
  company: 'Broker Ltd',
  currency: 'USD',
  leverage: 500,
  trade_mode: 'real',
  margin_mode: 'hedging',
  server_time_offset_sec: 7200,
  ea_version: '1.0.0',
  ...fields,
});
export const deal = (ticket: number, fields: Record<string, unknown> = {}) => ({
  ticket,
  order: ticket,
  position_id: ticket,
  time: new Date(Date.UTC(2026, 0, 5, 9, 0, ticket % 60)).toISOString(),
  type: 'balance',
  entry: 'in',
  symbol: '',
  digits: 0,
  volume: 0,
  price: 0,
  profit: 1000,
  swap: 0,
  commission: 0,
  fee: 0,
  magic: 0,
  comment: 'Deposit',
  equity_before: 0,
  ...fields,
});
/** A trade's deal (buy or sell): no result, comment or equity before unless `fields` say. */
export const tradeDeal = (ticket: number, fields: Record<string, unknown>) =>
  deal(ticket, { comment: '', equity_before: null, profit: 0, ...fields });
export const snapshot = (fields: Record<string, unknown> = {}) => ({
  login: LOGIN,
  time: '2026-01-05T10:00:10.000Z',
  balance: 1000,
  equity: 990,
  margin: 20,
  free_margin: 970,
  credit: 0,
  equity_low: 985,
  equity_high: 1001,
  terminal_connected: true,
  positions: [],
  ...fields,
});

/** A user with the free plan and the account LOGIN added: its activation key. */
export async function publisherOf(t: TestApp, login = LOGIN) {
  const user = await quickUser(t);
  const free = await t.api.post(FREE, undefined, { token: user.token });
  const subscription = free.body.subscription.id as number;
  const added = await t.api.post(
    '/api/user/monitoring/accounts',
    { subscription_id: subscription, login, platform: 'MT5', name: 'Main', email: 'r@example.com' },
    { token: user.token },
  );
  expect(added.status).toBe(201);
  const key = await t.api.post(
    `/api/user/monitoring/subscriptions/${subscription}/key`,
    undefined,
    {
      token: user.token,
    },
  );
  return { user, subscription, key: key.body.key as string, account: added.body.account };
}

/** A paid subscription of `who` for 2 accounts and a month, bought with money put on first. */
export async function paidSubscription(
  t: TestApp,
  who: { id: number; token: string },
): Promise<Json> {
  await fund(t, who.id, 100_000);
  const paid = await postKeyed(
    t,
    '/api/user/monitoring/subscriptions',
    { accounts: 2, months: 1 },
    who,
  );
  expect(paid.status, paid.text).toBe(201);
  return paid.body.subscription;
}

export const send = (t: TestApp, path: string, key: string, body: unknown) =>
  t.api.post(path, body, { headers: { authorization: `Bearer ${key}` } });

export const at = (day: number, hour = 12) =>
  new Date(Date.UTC(2026, 0, 5 + day, hour)).toISOString();

/**
 * The statistics module's first hand-computed history (gain 1.093 x 0.9 x 1.05 - 1 = 3.2885 %,
 * deposits 1500, a withdrawal 433.7, three trades netting -16.3) as deals of the protocol.
 */
export function handComputedHistory() {
  const cash = (ticket: number, time: string, profit: number, equity_before: number) =>
    deal(ticket, { time, profit, equity_before });
  const side = (
    ticket: number,
    position: number,
    time: string,
    type: string,
    entry: string,
    price: number,
    profit = 0,
    commission = 0,
  ) =>
    tradeDeal(ticket, {
      position_id: position,
      time,
      type,
      entry,
      symbol: 'EURUSD',
      digits: 5,
      volume: 1,
      price,
      profit,
      commission,
    });
  // the statistics module's first hand-computed history: gain 1.093 x 0.9 x 1.05 - 1
  const history = [
    cash(1, at(0), 1000, 0),
    side(2, 100, at(1, 9), 'buy', 'in', 1.1, 0, -7),
    side(3, 100, at(1, 15), 'sell', 'out', 1.101, 100),
    cash(4, at(2), 500, 1093),
    side(5, 200, at(3, 9), 'sell', 'in', 1.1),
    side(6, 200, at(3, 15), 'buy', 'out', 1.10159, -159.3),
    cash(7, at(4), -433.7, 1433.7),
    side(8, 300, at(5, 9), 'buy', 'in', 1.1),
    side(9, 300, at(5, 15), 'sell', 'out', 1.1005, 50),
  ];
  return history;
}
