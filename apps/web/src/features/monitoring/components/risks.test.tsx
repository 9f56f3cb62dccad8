import { screen, within } from '@testing-library/react';
import type { ExcursionsResponse } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { renderSignedInPage } from '../../../test/render';
import analysisStyles from './analysis.module.css';
import monitoringStyles from './monitoring.module.css';
import { axisOf, Risks, RISKS_TABLE_PAGE } from './risks';

type Trade = ExcursionsResponse['trades'][number];

/** A closed trade with its excursions, in money and in points (10 points a dollar). */
function trade(
  id: string,
  symbol: string,
  direction: 'long' | 'short',
  result: number,
  mae: number,
  mfe: number,
): Trade {
  return {
    position_id: id,
    symbol,
    direction,
    close_time: '2026-11-02T12:00:00.000Z',
    result,
    result_points: result * 10,
    mae,
    mfe,
    mae_points: mae * 10,
    mfe_points: mfe * 10,
  };
}

/**
 * Two winners (24 after 8 against it; 40 after 20 against it) and two losers (−12 after −15 with
 * 3 at best; −5 after −6 with 10 at best): the deepest MAE of a winner −20, winners' average MAE
 * −14, losers' −10.5, losers' average MFE 6.5.
 */
const TRADES: Trade[] = [
  trade('1', 'EURUSD', 'long', 24, -8, 30),
  trade('2', 'USDJPY', 'short', -12, -15, 3),
  trade('3', 'XAUUSD', 'long', 40, -20, 45),
  trade('4', 'GBPUSD', 'long', -5, -6, 10),
];

const excursions = (overrides: Partial<ExcursionsResponse> = {}): ExcursionsResponse => ({
  trades: TRADES,
  total: TRADES.length,
  without: 0,
  ...overrides,
});

/** Money hidden, as the public page sends it: the points stay. */
const hidingMoney = (e: ExcursionsResponse): ExcursionsResponse => ({
  ...e,
  trades: e.trades.map((t) => ({ ...t, result: null, mae: null, mfe: null })),
});

function show(
  e: ExcursionsResponse,
  {
    language = 'en',
    guide,
    width,
  }: { language?: 'en' | 'ru'; guide?: boolean | null; width?: number } = {},
) {
  return renderSignedInPage(
    [{ path: '/', element: <Risks excursions={e} currency="USD" guide={guide} /> }],
    '/',
    'token',
    { language, width },
  );
}

/** The figure named `label` and its value. */
function figure(label: string) {
  return screen.getByText(label).closest('div')!.querySelector('dd')!.textContent;
}

/** The plot's dots: their shape and where they are (percentages of the plot). */
function dots(plot: Element) {
  return [...plot.querySelectorAll('use')].map((use) => ({
    shape: use.getAttribute('href')!.split('-').pop(),
    className: use.getAttribute('class'),
    x: parseFloat(use.getAttribute('x')!),
    y: parseFloat(use.getAttribute('y')!),
  }));
}

describe('the axis of the scatter', () => {
  it('takes in zero and the values, widened to steps of 1, 2 or 5 times a power of ten', () => {
    expect(axisOf([-8, -15, -20, -6])).toEqual({
      low: -20,
      high: 0,
      step: 5,
      ticks: [-20, -15, -10, -5, 0],
    });
    expect(axisOf([24, -12, 40, -5]).ticks).toEqual([-20, 0, 20, 40]);
    expect(axisOf([0.3, -0.07]).ticks).toEqual([-0.1, 0, 0.1, 0.2, 0.3]);
    // nothing but zero: an axis of one step
    expect(axisOf([0, 0])).toMatchObject({ low: 0, high: 1 });
  });
});

describe('the risks (result against MAE)', () => {
  it('draws each trade as a point, winners dots in the gain colour and losers crosses in the loss colour, and names the chart by its summary', async () => {
    show(excursions());
    const plot = await screen.findByRole('img', {
      name: 'Result against MAE of 4 trades (2 won, 2 lost). The deepest MAE of a winning trade: −$20.00; of a losing trade: −$15.00.',
    });
    const drawn = dots(plot);
    expect(drawn.map((d) => [d.shape, d.className])).toEqual([
      ['win', analysisStyles.dotWin],
      ['loss', analysisStyles.dotLoss],
      ['win', analysisStyles.dotWin],
      ['loss', analysisStyles.dotLoss],
    ]);
    // across: MAE from −20 to 0; up: the result from −20 to 40
    expect(drawn[0]!.x).toBeCloseTo(60);
    expect(drawn[0]!.y).toBeCloseTo((16 / 60) * 100);
    expect(drawn[2]!.x).toBeCloseTo(0);
    expect(drawn[2]!.y).toBeCloseTo(0);
    // each point tells its trade on hover
    expect(plot.querySelector('use title')).toHaveTextContent(
      'EURUSD Buy, closed Nov 2, 2026, 12:00 PM: MAE −$8.00, result $24.00',
    );
    // the zero lines: the result's at two thirds down, the MAE's at the right edge
    const zeros = [...plot.querySelectorAll(`line.${analysisStyles.zero}`)].map((line) => [
      line.getAttribute('x1'),
      parseFloat(line.getAttribute('y1')!),
    ]);
    expect(zeros).toHaveLength(2);
    expect(zeros[0]![1]).toBeCloseTo((40 / 60) * 100);
    expect(zeros[1]![0]).toBe('100%');
    // the diagonal where the result is the MAE, from the axes' lower end (−20) to zero
    const diagonal = plot.querySelector(`line.${analysisStyles.diagonal}`)!;
    expect(['x1', 'y1', 'x2', 'y2'].map((end) => parseFloat(diagonal.getAttribute(end)!))).toEqual([
      0,
      100,
      100,
      (40 / 60) * 100,
    ]);
    expect(screen.getByText('Closed at its worst: result = MAE')).toBeVisible();
    expect(screen.getByText('Winning trades: 2')).toBeVisible();
    expect(screen.getByText('Losing trades: 2')).toBeVisible();
    expect(screen.queryByText(/Break-even/)).toBeNull();
  });

  it('labels the axes with whole amounts at even steps', async () => {
    const { container } = show(excursions());
    await screen.findByText('Result');
    expect(screen.getByText('MAE: the worst floating result')).toBeInTheDocument();
    const ticks = (className: string) =>
      [...container.querySelectorAll(`.${className}`)].map((tick) => tick.textContent);
    expect(ticks(analysisStyles.yTick!)).toEqual(['−$20', '$0', '$20', '$40']);
    expect(ticks(analysisStyles.xTick!)).toEqual(['−$20', '−$15', '−$10', '−$5', '$0']);
  });

  it('on a phone, fewer numbers across', async () => {
    const { container } = show(excursions(), { width: 375 });
    await screen.findByText('Result');
    expect(
      [...container.querySelectorAll(`.${analysisStyles.xTick}`)].map((tick) => tick.textContent),
    ).toEqual(['−$20', '−$10', '$0']);
  });

  it('gives the figures a trader reads from it, each explained', async () => {
    show(excursions());
    await screen.findByText('Deepest MAE of a winner');
    expect(figure('Deepest MAE of a winner')).toBe('−$20.00');
    expect(figure('Average MAE of winners')).toBe('−$14.00');
    expect(figure('Average MAE of losers')).toBe('−$10.50');
    expect(figure('Average MFE of losers')).toBe('$6.50');
    expect(screen.getByRole('tooltip', { name: /sits through before it wins/ })).toBeDefined();
    expect(screen.queryByText(/older trade/)).toBeNull();
  });

  it('is in points where the owner hides money (Russian)', async () => {
    show(hidingMoney(excursions()), { language: 'ru' });
    const plot = await screen.findByRole('img', {
      name: 'Результат против MAE в пунктах, 4 сделки (прибыльных 2, убыточных 2). Наибольшая MAE: −200 пп. у прибыльной сделки, −150 пп. у убыточной.',
    });
    expect(dots(plot)[0]!.x).toBeCloseTo(60);
    expect(screen.getByText('Результат, пункты')).toBeInTheDocument();
    expect(figure('Средняя MFE убыточных')).toBe('65 пп.');
    expect(document.body).not.toHaveTextContent('$');
  });

  it('says how many older trades have none, and when the chart shows only the latest', async () => {
    show(excursions({ total: 6000, without: 3 }));
    expect(
      await screen.findByText(
        '3 older trades have no excursions: they closed before publisher 1.4.',
      ),
    ).toBeVisible();
    expect(
      screen.getByText('The chart shows the latest 4 of the 6,000 trades with excursions.'),
    ).toBeVisible();
  });

  it('shows the same trades as a table on request, a page at a time', async () => {
    const many = Array.from({ length: RISKS_TABLE_PAGE + 5 }, (_, i) =>
      trade(`m${i}`, 'EURUSD', 'long', i % 2 ? 5 : -5, -2, 6),
    );
    const { user } = show(excursions({ trades: [...TRADES, ...many], total: 29 }));
    const toggle = await screen.findByRole('button', { name: 'Show as a table' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('table')).toBeNull();
    await user.click(toggle);
    expect(toggle).toHaveAccessibleName('Hide the table');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const table = screen.getByRole('table', {
      name: 'Closed trades with their MAE, MFE and result',
    });
    const [head, first, second, ...rest] = within(table).getAllByRole('row');
    expect(
      within(head!)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Closed', 'Symbol', 'Direction', 'MAE', 'MFE', 'Result']);
    const [closed, ...cells] = within(first!).getAllByRole('cell');
    expect(closed).toHaveTextContent('Nov 2, 2026, 12:00 PM');
    expect(cells.map((c) => c.textContent)).toEqual([
      'EURUSD',
      'Buy',
      '−$8.00',
      '$30.00',
      '$24.00',
    ]);
    expect(within(second!).getAllByRole('cell')[2]).toHaveTextContent('Sell');
    expect(rest).toHaveLength(RISKS_TABLE_PAGE - 2);
    expect(screen.getByText('29 trades')).toBeVisible();
    await user.click(screen.getByRole('button', { name: /Next/ }));
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 9);
    await user.click(toggle);
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('on a phone, shows them as cards, the result at the top', async () => {
    const { user } = show(excursions(), { width: 375 });
    await user.click(await screen.findByRole('button', { name: 'Show as a table' }));
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(
      screen.getByRole('list', { name: 'Closed trades with their MAE, MFE and result' }),
    ).getAllByRole('listitem');
    expect(cards).toHaveLength(4);
    expect(cards[0]).toHaveTextContent(/^EURUSDBuyResult\$24\.00Closed/);
    expect(cards[0]).toHaveTextContent(/MAE−\$8\.00MFE\$30\.00$/);
    expect(within(cards[1]!).getByText('−$12.00')).toHaveClass(monitoringStyles.down!);
  });
});

describe('the risks without a trade with excursions', () => {
  it('on the owner’s page with a publisher before 1.4: update it, the guide linked', async () => {
    show(excursions({ trades: [], total: 0, without: 12 }), { guide: false });
    expect(await screen.findByText('No closed trade with excursions yet.')).toBeVisible();
    expect(screen.getByText(/update the publisher of this terminal/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'How to update' })).toHaveAttribute(
      'href',
      '/online-monitoring/guide#guide-update',
    );
    expect(
      screen.getByText('12 older trades have no excursions: they closed before publisher 1.4.'),
    ).toBeVisible();
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Show as a table' })).toBeNull();
  });

  it('on the owner’s page with publisher 1.4: they come as trades close', async () => {
    show(excursions({ trades: [], total: 0, without: 0 }), { guide: true, language: 'ru' });
    expect(
      await screen.findByText(
        'Публикатор их записывает: график заполнится, когда сделки начнут закрываться.',
      ),
    ).toBeVisible();
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.queryByText(/старых сделок/)).toBeNull();
  });

  it('on the public page: why, without the guide', async () => {
    show(excursions({ trades: [], total: 0, without: 1 }));
    expect(
      await screen.findByText(
        'MAE and MFE are recorded from publisher 1.4 on; trades closed before have none.',
      ),
    ).toBeVisible();
    expect(screen.queryByRole('link')).toBeNull();
    expect(
      screen.getByText('1 older trade has no excursions: it closed before publisher 1.4.'),
    ).toBeVisible();
  });
});
