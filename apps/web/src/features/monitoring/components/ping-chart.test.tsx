import { screen, waitFor, within } from '@testing-library/react';
import type { PingResponse } from '@tradehost/contracts';
import { describe, expect, it, vi } from 'vitest';
import { openSignedIn } from '../../../test/signed-in';
import { monitoringAccount, stubAccountPage } from '../test-utils';

// the library draws on canvases jsdom has not: the plot's text summary is what is read here
vi.mock('lightweight-charts', () => {
  const chart = {
    addSeries: () => ({ setData: () => undefined }),
    timeScale: () => ({ fitContent: () => undefined }),
    remove: () => undefined,
  };
  return { createChart: () => chart, ColorType: { Solid: 'solid' }, LineSeries: 'line' };
});

// the terminal reporting now (a publisher silent for 10 minutes is no longer live)
const NOW = new Date().toISOString();
const ACCOUNT = monitoringAccount({
  last_data_at: NOW,
  terminal_connected: true,
  ea_version: '1.3.0',
  server: 'ICMarkets-Live02',
  ping_ms: 24,
  trade_allowed: true,
  ea_trade_allowed: true,
});
const PING = `/user/monitoring/accounts/${ACCOUNT.id}/ping`;

const answer = (period: PingResponse['period'], pings: [number, number][]): PingResponse => ({
  period,
  step_sec: period === 'day' ? 60 : 600,
  points: pings.map(([ping_ms, max_ms], i) => ({
    time: new Date(Date.parse(NOW) - (pings.length - i) * 60_000).toISOString(),
    ping_ms,
    max_ms,
  })),
});

/** The ping chart's section of the account's page. */
async function pingSection(name = 'Ping to the trade server') {
  const heading = await screen.findByRole('heading', { name }, { timeout: 5000 });
  return within(heading.closest('section')!);
}

describe('the ping chart', () => {
  it('shows the ping now and over the day; another period asks for its own', async () => {
    const api = stubAccountPage(ACCOUNT, {
      'GET $/ping': ({ query }) => ({
        body:
          query.get('period') === 'week'
            ? answer('week', [[40, 300]])
            : answer('day', [
                [20, 25],
                [40, 90],
              ]),
      }),
    });
    const { user } = await openSignedIn(`/online-monitoring/${ACCOUNT.monitoring_id}`);
    const section = await pingSection();
    expect(section.getByText('Now 24 ms')).toBeVisible();
    expect(
      await section.findByRole('img', {
        name: 'Ping chart over the last day: average 30 ms, longest 90 ms',
      }),
    ).toBeInTheDocument();
    expect(section.getByRole('radio', { name: 'Day' })).toBeChecked();

    await user.click(section.getByRole('radio', { name: 'Week' }));
    expect(
      await section.findByRole('img', {
        name: 'Ping chart over the last week: average 40 ms, longest 300 ms',
      }),
    ).toBeInTheDocument();
    // the day first, then the week (a refetch of either may come between: the page polls)
    const periods = api.callsTo('GET', PING).map((call) => call.query.get('period'));
    expect(periods[0]).toBe('day');
    expect(periods.at(-1)).toBe('week');
  });

  it('says why there is no ping: a publisher before 1.3 tells none, the guide has the new one', async () => {
    stubAccountPage({ ...ACCOUNT, ea_version: '1.2.0', ping_ms: null });
    await openSignedIn(`/online-monitoring/${ACCOUNT.monitoring_id}`);
    const section = await pingSection();
    expect(
      await section.findByText(/^No ping measured yet: the ping comes from publisher 1\.3/),
    ).toBeVisible();
    expect(section.getByText('Not measured now')).toBeVisible();
    expect(section.getByRole('link', { name: 'Open the guide' })).toHaveAttribute(
      'href',
      '/online-monitoring/guide',
    );
    expect(section.queryByRole('img')).toBeNull();
  });

  it('says in Russian that a publisher 1.3 measured none while the terminal was not connected', async () => {
    stubAccountPage({ ...ACCOUNT, ping_ms: null, terminal_connected: false }, {}, 'ru');
    await openSignedIn(`/online-monitoring/${ACCOUNT.monitoring_id}`, { language: 'ru' });
    const section = await pingSection('Пинг до торгового сервера');
    expect(
      await section.findByText(
        'Нет пинга за последние сутки: терминал не был подключён к торговому серверу.',
      ),
    ).toBeVisible();
    expect(section.queryByRole('link')).toBeNull();
  });

  it('says when the ping cannot be loaded, and loads it again on retry', async () => {
    let fails = true;
    stubAccountPage(ACCOUNT, {
      'GET $/ping': () =>
        fails
          ? { status: 500, body: { message: 'Internal server error', code: 'INTERNAL' } }
          : { body: answer('day', [[30, 30]]) },
    });
    const { user } = await openSignedIn(`/online-monitoring/${ACCOUNT.monitoring_id}`);
    const section = await pingSection();
    expect(await section.findByText('The ping could not be loaded')).toBeVisible();
    fails = false;
    await user.click(section.getByRole('button', { name: 'Try again' }));
    expect(
      await section.findByRole('img', { name: /average 30 ms, longest 30 ms/ }),
    ).toBeInTheDocument();
  });
});

describe('the Algo Trading notice', () => {
  it.each([
    {
      off: { trade_allowed: false },
      says: 'Algo Trading is switched off in the terminal: Expert Advisors cannot trade.',
    },
    {
      off: { ea_trade_allowed: false },
      says: 'The Expert Advisor is not allowed to trade: tick “Allow Algo Trading” in its settings.',
    },
  ])('says what to tick when $says', async ({ off, says }) => {
    stubAccountPage({ ...ACCOUNT, ...off });
    await openSignedIn(`/online-monitoring/${ACCOUNT.monitoring_id}`);
    const notice = (await screen.findByText(says, {}, { timeout: 5000 })).closest('[role]')!;
    expect(notice).toHaveTextContent('Expert Advisors cannot trade');
    // and the terminal's state beside the account's name says so
    expect(document.querySelector('[data-state="live"]')).toHaveTextContent('Algo Trading off');
  });

  it('says nothing while it is on, or unknown (a publisher before 1.3)', async () => {
    stubAccountPage({ ...ACCOUNT, trade_allowed: null, ea_trade_allowed: null });
    await openSignedIn(`/online-monitoring/${ACCOUNT.monitoring_id}`);
    await pingSection();
    await waitFor(() => expect(document.querySelector('[data-state]')).not.toBeNull());
    expect(screen.queryByText(/Algo Trading/)).toBeNull();
    expect(screen.queryByText('Expert Advisors cannot trade')).toBeNull();
  });
});
