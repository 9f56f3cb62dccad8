/**
 * Test helpers of the monitoring pages: an account of the reader's, and its page's calls
 * answered at the global fetch (src/test/fetch-stub) as for an account with no trades yet.
 */
import type { MonitoringAccount, StatisticsResponse } from '@tradehost/contracts';
import type { Handler } from '../../test/fetch-stub';
import { testUser } from '../../test/fixtures';
import { stubSignedInApi } from '../../test/signed-in';

/** An account of the reader's that no data has reached yet, with `overrides`. */
export function monitoringAccount(overrides: Partial<MonitoringAccount> = {}): MonitoringAccount {
  return {
    id: 7,
    monitoring_id: 'AbCdEfGhIjKlMnOp',
    subscription_id: 1,
    login: 5012345,
    platform: 'MT5',
    name: 'Swing EURUSD',
    email: 'r@example.com',
    created_at: '2026-01-01T00:00:00.000Z',
    is_public: false,
    hide_login: false,
    hide_broker: false,
    hide_money: false,
    hide_positions: false,
    hide_history: false,
    time_zone: 'UTC',
    views: 0,
    server: null,
    company: null,
    currency: 'USD',
    leverage: null,
    ea_version: null,
    last_data_at: null,
    terminal_connected: false,
    balance: null,
    equity: null,
    summary: null,
    ...overrides,
  };
}

/** "Verified by the host" of an account whose publisher has never run on our servers. */
export const NOT_HOSTED: StatisticsResponse['verification'] = {
  verified: false,
  reason: 'not_hosted',
  since: null,
  last_hosted_at: null,
  period_from: null,
  covered: 0,
  checked_at: null,
  broken_from: null,
  broken_to: null,
};

/**
 * The analysis in the statistics of an account without closed trades: no breakdown, and too few
 * trades for the risk of ruin; and its publisher not on our servers (not verified).
 */
export const NO_ANALYSIS: Pick<StatisticsResponse, 'breakdowns' | 'risk_of_ruin' | 'verification'> =
  {
    breakdowns: { symbols: [], hours: [], weekdays: [], directions: [], strategies: [] },
    risk_of_ruin: { reason: 'too_few_trades', estimate: null },
    verification: NOT_HOSTED,
  };

/** The excursions of an account without closed trades. */
export const NO_EXCURSIONS = { trades: [], total: 0, without: 0 };

/**
 * The page of `account` (`/online-monitoring/<its monitoring_id>`): the account, no subscription
 * listed, no trades, excursions, positions, chart points or ping; `more` adds or replaces calls ("$" in a key
 * is the account's path, `/user/monitoring/accounts/<id>`).
 */
export function stubAccountPage(
  account: MonitoringAccount,
  more: Record<string, Handler> = {},
  language: 'en' | 'ru' = 'en',
) {
  const base = `/user/monitoring/accounts/${account.id}`;
  return stubSignedInApi(
    {
      'GET /user/monitoring/accounts': { body: { accounts: [account] } },
      'GET /user/monitoring/subscriptions': { body: { subscriptions: [] } },
      [`GET ${base}/trades`]: { body: { data: [], meta: { page: 1, per_page: 20, total: 0 } } },
      [`GET ${base}/positions`]: { body: { at: null, positions: [] } },
      [`GET ${base}/excursions`]: { body: NO_EXCURSIONS },
      [`GET ${base}/chart`]: { body: { points: [] } },
      [`GET ${base}/ping`]: { body: { period: 'day', step_sec: 60, points: [] } },
      ...Object.fromEntries(
        Object.entries(more).map(([key, handler]) => [key.replace('$', base), handler]),
      ),
    },
    { ...testUser, language },
  );
}
