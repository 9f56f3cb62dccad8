import { screen, within } from '@testing-library/react';
import type { StatisticsResponse } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { renderSignedInPage } from '../../../test/render';
import { PERIOD_ROWS_PER_PAGE, PeriodTables } from './period-tables';

/** `count` days from 2026-11-01 on, and the months they fall in, oldest first (as the API). */
function figures(count: number): StatisticsResponse {
  const daily = Array.from({ length: count }, (_, index) => ({
    period: new Date(Date.UTC(2026, 10, 1 + index)).toISOString().slice(0, 10),
    gain: 0.001 * (index + 1),
    profit: index + 1,
    trades: 1,
  }));
  const monthly = [
    { period: '2026-11', gain: 0.05, profit: 100, trades: 20 },
    { period: '2026-12', gain: -0.01, profit: -10, trades: 4 },
  ];
  // only what the tables read
  return { currency: 'USD', daily, monthly } as unknown as StatisticsResponse;
}

function show(s: StatisticsResponse, language: 'en' | 'ru') {
  return renderSignedInPage([{ path: '/', element: <PeriodTables s={s} /> }], '/', 'token', {
    language,
  });
}

/** The first cell (the period) of each body row of the table named `name`. */
const periods = (name: string) =>
  within(screen.getByRole('table', { name }))
    .getAllByRole('rowheader')
    .map((cell) => cell.textContent);

describe('the daily and monthly tables', () => {
  it.each([
    [
      'en' as const,
      'Daily',
      'Monthly',
      ['Nov\u00a029,\u00a02026', 'Nov\u00a028,\u00a02026'],
      ['December\u00a02026', 'November\u00a02026'],
    ],
    [
      'ru' as const,
      'По дням',
      'По месяцам',
      ['29\u00a0нояб.\u00a02026\u202fг.', '28\u00a0нояб.\u00a02026\u202fг.'],
      ['декабрь\u00a02026\u202fг.', 'ноябрь\u00a02026\u202fг.'],
    ],
  ])(
    'write their days and months in the reader’s language (%s), newest first',
    async (language, daily, monthly, days, months) => {
      show(figures(29), language);
      await screen.findByRole('table', { name: daily });
      expect(periods(daily).slice(0, 2)).toEqual(days);
      expect(periods(monthly)).toEqual(months);
    },
  );

  it('show whole rows a page at a time, never a box that cuts a row, every day reachable', async () => {
    const { user } = show(figures(30), 'en');
    await screen.findByRole('table', { name: 'Daily' });
    expect(periods('Daily')).toHaveLength(PERIOD_ROWS_PER_PAGE);
    expect(periods('Daily')[0]).toBe('Nov\u00a030,\u00a02026');
    // no frame of a fixed height that scrolls (and cut its last row at its foot)
    const frame = screen.getByRole('table', { name: 'Daily' }).parentElement!;
    expect(frame.className).not.toMatch(/scroll/);
    expect(frame.style.maxHeight).toBe('');

    const pages = within(screen.getByRole('navigation', { name: 'Pages of the daily table' }));
    expect(pages.getByText('Page 1 of 3')).toBeVisible();
    await user.click(pages.getByRole('button', { name: /Next/ }));
    expect(periods('Daily')[0]).toBe('Nov\u00a018,\u00a02026');
    await user.click(pages.getByRole('button', { name: /Next/ }));
    expect(periods('Daily')).toHaveLength(30 - 2 * PERIOD_ROWS_PER_PAGE);
    expect(periods('Daily').at(-1)).toBe('Nov\u00a01,\u00a02026');
    // the months fit on one page: no pages to turn
    expect(screen.queryByRole('navigation', { name: 'Pages of the monthly table' })).toBeNull();
  });
});
