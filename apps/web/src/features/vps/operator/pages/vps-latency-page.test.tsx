import type { AdminLatencyRow } from '@tradehost/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  adminRate,
  adminUser,
  openOperator,
  operatorUser,
  page,
  queriesTo,
  stubOperatorApi,
} from '../../../operator/test-utils';

const LATENCY = '/admin/vps/latency';
const line = (overrides: Partial<AdminLatencyRow> = {}): AdminLatencyRow => ({
  location: 'Frankfurt (FR2)',
  broker: 'Alpha-Live',
  median_ms: 40,
  p90_ms: 64,
  terminals: 8,
  ...overrides,
});
const LINES = [
  line(),
  line({ broker: 'Beta-Real', median_ms: 9, p90_ms: 15, terminals: 3 }),
  line({ location: 'London (LD4)', broker: 'Alpha-Live', median_ms: 2, p90_ms: 3, terminals: 5 }),
];
const RATES = {
  rates: [adminRate(), adminRate({ id: 2, location: 'Frankfurt (FR2)' })],
  periods: [],
};
/** The API's page: the lines with the window the figures are of. */
const latencyPage = (data: AdminLatencyRow[], meta: { page?: number; total?: number } = {}) => ({
  ...page(data, { per_page: 50, ...meta }),
  since: '2026-10-11T12:00:00.000Z',
});

const mapTable = () => screen.findByRole('table', { name: 'Latency map' }, { timeout: 5000 });

describe('the latency map', () => {
  it('lists the broker servers by location with the median, 90th percentile and terminals', async () => {
    stubOperatorApi(
      { [`GET ${LATENCY}`]: { body: latencyPage(LINES) }, 'GET /admin/vps/rates': { body: RATES } },
      operatorUser('vps'),
    );
    await openOperator('/operator/vps/latency');
    const table = await mapTable();
    expect(screen.getByText(/fewer than 3 owners is not shown/)).toBeVisible();
    const [header, ...rows] = within(table).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Location', 'Broker server', 'Median', '90th percentile', 'Terminals']);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent?.replace(/\u00a0/g, ' ')),
      ),
    ).toEqual([
      ['Frankfurt (FR2)', 'Alpha-Live', '40 ms', '64 ms', '8'],
      ['Frankfurt (FR2)', 'Beta-Real', '9 ms', '15 ms', '3'],
      ['London (LD4)', 'Alpha-Live', '2 ms', '3 ms', '5'],
    ]);
    expect(queriesTo(LATENCY)[0]).toEqual({ page: '1', per_page: '50' });
    // the navigation has it under the VPS pages
    expect(screen.getByRole('link', { name: 'Latency map' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it('narrows to the servers whose name starts as typed and to a location of the rates', async () => {
    stubOperatorApi(
      {
        [`GET ${LATENCY}`]: () => {
          const query = queriesTo(LATENCY).at(-1) ?? {};
          return { body: latencyPage(query.location === 'London (LD4)' ? [] : [LINES[0]!]) };
        },
        'GET /admin/vps/rates': { body: RATES },
      },
      operatorUser('vps'),
    );
    const { user, router } = await openOperator('/operator/vps/latency');
    await mapTable();
    await user.type(screen.getByRole('searchbox', { name: 'Broker server starts with' }), ' alp ');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(router.state.location.search).toBe('?broker=alp'));
    await waitFor(() =>
      expect(queriesTo(LATENCY).at(-1)).toEqual({ broker: 'alp', page: '1', per_page: '50' }),
    );

    const location = screen.getByRole('combobox', { name: 'Location' });
    expect(
      within(location)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['All locations', 'London (LD4)', 'Frankfurt (FR2)']);
    await user.selectOptions(location, 'London (LD4)');
    expect(
      await screen.findByText('No broker server matches the search or the location.'),
    ).toBeVisible();
    expect(queriesTo(LATENCY).at(-1)).toEqual({
      broker: 'alp',
      location: 'London (LD4)',
      page: '1',
      per_page: '50',
    });
  });

  it('pages through the list, and says when nothing is measured enough yet', async () => {
    let none = false;
    stubOperatorApi({
      [`GET ${LATENCY}`]: () => {
        if (none) return { body: latencyPage([]) };
        const current = Number(queriesTo(LATENCY).at(-1)?.page ?? 1);
        return { body: latencyPage([LINES[current - 1]!], { page: current, total: 51 }) };
      },
      'GET /admin/vps/rates': { body: RATES },
    });
    const { user } = await openOperator('/operator/vps/latency');
    const pages = await screen.findByRole(
      'navigation',
      { name: 'Pages of the latency map' },
      { timeout: 5000 },
    );
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Beta-Real')).toBeVisible();
    expect(queriesTo(LATENCY).at(-1)).toMatchObject({ page: '2' });

    none = true;
    await user.click(screen.getByRole('link', { name: 'Latency map' }));
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(
      await screen.findByText('No broker server has been measured by enough terminals yet.'),
    ).toBeVisible();
  });

  it('speaks Russian', async () => {
    stubOperatorApi(
      {
        [`GET ${LATENCY}`]: { body: latencyPage([LINES[0]!]) },
        'GET /admin/vps/rates': { body: RATES },
      },
      { ...adminUser, language: 'ru' },
    );
    await openOperator('/operator/vps/latency', { language: 'ru' });
    const table = await screen.findByRole('table', { name: 'Карта пинга' }, { timeout: 5000 });
    expect(within(table).getByRole('columnheader', { name: '90-й перцентиль' })).toBeVisible();
    expect(table.textContent?.replace(/\u00a0/g, ' ')).toContain('40 мс');
  });
});
