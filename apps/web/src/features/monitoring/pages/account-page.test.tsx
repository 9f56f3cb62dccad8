import { screen, within } from '@testing-library/react';
import type { MonitoringAccount, StatisticsResponse } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { openSignedIn } from '../../../test/signed-in';
import { monitoringApi } from '../api/monitoring-api';
import { monitoringAccount, NO_ANALYSIS, NO_EXCURSIONS, stubAccountPage } from '../test-utils';

const ACCOUNT = monitoringAccount({
  id: 9,
  monitoring_id: 'WaItInGfOrDaTa01',
  subscription_id: 3,
  login: 5067890,
  platform: 'MT4',
  name: 'New scalper',
});

/** The figures of an account: all zeros without data, as the API computes them then. */
function statistics(lastDataAt: string | null, gain = 0): StatisticsResponse {
  const money = lastDataAt ? 1000 : 0;
  // the figures the page reads, each of its type; fields the answer gains later do not matter here
  const figures = {
    currency: 'USD',
    gain,
    absolute_gain: gain,
    daily_gain: null,
    monthly_gain: null,
    deposits: money,
    withdrawals: 0,
    profit: 0,
    balance: money,
    equity: money,
    max_drawdown: 0,
    equity_drawdown: 0,
    drawdown_money: 0,
    absolute_drawdown: 0,
    trades: {
      count: 0,
      wins: 0,
      losses: 0,
      win_rate: null,
      profit_factor: null,
      average_win: null,
      average_loss: null,
      expectancy: null,
      best: null,
      worst: null,
      longest_win_streak: { count: 0, money: 0 },
      longest_loss_streak: { count: 0, money: 0 },
      lots: 0,
      pips: 0,
      longs_won: null,
      shorts_won: null,
      average_length_sec: null,
      trades_per_week: null,
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
    last_data_at: lastDataAt,
  } satisfies Partial<StatisticsResponse>;
  return figures as unknown as StatisticsResponse;
}

const stub = (account: MonitoringAccount, figures: StatisticsResponse, language: 'en' | 'ru') =>
  stubAccountPage(
    account,
    {
      'GET $/statistics': { body: figures },
      [`POST /user/monitoring/subscriptions/${account.subscription_id}/key`]: {
        body: { key: 'mk_waitingwaitingwaitingwaiting12' },
      },
    },
    language,
  );

describe('an account no data has reached yet', () => {
  it.each([
    ['en' as const, 'Waiting for the terminal’s first data', 'Show the activation key', /guide/],
    ['ru' as const, 'Ждём первые данные от терминала', 'Показать ключ активации', /инструкц/],
  ])(
    'says in %s that it waits for the first data, with the key and the guide, and shows no zero figures',
    async (language, title, showKey, guide) => {
      stub(ACCOUNT, statistics(null), language);
      const { user } = await openSignedIn(`/online-monitoring/${ACCOUNT.monitoring_id}`, {
        language,
      });
      const waiting = (
        await screen.findByRole('heading', { name: title }, { timeout: 5000 })
      ).closest('section')!;
      const view = within(waiting);
      expect(waiting).toHaveTextContent(String(ACCOUNT.login));
      expect(view.getByRole('link', { name: guide })).toHaveAttribute(
        'href',
        '/online-monitoring/guide',
      );
      await user.click(view.getByRole('button', { name: showKey }));
      expect(await view.findByTestId('activation-key')).toHaveTextContent(
        'mk_waitingwaitingwaitingwaiting12',
      );
      // no figures, tables or trades of an account that has none
      expect(screen.queryByLabelText(/Headline figures|Главные показатели/)).toBeNull();
      expect(document.body).not.toHaveTextContent(/0[.,]00\s?%/);
      expect(document.body).not.toHaveTextContent(/\$0\.00|0,00\s?\$/);
      expect(screen.queryByRole('heading', { name: /Trade history|История сделок/ })).toBeNull();
      // what is still the owner's to set: the settings, the removal among them
      expect(screen.getByRole('heading', { name: /Settings|Настройки/ })).toBeVisible();
    },
  );

  it('gives way to the figures when the first data comes, as a live update says', async () => {
    const now = '2026-11-29T10:00:00.000Z';
    let arrived = false;
    const base = `/user/monitoring/accounts/${ACCOUNT.id}`;
    // `arrived`: the API answers with the data the terminal has sent
    const api = stubAccountPage(ACCOUNT, {
      'GET /user/monitoring/accounts': () => ({
        body: {
          accounts: [
            arrived ? { ...ACCOUNT, last_data_at: now, balance: 1000, equity: 1000 } : ACCOUNT,
          ],
        },
      }),
      'GET $/statistics': () => ({ body: statistics(arrived ? now : null, 0.05) }),
    });
    const { store } = await openSignedIn(`/online-monitoring/${ACCOUNT.monitoring_id}`);
    const title = 'Waiting for the terminal’s first data';
    expect(await screen.findByRole('heading', { name: title }, { timeout: 5000 })).toBeVisible();
    expect(screen.queryByLabelText('Headline figures')).toBeNull();

    arrived = true;
    store.dispatch(monitoringApi.util.invalidateTags(['MonitoringAccounts']));
    const headline = await screen.findByLabelText('Headline figures', {}, { timeout: 5000 });
    expect(headline).toHaveTextContent('+5.00%');
    expect(screen.queryByRole('heading', { name: title })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Trade history' })).toBeVisible();
    expect(api.callsTo('GET', `${base}/statistics`).length).toBeGreaterThan(1);
  });
});

describe('an account whose terminal runs an old publisher', () => {
  it.each([
    ['en' as const, 'Update the publisher of this terminal', 'Open the guide'],
    ['ru' as const, 'Обновите публикатор в этом терминале', 'Открыть руководство'],
  ])('asks in %s for version 1.2, with the guide', async (language, title, guide) => {
    const now = '2026-11-29T10:00:00.000Z';
    const old = { ...ACCOUNT, last_data_at: now, balance: 1000, equity: 1000, ea_version: '1.1.0' };
    stub(old, statistics(now), language);
    await openSignedIn(`/online-monitoring/${ACCOUNT.monitoring_id}`, { language });
    const notice = (await screen.findByText(title, {}, { timeout: 5000 })).closest('[role]')!;
    expect(notice).toHaveTextContent('1.1.0');
    expect(within(notice as HTMLElement).getByRole('link', { name: guide })).toHaveAttribute(
      'href',
      '/online-monitoring/guide',
    );
  });

  it('says nothing to a terminal on 1.2', async () => {
    const now = '2026-11-29T10:00:00.000Z';
    const current = { ...ACCOUNT, last_data_at: now, ea_version: '1.2.0' };
    stub(current, statistics(now), 'en');
    await openSignedIn(`/online-monitoring/${ACCOUNT.monitoring_id}`);
    await screen.findByLabelText('Headline figures', {}, { timeout: 5000 });
    expect(screen.queryByText('Update the publisher of this terminal')).toBeNull();
  });
});

describe('the period of the days and months and of the analysis', () => {
  it('is one: either picker changes it, the other shows it, and the one used keeps the focus', async () => {
    const now = '2026-11-29T10:00:00.000Z';
    const live = { ...ACCOUNT, last_data_at: now, balance: 1000, equity: 1000 };
    const api = stub(live, statistics(now), 'en');
    const { user } = await openSignedIn(`/online-monitoring/${ACCOUNT.monitoring_id}`);
    const periods = within(
      await screen.findByRole('region', { name: 'Days and months' }, { timeout: 5000 }),
    );
    const analysis = within(screen.getByRole('region', { name: 'Analysis' }));
    expect(await analysis.findByText('No trades were closed in this period.')).toBeVisible();
    expect(periods.getByRole('radio', { name: 'All' })).toBeChecked();
    expect(analysis.getByRole('radio', { name: 'All' })).toBeChecked();

    const week = analysis.getByRole('radio', { name: 'Week' });
    await user.click(week);
    expect(week).toBeChecked();
    expect(week).toHaveFocus();
    expect(periods.getByRole('radio', { name: 'Week' })).toBeChecked();
    // the statistics of the week, which both show
    await expect
      .poll(() =>
        api
          .callsTo('GET', `/user/monitoring/accounts/${ACCOUNT.id}/statistics`)
          .some((call) => call.query.has('from')),
      )
      .toBe(true);

    const month = periods.getByRole('radio', { name: 'Month' });
    await user.click(month);
    expect(month).toHaveFocus();
    expect(analysis.getByRole('radio', { name: 'Month' })).toBeChecked();
    expect(analysis.getByRole('radio', { name: 'Week' })).not.toBeChecked();
  });
});

describe("the owner's page: the mark, the risks and the widgets", () => {
  const now = '2026-11-29T10:00:00.000Z';
  const live = { ...ACCOUNT, last_data_at: now, balance: 1000, equity: 1000 };
  const trade = {
    position_id: '1',
    symbol: 'EURUSD',
    direction: 'long' as const,
    close_time: now,
    result: 24,
    result_points: 120,
    mae: -8,
    mfe: 30,
    mae_points: -40,
    mfe_points: 150,
  };

  it('says under the title why the account is not verified, draws the risks and offers the widgets once public', async () => {
    stubAccountPage(
      { ...live, is_public: true },
      {
        'GET $/statistics': {
          body: {
            ...statistics(now),
            verification: {
              ...NO_ANALYSIS.verification,
              reason: 'gap',
              broken_from: '2026-11-10T09:00:00.000Z',
              broken_to: '2026-11-10T10:30:00.000Z',
            },
          },
        },
        'GET $/excursions': { body: { trades: [trade], total: 1, without: 2 } },
      },
    );
    await openSignedIn(`/online-monitoring/${ACCOUNT.monitoring_id}`);
    const mark = await screen.findByTestId('verification', {}, { timeout: 5000 });
    expect(mark).toHaveTextContent(
      /^Not verified by the host the publisher was silent for a while/,
    );
    // under the title, before the figures
    const title = screen.getByRole('heading', { name: 'New scalper', level: 2 });
    expect(title.compareDocumentPosition(mark) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const risks = within(screen.getByRole('region', { name: 'Risks' }));
    expect(
      await risks.findByRole('img', { name: /^Result against MAE of 1 trade \(1 won, 0 lost\)/ }),
    ).toBeVisible();
    expect(
      risks.getByText('2 older trades have no excursions: they closed before publisher 1.4.'),
    ).toBeVisible();
    const embed = within(screen.getByRole('region', { name: 'Share and embed' }));
    expect(embed.getByRole('button', { name: 'Copy the HTML' })).toBeVisible();
  });

  it('without a trade with excursions, asks a terminal on publisher 1.3 for 1.4; a private account says where to share it', async () => {
    stubAccountPage(
      { ...live, ea_version: '1.3.0' },
      {
        'GET $/statistics': { body: statistics(now) },
        'GET $/excursions': { body: NO_EXCURSIONS },
      },
      'ru',
    );
    await openSignedIn(`/online-monitoring/${ACCOUNT.monitoring_id}`, { language: 'ru' });
    const risks = within(await screen.findByRole('region', { name: 'Риски' }, { timeout: 5000 }));
    expect(await risks.findByText('Закрытых сделок с MAE и MFE пока нет.')).toBeVisible();
    expect(risks.getByRole('link', { name: 'Как обновить' })).toHaveAttribute(
      'href',
      '/online-monitoring/guide#guide-update',
    );
    const embed = within(screen.getByRole('region', { name: 'Поделиться и встроить' }));
    expect(
      embed.getByText(/^Виджеты заработают, когда публичная страница будет включена/),
    ).toBeVisible();
    expect(embed.queryByRole('img')).toBeNull();
  });
});
