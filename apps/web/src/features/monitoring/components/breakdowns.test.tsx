import { screen, within } from '@testing-library/react';
import type {
  BreakdownRowResponse,
  BreakdownsResponse,
  StatisticsResponse,
} from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '../../../test/fetch-stub';
import { renderSignedInPage } from '../../../test/render';
import { useGetStatisticsQuery } from '../api/monitoring-api';
import analysisStyles from './analysis.module.css';
import { Breakdowns } from './breakdowns';

/** A row of `trades` trades, `wins` of them won, the rest's figures as given. */
function row(
  key: string,
  trades: number,
  wins: number,
  figures: Partial<BreakdownRowResponse> = {},
): BreakdownRowResponse {
  return {
    key,
    trades,
    wins,
    win_rate: trades > 0 ? wins / trades : null,
    lots: 0,
    profit: 0,
    gross_profit: 0,
    gross_loss: 0,
    profit_factor: null,
    pips: null,
    ...figures,
  };
}

/**
 * Five trades: three EURUSD (two won) opened on Monday 09:xx, two XAUUSD (both won) on Wednesday
 * 14:xx; four buys and a sell; three by the EA 12345 (named "Grid bot"), one by hand, one by the
 * EA 777 (unnamed, lost 10).
 */
function breakdowns(): BreakdownsResponse {
  const hours = Array.from({ length: 24 }, (_, hour) => row(String(hour), 0, 0));
  hours[9] = row('9', 3, 2, { profit: 50, gross_profit: 80, gross_loss: 30 });
  hours[14] = row('14', 2, 2, { profit: 12.5, gross_profit: 12.5 });
  const weekdays = Array.from({ length: 7 }, (_, day) => row(String(day + 1), 0, 0));
  weekdays[0] = row('1', 3, 2, { profit: 50 });
  weekdays[2] = row('3', 2, 2, { profit: 12.5 });
  return {
    symbols: [
      row('EURUSD', 3, 2, {
        lots: 0.6,
        profit: 50,
        gross_profit: 80,
        gross_loss: 30,
        profit_factor: 80 / 30,
        pips: 25.5,
      }),
      row('XAUUSD', 2, 2, { lots: 0.02, profit: 12.5, gross_profit: 12.5 }),
    ],
    hours,
    weekdays,
    directions: [
      row('long', 4, 3, {
        lots: 0.61,
        profit: 72.5,
        gross_profit: 92.5,
        gross_loss: 20,
        profit_factor: 92.5 / 20,
      }),
      row('short', 1, 0, { lots: 0.01, profit: -10, gross_loss: 10, profit_factor: 0 }),
    ],
    strategies: [
      {
        ...row('12345', 3, 2, { lots: 0.6, profit: 50, gross_profit: 70, gross_loss: 20 }),
        profit_factor: 3.5,
        name: 'Grid bot',
      },
      { ...row('0', 1, 1, { lots: 0.01, profit: 22.5, gross_profit: 22.5 }), name: null },
      {
        ...row('777', 1, 0, { lots: 0.01, profit: -10, gross_loss: 10, profit_factor: 0 }),
        name: null,
      },
    ],
  };
}

/** `b` as a public page that shows percentages only sends it: every amount null. */
function hidingMoney(b: BreakdownsResponse): BreakdownsResponse {
  const hide = <T extends BreakdownRowResponse>(r: T): T => ({
    ...r,
    profit: null,
    gross_profit: null,
    gross_loss: null,
  });
  return {
    symbols: b.symbols.map(hide),
    hours: b.hours.map(hide),
    weekdays: b.weekdays.map(hide),
    directions: b.directions.map(hide),
    strategies: b.strategies.map(hide),
  };
}

function show(
  b: BreakdownsResponse,
  { language = 'en', accountId }: { language?: 'en' | 'ru'; accountId?: number } = {},
) {
  return renderSignedInPage(
    [
      {
        path: '/',
        element: (
          <Breakdowns
            breakdowns={b}
            currency="USD"
            timeZone="Europe/Berlin"
            accountId={accountId}
          />
        ),
      },
    ],
    '/',
    'token',
    { language },
  );
}

/** The header cells of the table named `name`, and the texts of each body row's cells. */
function table(name: string) {
  const rows = within(screen.getByRole('table', { name })).getAllByRole('row');
  const [head, ...body] = rows;
  return {
    headers: within(head!)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent),
    rows: body.map((r) =>
      [...within(r).getAllByRole('rowheader'), ...within(r).getAllByRole('cell')].map(
        (cell) => cell.textContent,
      ),
    ),
  };
}

/** The accessible names of the chart's bars. */
const bars = (chart: string) =>
  within(screen.getByRole('group', { name: chart }))
    .getAllByRole('img')
    .map((bar) => bar.getAttribute('aria-label'));

describe('the analysis of the trades', () => {
  it('opens by symbol: a bar of profit a symbol and the table of its figures, “no losses” for a profit factor without losses', async () => {
    show(breakdowns());
    const tabs = await screen.findByRole('tablist', { name: 'Split the trades' });
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['By symbol', 'By hour', 'By weekday', 'By direction', 'By strategy']);
    expect(screen.getByRole('tab', { name: 'By symbol' })).toHaveAttribute('aria-selected', 'true');
    expect(table('Trades by symbol')).toEqual({
      headers: ['Symbol', 'Trades', 'Lots', 'Win rate', 'Profit', 'Pips', 'Profit factor'],
      rows: [
        ['EURUSD', '3', '0.60', '66.67%', '$50.00', '25.5', '2.67'],
        ['XAUUSD', '2', '0.02', '100.00%', '$12.50', '—', 'no losses'],
      ],
    });
    expect(bars('Profit by symbol')).toEqual(['EURUSD: $50.00', 'XAUUSD: $12.50']);
    // a gain in the positive colour
    const [eurusd] = within(screen.getByRole('group', { name: 'Profit by symbol' })).getAllByRole(
      'img',
    );
    expect(eurusd!.querySelector('rect')).toHaveClass(analysisStyles.gain!);
    expect(screen.getByText(/the account’s time zone, Europe\/Berlin/)).toBeVisible();
  });

  it('moves between the splits with the arrow keys and selects with Enter: the hours, all 24 of the opening', async () => {
    const { user } = show(breakdowns());
    const symbols = await screen.findByRole('tab', { name: 'By symbol' });
    await user.tab();
    expect(symbols).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'By hour' })).toHaveFocus();
    // manual activation: still the symbols until Enter
    expect(screen.getByRole('table', { name: 'Trades by symbol' })).toBeVisible();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('tabpanel', { name: 'By hour' })).toBeVisible();
    const hours = table('Trades by the hour they were opened');
    expect(hours.headers).toEqual(['Hour opened', 'Trades', 'Win rate', 'Profit']);
    expect(hours.rows).toHaveLength(24);
    expect(hours.rows[0]).toEqual(['00:00–01:00', '0', '—', '$0.00']);
    expect(hours.rows[9]).toEqual(['09:00–10:00', '3', '66.67%', '$50.00']);
    expect(hours.rows[23]![0]).toBe('23:00–24:00');
    const chart = bars('Profit by the hour of opening');
    expect(chart).toHaveLength(24);
    expect(chart[14]).toBe('14:00–15:00: $12.50');

    await user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'By strategy' })).toHaveFocus();
    await user.keyboard('{ArrowRight}{ArrowRight}{Enter}');
    expect(screen.getByRole('tab', { name: 'By hour' })).toHaveAttribute('aria-selected', 'true');
  });

  it.each([
    [
      'en' as const,
      'By weekday',
      'Trades by the weekday they were opened',
      ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
    ],
    [
      'ru' as const,
      'По дням недели',
      'Сделки по дню недели открытия',
      ['Понедельник', 'Вторник', 'Среда', 'Четверг', 'Пятница', 'Суббота', 'Воскресенье'],
    ],
  ])(
    'names the weekdays in the reader’s language (%s), from Monday',
    async (language, tab, name, days) => {
      const { user } = show(breakdowns(), { language });
      await user.click(await screen.findByRole('tab', { name: tab }));
      const weekdays = table(name);
      expect(weekdays.rows.map((cells) => cells[0])).toEqual(days);
      expect(weekdays.rows[2]!.slice(1)).toEqual(
        language === 'en' ? ['2', '100.00%', '$12.50'] : ['2', '100,00\u00a0%', '12,50\u00a0$'],
      );
    },
  );

  it('splits by direction as the trades say it, a loss in the negative colour', async () => {
    const { user } = show(breakdowns());
    await user.click(await screen.findByRole('tab', { name: 'By direction' }));
    expect(table('Trades by direction')).toEqual({
      headers: ['Direction', 'Trades', 'Lots', 'Win rate', 'Profit', 'Profit factor'],
      rows: [
        ['Buy', '4', '0.61', '75.00%', '$72.50', '4.63'],
        ['Sell', '1', '0.01', '0.00%', '−$10.00', '0.00'],
      ],
    });
    const [, short] = within(
      screen.getByRole('group', { name: 'Profit by direction' }),
    ).getAllByRole('img');
    expect(short).toHaveAccessibleName('Sell: −$10.00');
    expect(short!.querySelector('rect')).toHaveClass(analysisStyles.loss!);
  });

  it('names the strategies: the owner’s name, else the magic number, Manual for the trades by hand; nothing to rename on a public page', async () => {
    const { user } = show(breakdowns());
    await user.click(await screen.findByRole('tab', { name: 'By strategy' }));
    expect(table('Trades by strategy')).toEqual({
      headers: ['Strategy', 'Trades', 'Lots', 'Win rate', 'Profit', 'Profit factor'],
      rows: [
        ['Grid bot', '3', '0.60', '66.67%', '$50.00', '3.50'],
        ['Manual', '1', '0.01', '100.00%', '$22.50', 'no losses'],
        ['Magic 777', '1', '0.01', '0.00%', '−$10.00', '0.00'],
      ],
    });
    expect(screen.queryByRole('button', { name: /Rename/ })).toBeNull();
  });

  it('in Russian, «Вручную» and «Magic 777»', async () => {
    const { user } = show(breakdowns(), { language: 'ru' });
    await user.click(await screen.findByRole('tab', { name: 'По стратегиям' }));
    expect(table('Сделки по стратегиям').rows.map((cells) => cells[0])).toEqual([
      'Grid bot',
      'Вручную',
      'Magic 777',
    ]);
  });

  it('where the money is hidden, leaves out the profit and charts the number of trades', async () => {
    const { user } = show(hidingMoney(breakdowns()));
    expect(
      (await screen.findAllByRole('columnheader')).map((cell) => cell.textContent),
    ).not.toContain('Profit');
    expect(table('Trades by symbol').rows[1]).toEqual([
      'XAUUSD',
      '2',
      '0.02',
      '100.00%',
      '—',
      'no losses',
    ]);
    expect(screen.queryByRole('group', { name: 'Profit by symbol' })).toBeNull();
    expect(bars('Number of trades by symbol')).toEqual(['EURUSD: 3 trades', 'XAUUSD: 2 trades']);
    expect(document.body).not.toHaveTextContent('$');
    await user.click(screen.getByRole('tab', { name: 'By hour' }));
    expect(bars('Number of trades by the hour of opening')[9]).toBe('09:00–10:00: 3 trades');
  });

  it('says in one line that no trade was closed in the period', async () => {
    show({ symbols: [], hours: [], weekdays: [], directions: [], strategies: [] });
    expect(await screen.findByText('No trades were closed in this period.')).toBeVisible();
    expect(screen.queryByRole('tablist')).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
  });
});

const ACCOUNT_ID = 7;
const BASE = `/user/monitoring/accounts/${ACCOUNT_ID}`;

/** The owner's analysis as the page has it: from the statistics query (which a rename refreshes). */
function OwnAnalysis() {
  const { data } = useGetStatisticsQuery({ id: ACCOUNT_ID });
  return data ? (
    <Breakdowns breakdowns={data.breakdowns} currency="USD" timeZone="UTC" accountId={ACCOUNT_ID} />
  ) : null;
}

/**
 * The API of the owner's statistics, which name the EA 777 as the last PUT named it (none after
 * a DELETE); `refusal` answers the PUT instead.
 */
function stubStrategies(refusal?: { status: number; body: unknown }) {
  let name: string | null = null;
  const statistics = () => {
    const b = breakdowns();
    b.strategies[2] = { ...b.strategies[2]!, name };
    return { breakdowns: b } as unknown as StatisticsResponse;
  };
  return stubFetch({
    [`GET ${BASE}/statistics`]: () => ({ body: statistics() }),
    [`PUT ${BASE}/strategies/777`]: (call) => {
      if (refusal) return refusal;
      name = (call.body as { name: string }).name;
      return { body: { magic: '777', name } };
    },
    [`DELETE ${BASE}/strategies/12345`]: { body: { magic: '12345', name: null } },
  });
}

function showOwn(language: 'en' | 'ru' = 'en') {
  return renderSignedInPage([{ path: '/', element: <OwnAnalysis /> }], '/', 'token', {
    language,
  });
}

describe("the owner's names of the strategies", () => {
  it('renames one: Save sends the trimmed name, the dialog closes, the table shows the name and the focus is back on its button', async () => {
    const api = stubStrategies();
    const { user } = showOwn();
    await user.click(await screen.findByRole('tab', { name: 'By strategy' }));
    // the trades placed by hand are always Manual
    expect(screen.queryByRole('button', { name: 'Rename Manual' })).toBeNull();
    expect(screen.getAllByRole('button', { name: /^Rename/ })).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Rename Magic 777' }));
    const dialog = await screen.findByRole('dialog', { name: 'Strategy name' });
    expect(dialog).toHaveTextContent('Magic number 777');
    // no name yet: nothing to remove
    expect(within(dialog).queryByRole('button', { name: 'Remove the name' })).toBeNull();
    const field = within(dialog).getByRole('textbox', { name: 'Name' });
    expect(field).toHaveFocus();
    expect(field).toHaveAttribute('maxlength', '40');
    await user.type(field, '  Scalper v2  ');
    const reads = api.callsTo('GET', `${BASE}/statistics`).length;
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('button', { name: 'Rename Scalper v2' })).toHaveFocus();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.callsTo('PUT', `${BASE}/strategies/777`).map((call) => call.body)).toEqual([
      { name: 'Scalper v2' },
    ]);
    // the statistics were read again: the name is joined as they are read
    expect(api.callsTo('GET', `${BASE}/statistics`).length).toBeGreaterThan(reads);
    expect(table('Trades by strategy').rows.map((cells) => cells[0])).toEqual([
      'Grid bot',
      'Manual',
      'Scalper v2',
    ]);
  });

  it('says an empty name on its field without asking the API', async () => {
    const api = stubStrategies();
    const { user } = showOwn();
    await user.click(await screen.findByRole('tab', { name: 'By strategy' }));
    await user.click(screen.getByRole('button', { name: 'Rename Magic 777' }));
    const dialog = await screen.findByRole('dialog', { name: 'Strategy name' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const field = within(dialog).getByRole('textbox', { name: 'Name' });
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(/Enter the strategy name/);
    expect(api.callsTo('PUT', `${BASE}/strategies/777`)).toHaveLength(0);
  });

  it('shows a 422 of the name on the field, in the reader’s language, and stays open', async () => {
    stubStrategies({
      status: 422,
      body: {
        message: 'A name cannot contain a web address',
        code: 'NAME_HAS_WEB_ADDRESS',
        errors: { name: ['A name cannot contain a web address'] },
      },
    });
    const { user } = showOwn('ru');
    await user.click(await screen.findByRole('tab', { name: 'По стратегиям' }));
    await user.click(screen.getByRole('button', { name: 'Переименовать Magic 777' }));
    const dialog = await screen.findByRole('dialog', { name: 'Название стратегии' });
    const field = within(dialog).getByRole('textbox', { name: 'Название' });
    await user.type(field, 'Scalper');
    await user.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    expect(await within(dialog).findByText('Имя не может содержать веб-адрес')).toBeVisible();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('dialog', { name: 'Название стратегии' })).toBeVisible();
  });

  it('shows a refusal of the strategy itself above the buttons', async () => {
    stubStrategies({
      status: 404,
      body: {
        message: 'This account has no trades with that magic number',
        code: 'MONITORING_STRATEGY_NOT_FOUND',
      },
    });
    const { user } = showOwn();
    await user.click(await screen.findByRole('tab', { name: 'By strategy' }));
    await user.click(screen.getByRole('button', { name: 'Rename Magic 777' }));
    const dialog = await screen.findByRole('dialog', { name: 'Strategy name' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Scalper');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'This account has no trades with that magic number',
    );
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).not.toHaveAttribute(
      'aria-invalid',
    );
  });

  it('removes a name: the DELETE, and the dialog closes', async () => {
    const api = stubStrategies();
    const { user } = showOwn();
    await user.click(await screen.findByRole('tab', { name: 'By strategy' }));
    await user.click(screen.getByRole('button', { name: 'Rename Grid bot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Strategy name' });
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Grid bot');
    await user.click(within(dialog).getByRole('button', { name: 'Remove the name' }));
    await expect.poll(() => screen.queryByRole('dialog')).toBeNull();
    expect(api.callsTo('DELETE', `${BASE}/strategies/12345`)).toHaveLength(1);
  });
});
