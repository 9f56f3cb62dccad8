import { screen, within } from '@testing-library/react';
import type { MonitoringTrade, PositionsResponse } from '@tradehost/contracts';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { renderSignedInPage } from '../../../test/render';
import styles from './monitoring.module.css';
import { PositionsTable, TradesTable } from './trades-table';

const TRADES: MonitoringTrade[] = [
  {
    position_id: '1',
    symbol: 'EURUSD',
    direction: 'long',
    open_time: '2026-11-02T10:00:00.000Z',
    close_time: '2026-11-02T12:00:00.000Z',
    volume: 0.2,
    digits: 5,
    // a weighted average of two deals, with its float noise
    open_price: 1.0850000000000002,
    close_price: 1.0862,
    result: 24,
    pips: 12,
    // placed by hand
    magic: '0',
    strategy: null,
    // 8.00 against it (40 points) before closing 24.00 up; 30.00 (150 points) at its best
    mae: -8,
    mfe: 30,
    mae_points: -40,
    mfe_points: 150,
  },
  {
    position_id: '2',
    symbol: 'USDJPY',
    direction: 'short',
    open_time: '2026-11-02T10:00:00.000Z',
    close_time: '2026-11-02T11:00:00.000Z',
    volume: 0.1,
    digits: 3,
    open_price: 151.234,
    close_price: 151.2,
    result: 2.25,
    pips: 3.4,
    magic: '12345',
    strategy: 'Grid bot',
    mae: -1.5,
    mfe: 2.25,
    mae_points: -23,
    mfe_points: 34,
  },
  {
    position_id: '3',
    symbol: 'XAUUSD',
    direction: 'long',
    open_time: '2026-11-02T10:00:00.000Z',
    close_time: '2026-11-02T10:30:00.000Z',
    volume: 0.01,
    digits: 2,
    open_price: 2345.6,
    close_price: 2345.67,
    result: 0.07,
    pips: 0.7,
    // an Expert Advisor its owner has not named
    magic: '-777',
    strategy: null,
    // closed before publisher 1.4: no excursions
    mae: null,
    mfe: null,
    mae_points: null,
    mfe_points: null,
  },
];

const POSITIONS: PositionsResponse = {
  at: '2026-11-02T12:00:00.000Z',
  positions: [
    {
      ticket: 401,
      symbol: 'EURUSD',
      type: 'buy',
      volume: 0.1,
      open_time: '2026-11-02T10:00:00.000Z',
      open_price: 1.085,
      current_price: 1.0851,
      sl: 1.08,
      tp: 0,
      profit: 1,
      swap: 0,
      digits: 5,
      mae: -3.5,
      mfe: 1.2,
      mae_points: -35,
      mfe_points: 12,
    },
    {
      // no deal in the symbol yet: its digits are unknown
      ticket: 402,
      symbol: 'GBPUSD',
      type: 'sell',
      volume: 0.1,
      open_time: '2026-11-02T10:00:00.000Z',
      open_price: 1.2500000000000002,
      current_price: 1.25013,
      sl: 0,
      tp: 1.24,
      profit: -1,
      swap: 0,
      digits: null,
      // a publisher before 1.4
      mae: null,
      mfe: null,
      mae_points: null,
      mfe_points: null,
    },
  ],
};

/** The texts of each body row's cells. */
function rows(): string[][] {
  const [, ...body] = within(screen.getByRole('table')).getAllByRole('row');
  return body.map((row) =>
    within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent ?? ''),
  );
}

/** `table` under a heading that names it, in `language`, at `width` (a phone's: under 768). */
function render(table: ReactNode, language: 'en' | 'ru', width = 1440) {
  renderSignedInPage(
    [
      {
        path: '/',
        element: (
          <>
            <h2 id="table">Table</h2>
            {table}
          </>
        ),
      },
    ],
    '/',
    'token',
    { language, width },
  );
}

/** `table` under its heading on a wide screen. */
async function show(table: ReactNode, language: 'en' | 'ru') {
  render(table, language);
  await screen.findByRole('table');
}

describe("the trade tables' prices", () => {
  it.each([
    [
      'en' as const,
      [
        ['1.08500', '1.08620'],
        ['151.234', '151.200'],
        ['2,345.60', '2,345.67'],
      ],
    ],
    [
      'ru' as const,
      [
        ['1,08500', '1,08620'],
        ['151,234', '151,200'],
        ['2\u00a0345,60', '2\u00a0345,67'],
      ],
    ],
  ])(
    "closed trades in %s: the symbol's digits, trailing zeros kept, no float noise",
    async (language, prices) => {
      await show(
        <TradesTable
          page={{ data: TRADES, meta: { page: 1, per_page: 50, total: TRADES.length } }}
          currency="USD"
          onPageChange={() => undefined}
          labelledBy="table"
        />,
        language,
      );
      expect(rows().map((cells) => cells.slice(4, 6))).toEqual(prices);
    },
  );

  it("positions print open, current, SL and TP with the symbol's digits, or the fallback without them", async () => {
    await show(<PositionsTable positions={POSITIONS} currency="USD" labelledBy="table" />, 'ru');
    expect(rows().map((cells) => cells.slice(4, 7))).toEqual([
      ['1,08500', '1,08510', '1,08000 / —'],
      ['1,25', '1,25013', '— / 1,24'],
    ]);
  });
});

describe("the trades' strategies", () => {
  it.each([
    ['en' as const, ['EURUSD', 'USDJPYGrid bot', 'XAUUSDMagic -777']],
    ['ru' as const, ['EURUSD', 'USDJPYGrid bot', 'XAUUSDMagic -777']],
  ])(
    'in %s: the name, else the magic number, as a muted line under the symbol; none for a trade placed by hand',
    async (language, symbols) => {
      await show(
        <TradesTable
          page={{ data: TRADES, meta: { page: 1, per_page: 50, total: TRADES.length } }}
          currency="USD"
          onPageChange={() => undefined}
          labelledBy="table"
        />,
        language,
      );
      // no column of its own: the symbol's cell holds it
      expect(screen.getAllByRole('columnheader')).toHaveLength(8);
      expect(rows().map((cells) => cells[1])).toEqual(symbols);
      const line = screen.getByText('Grid bot');
      expect(line).toHaveClass(styles.strategyLine!);
      expect(line.closest('td')).toHaveTextContent(/^USDJPYGrid bot$/);
      expect(screen.queryByText(/Manual|Вручную/)).toBeNull();
    },
  );

  it('on a phone: a fact of the card, the trade placed by hand without one', async () => {
    render(
      <TradesTable
        page={{ data: TRADES, meta: { page: 1, per_page: 50, total: TRADES.length } }}
        currency="USD"
        onPageChange={() => undefined}
        labelledBy="table"
      />,
      'ru',
      375,
    );
    const cards = within(await screen.findByRole('list', { name: 'Table' }));
    const [manual, named, unnamed] = cards.getAllByRole('listitem');
    expect(manual).not.toHaveTextContent('Стратегия');
    expect(named).toHaveTextContent(/СтратегияGrid bot$/);
    expect(unnamed).toHaveTextContent(/СтратегияMagic -777$/);
  });
});

describe('the trade tables on a phone', () => {
  /** `table` at a phone's width (375 px) under its heading: the list of its cards. */
  async function showOnPhone(table: ReactNode, language: 'en' | 'ru' = 'en') {
    render(table, language, 375);
    return within(await screen.findByRole('list', { name: 'Table' }));
  }

  it('are a card a closed trade, its result at the top under its name, no table to scroll', async () => {
    const cards = await showOnPhone(
      <TradesTable
        page={{ data: TRADES, meta: { page: 1, per_page: 50, total: TRADES.length } }}
        currency="USD"
        onPageChange={() => undefined}
        labelledBy="table"
      />,
    );
    expect(screen.queryByRole('table')).toBeNull();
    const items = cards.getAllByRole('listitem');
    expect(items).toHaveLength(3);
    const first = within(items[0]!);
    expect(items[0]).toHaveTextContent(/^EURUSDBuy 0\.20Result\$24\.00/);
    // the result in the colour of its sign
    expect(first.getByText('$24.00')).toHaveClass(styles.up!);
    expect(items[0]).toHaveTextContent('Open → close1.08500 → 1.08620');
    expect(items[0]).toHaveTextContent('Pips12.0');
    expect(screen.getByText('3 trades')).toBeVisible();
  });

  it('lead with the pips where the owner hides money', async () => {
    const cards = await showOnPhone(
      <TradesTable
        page={{
          // as the public page gives them: the money of the excursions hidden too
          data: TRADES.map((trade) => ({ ...trade, result: null, mae: null, mfe: null })),
          meta: { page: 1, per_page: 50, total: TRADES.length },
        }}
        currency="USD"
        onPageChange={() => undefined}
        labelledBy="table"
      />,
    );
    const [first] = cards.getAllByRole('listitem');
    expect(first).toHaveTextContent(/^EURUSDBuy 0\.20Pips12\.0Closed/);
    expect(first).not.toHaveTextContent('$');
  });

  it('are a card an open position in Russian, its profit at the top', async () => {
    const cards = await showOnPhone(
      <PositionsTable positions={POSITIONS} currency="USD" labelledBy="table" />,
      'ru',
    );
    expect(screen.queryByRole('table')).toBeNull();
    const [first, second] = cards.getAllByRole('listitem');
    expect(first).toHaveTextContent(/^EURUSDПокупка 0,10Прибыль1,00\s\$/);
    expect(first).toHaveTextContent('Открытие → сейчас1,08500 → 1,08510');
    expect(first).toHaveTextContent('SL / TP1,08000 / —');
    expect(second).toHaveTextContent(/^GBPUSDПродажа 0,10Прибыль−1,00\s\$/);
  });
});

describe("the trades' MAE and MFE", () => {
  const page = (data: MonitoringTrade[]) => ({
    data,
    meta: { page: 1, per_page: 50, total: data.length },
  });
  const FOOTNOTE =
    'MAE and MFE are a trade’s worst and best floating result while it was open. They are recorded from publisher 1.4 on: a trade closed before shows a dash.';

  it('are a muted line under the result, no column of their own; a trade from before 1.4 a dash, which the footnote explains', async () => {
    await show(
      <TradesTable
        page={page(TRADES)}
        currency="USD"
        onPageChange={() => undefined}
        labelledBy="table"
      />,
      'en',
    );
    expect(screen.getAllByRole('columnheader')).toHaveLength(8);
    expect(rows().map((cells) => cells[7])).toEqual([
      '$24.00MAE −$8.00 MFE $30.00',
      '$2.25MAE −$1.50 MFE $2.25',
      '$0.07MAE/MFE —',
    ]);
    // the line keeps the muted colour, not the result's
    const line = screen.getByText('MAE −$8.00').parentElement!;
    expect(line).toHaveClass(styles.excursionLine!);
    expect(screen.getByText(FOOTNOTE)).toBeVisible();
  });

  it('say nothing of older trades when every trade has them', async () => {
    await show(
      <TradesTable
        page={page(TRADES.slice(0, 2))}
        currency="USD"
        onPageChange={() => undefined}
        labelledBy="table"
      />,
      'en',
    );
    expect(rows()[0]![7]).toBe('$24.00MAE −$8.00 MFE $30.00');
    expect(screen.queryByText(/recorded from publisher 1\.4/)).toBeNull();
  });

  it('are in points under the pips where the money is hidden (Russian)', async () => {
    await show(
      <TradesTable
        page={page(TRADES.map((trade) => ({ ...trade, result: null, mae: null, mfe: null })))}
        currency="USD"
        onPageChange={() => undefined}
        labelledBy="table"
      />,
      'ru',
    );
    expect(screen.getAllByRole('columnheader')).toHaveLength(7);
    expect(rows().map((cells) => cells[6])).toEqual([
      '12,0MAE −40 пп. MFE 150 пп.',
      '3,4MAE −23 пп. MFE 34 пп.',
      '0,7MAE/MFE —',
    ]);
    expect(screen.getByText(/^MAE и MFE — худший и лучший/)).toBeVisible();
  });

  it('are two facts of a card on a phone, a dash before 1.4', async () => {
    render(
      <TradesTable
        page={page(TRADES)}
        currency="USD"
        onPageChange={() => undefined}
        labelledBy="table"
      />,
      'en',
      375,
    );
    const cards = within(await screen.findByRole('list', { name: 'Table' }));
    const [first, , old] = cards.getAllByRole('listitem');
    expect(first).toHaveTextContent('MAE−$8.00MFE$30.00');
    expect(old).toHaveTextContent('MAE—MFE—');
    expect(screen.getByText(FOOTNOTE)).toBeVisible();
  });

  it("of open positions so far: under the profit, a dash for a publisher before 1.4, and a footnote of the positions' own", async () => {
    await show(<PositionsTable positions={POSITIONS} currency="USD" labelledBy="table" />, 'en');
    expect(rows().map((cells) => cells[7])).toEqual([
      '$1.00MAE −$3.50 MFE $1.20',
      '−$1.00MAE/MFE —',
    ]);
    expect(
      screen.getByText(
        'MAE and MFE are a position’s worst and best floating result so far. They are recorded from publisher 1.4 on: a position that publisher has not watched shows a dash.',
      ),
    ).toBeVisible();
  });

  it('of open positions in points under the price where the money is hidden', async () => {
    await show(
      <PositionsTable
        positions={{
          ...POSITIONS,
          positions: POSITIONS.positions.map((p) => ({
            ...p,
            profit: null,
            swap: null,
            mae: null,
            mfe: null,
          })),
        }}
        currency="USD"
        labelledBy="table"
      />,
      'en',
    );
    expect(rows().map((cells) => cells[5])).toEqual([
      '1.08510MAE −35 pts MFE 12 pts',
      '1.25013MAE/MFE —',
    ]);
    expect(screen.queryByText(/\$/)).toBeNull();
  });
});
