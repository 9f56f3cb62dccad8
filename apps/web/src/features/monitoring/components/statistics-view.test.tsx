import { screen } from '@testing-library/react';
import type { StatisticsResponse } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { renderSignedInPage } from '../../../test/render';
import { NO_ANALYSIS } from '../test-utils';
import { StatisticsView } from './statistics-view';

/** An account's figures: deposits 1,000, a withdrawal 200, profit 120, other results 5. */
function figures(overrides: Partial<StatisticsResponse> = {}): StatisticsResponse {
  return {
    currency: 'USD',
    gain: 0.125,
    absolute_gain: 0.12,
    daily_gain: 0.001,
    monthly_gain: 0.03,
    deposits: 1000,
    withdrawals: 200,
    profit: 120,
    other_results: 5,
    balance: 925,
    equity: 930,
    history_incomplete: false,
    equity_since: '2026-11-02T10:00:00.000Z',
    max_drawdown: 0.05,
    equity_drawdown: 0.07,
    drawdown_money: 50,
    absolute_drawdown: 0,
    trades: {
      count: 4,
      wins: 3,
      losses: 1,
      win_rate: 0.75,
      profit_factor: 3,
      average_win: 60,
      average_loss: -60,
      expectancy: 30,
      best: 80,
      worst: -60,
      longest_win_streak: { count: 2, money: 100 },
      longest_loss_streak: { count: 1, money: -60 },
      lots: 2,
      pips: 30,
      longs_won: 1,
      shorts_won: 0.5,
      average_length_sec: 3600,
      trades_per_week: 2,
    },
    ratios: {
      recovery_factor: 2.4,
      ahpr: 1.01,
      ghpr: 1.009,
      sharpe: 0.4,
      z_score: null,
      activity: 0.2,
      max_deposit_load: 0.1,
    },
    daily: [],
    monthly: [],
    ...NO_ANALYSIS,
    last_data_at: '2026-11-29T10:00:00.000Z',
    ...overrides,
  };
}

function show(s: StatisticsResponse, language: 'en' | 'ru' = 'en') {
  return renderSignedInPage([{ path: '/', element: <StatisticsView s={s} /> }], '/', 'token', {
    language,
  });
}

describe('the statistics view', () => {
  it('says how the money adds up to the balance, other results included', async () => {
    show(figures());
    expect(
      await screen.findByText(
        'Deposits $1,000.00 − withdrawals $200.00 + profit $120.00 + other results $5.00 = balance $925.00',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Other results')).toBeInTheDocument();
    expect(
      screen.getByText(
        /^Equity figures since Nov\s2,\s2026, when the Expert Advisor was first attached\.$/,
      ),
    ).toBeInTheDocument();
  });

  it('in Russian: «Пипсы», «Прочие результаты» and the sum in the reader’s notation', async () => {
    show(figures(), 'ru');
    expect(await screen.findByText('Пипсы')).toBeInTheDocument();
    expect(screen.getByText('Прочие результаты')).toBeInTheDocument();
    expect(screen.queryByText('Пункты')).toBeNull();
    expect(screen.getByText(/^Пополнения 1\s000,00\s\$ − выводы 200,00\s\$ /)).toBeInTheDocument();
  });

  it('flags a history the terminal did not send whole, with what to do', async () => {
    show(figures({ history_incomplete: true }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Part of the history is missing');
    expect(alert).toHaveTextContent('choose All History');
  });

  it('says nothing of the history or the money sum when it is whole and the money hidden', async () => {
    show(
      figures({
        deposits: null,
        withdrawals: null,
        profit: null,
        other_results: null,
        balance: null,
        equity_since: null,
      }),
    );
    await screen.findByText('Gain');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/= balance/)).toBeNull();
    expect(screen.queryByText('Other results')).toBeNull();
  });
});
