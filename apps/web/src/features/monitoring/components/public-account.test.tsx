import { screen, within } from '@testing-library/react';
import type { PublicAccountResponse, StatisticsResponse } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { renderSignedInPage } from '../../../test/render';
import { stubSignedInApi } from '../../../test/signed-in';
import { NO_ANALYSIS } from '../test-utils';
import { PublicAccount } from './public-account';

const ID = 'PuBlIcAcCoUnT001';

/** The figures of the public page, the fields it reads; `overrides` on them. */
function statistics(overrides: Partial<StatisticsResponse> = {}): StatisticsResponse {
  const figures = {
    currency: 'USD',
    gain: 0.1,
    absolute_gain: 0.1,
    daily_gain: null,
    monthly_gain: null,
    deposits: 1000,
    withdrawals: 0,
    profit: 100,
    other_results: 0,
    balance: 1100,
    equity: 1100,
    history_incomplete: false,
    equity_since: '2026-03-02T09:00:00.000Z',
    max_drawdown: 0.02,
    equity_drawdown: 0.03,
    drawdown_money: 20,
    absolute_drawdown: 0,
    trades: {
      count: 1,
      wins: 1,
      losses: 0,
      win_rate: 1,
      profit_factor: null,
      average_win: 100,
      average_loss: null,
      expectancy: 100,
      best: 100,
      worst: 100,
      longest_win_streak: { count: 1, money: 100 },
      longest_loss_streak: { count: 0, money: 0 },
      lots: 0.1,
      pips: 10,
      longs_won: 1,
      shorts_won: null,
      average_length_sec: 3600,
      trades_per_week: 1,
    },
    ratios: {
      recovery_factor: null,
      ahpr: null,
      ghpr: null,
      sharpe: null,
      z_score: null,
      activity: null,
      max_deposit_load: null,
    },
    daily: [],
    monthly: [],
    ...NO_ANALYSIS,
    last_data_at: '2026-11-29T10:00:00.000Z',
    ...overrides,
  } satisfies Partial<StatisticsResponse>;
  return figures as unknown as StatisticsResponse;
}

function publicAccount(
  account: Partial<PublicAccountResponse['account']>,
  figures: StatisticsResponse,
): PublicAccountResponse {
  return {
    account: {
      monitoring_id: ID,
      name: 'Shared swing',
      platform: 'MT5',
      login: 5012345,
      company: null,
      server: null,
      currency: 'USD',
      leverage: null,
      trade_mode: 'real',
      created_at: '2026-03-01T00:00:00.000Z',
      last_data_at: '2026-11-29T10:00:00.000Z',
      terminal_connected: true,
      views: 3,
      time_zone: 'UTC',
      shows_money: true,
      shows_positions: false,
      shows_history: true,
      ...account,
    },
    statistics: figures,
  };
}

const TRADE = {
  position_id: '1',
  symbol: 'EURUSD',
  direction: 'long' as const,
  close_time: '2026-11-29T09:00:00.000Z',
  result: 100,
  result_points: 1000,
  mae: -30,
  mfe: 120,
  mae_points: -300,
  mfe_points: 1200,
};

function show(page: PublicAccountResponse) {
  const api = stubSignedInApi({
    [`GET /monitoring/${ID}`]: { body: page },
    [`GET /monitoring/${ID}/chart`]: { body: { points: [] } },
    [`GET /monitoring/${ID}/trades`]: {
      body: { data: [], meta: { page: 1, per_page: 20, total: 0 } },
    },
    [`GET /monitoring/${ID}/excursions`]: { body: { trades: [TRADE], total: 1, without: 0 } },
  });
  renderSignedInPage([{ path: '/', element: <PublicAccount monitoringId={ID} /> }], '/', 'token');
  return api;
}

describe("the public page's mark and risks", () => {
  it('shows "Verified by TradeHost" under the title, and the risks of a history it shows', async () => {
    show(
      publicAccount(
        {},
        statistics({
          verification: {
            verified: true,
            reason: null,
            since: '2026-03-02T09:00:00.000Z',
            last_hosted_at: '2026-11-29T10:00:00.000Z',
            period_from: '2026-03-02T09:00:00.000Z',
            covered: 1,
            checked_at: '2026-11-29T09:55:00.000Z',
            broken_from: null,
            broken_to: null,
          },
        }),
      ),
    );
    const mark = await screen.findByTestId('verification');
    expect(mark.querySelector('summary')).toHaveTextContent(
      /^Verified by TradeHost since Mar 2, 2026$/,
    );
    // what the mark does not prove is there to open, on the page anyone sees
    expect(mark).toHaveTextContent('belongs to the owner of this page');
    const risks = within(await screen.findByRole('region', { name: 'Risks' }));
    expect(
      await risks.findByRole('img', { name: /^Result against MAE of 1 trade \(1 won, 0 lost\)/ }),
    ).toBeVisible();
  });

  it('says only "Not verified by the host" with the short reason; no risks where the history is hidden, nor asked for', async () => {
    const api = show(publicAccount({ shows_history: false }, statistics()));
    const mark = await screen.findByTestId('verification');
    expect(mark).toHaveTextContent(
      /^Not verified by the host the publisher does not run on a TradeHost server$/,
    );
    expect(mark.querySelector('details, summary')).toBeNull();
    await screen.findByLabelText('Headline figures');
    expect(screen.queryByRole('region', { name: 'Risks' })).toBeNull();
    expect(api.callsTo('GET', `/monitoring/${ID}/excursions`)).toHaveLength(0);
  });
});
