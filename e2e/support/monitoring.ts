import type { APIRequestContext } from '@playwright/test';
import { createTerminal, snapshotAt } from '../../packages/simulator/src/index.ts';
import { createVerifiedUser } from './app.ts';
import { ApiSession } from './money.ts';

/**
 * Online monitoring for the journeys that are not about setting it up: a trader with the free
 * plan and one account, and the simulated MetaTrader terminal (packages/simulator) that publishes
 * for it over the real ingestion protocol.
 */

/** An account number no other journey uses. */
export const uniqueLogin = () => 60_000_000 + Math.floor(Math.random() * 9_000_000);

export interface MonitoredAccount {
  user: { name: string; email: string; password: string };
  api: ApiSession;
  account: { id: number; monitoring_id: string; name: string };
  login: number;
  key: string;
}

/** A confirmed trader who took the free plan and added one account (mails to the trader). */
export async function monitoredAccount(
  request: APIRequestContext,
  fields: { userName?: string; accountName?: string } = {},
): Promise<MonitoredAccount> {
  const user = await createVerifiedUser(request, { name: fields.userName ?? 'Mona Monitor' });
  const api = new ApiSession(request, user.email);
  const { subscription } = await api.json<{ subscription: { id: number } }>(
    'POST',
    '/api/user/monitoring/subscriptions/free',
    201,
  );
  const login = uniqueLogin();
  const { account } = await api.json<{ account: MonitoredAccount['account'] }>(
    'POST',
    '/api/user/monitoring/accounts',
    201,
    {
      data: {
        subscription_id: subscription.id,
        login,
        platform: 'MT5',
        name: fields.accountName ?? 'Swing',
        email: user.email,
      },
    },
  );
  const { key } = await api.json<{ key: string }>(
    'POST',
    `/api/user/monitoring/subscriptions/${subscription.id}/key`,
    200,
  );
  return { user, api, account, login, key };
}

/**
 * The account's terminal, its history published and one ordinary snapshot sent. `equity(x)`
 * sends a snapshot of this moment whose equity is `x` with no position open: the move that
 * crosses an alert's line; `algoTradingOff()` one that says Algo Trading is switched off in the
 * terminal (its ping 24 ms, as the simulator's).
 */
export async function publishingTerminal(baseURL: string, monitored: MonitoredAccount) {
  const { login, key } = monitored;
  const terminal = createTerminal({ url: baseURL, key, login, months: 1 });
  await terminal.publishHistory();
  await terminal.streamSnapshots(1);
  const { history, publisher } = terminal;
  return {
    /** The balance the history left, in the account's currency. */
    balance: history.balance,
    async equity(equity: number) {
      const flat = snapshotAt(history, login, new Date(), Math.random, false);
      await publisher.snapshot({
        ...flat,
        equity,
        free_margin: equity,
        equity_low: equity,
        equity_high: equity,
      });
    },
    async algoTradingOff() {
      await publisher.snapshot({
        ...snapshotAt(history, login, new Date(), Math.random, false),
        ping_ms: 24,
        trade_allowed: false,
        ea_trade_allowed: true,
      });
    },
  };
}
