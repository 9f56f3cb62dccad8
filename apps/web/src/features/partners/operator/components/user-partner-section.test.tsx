import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Handler } from '../../../../test/fetch-stub';
import {
  adminUser,
  adminUserRecord,
  ledgerEntry,
  openOperator,
  page,
  partnerReferral,
  partnerSummary,
  queriesTo,
  stubOperatorApi,
} from '../../../operator/test-utils';

const NETWORK = '/admin/partner/users/5/network';

function stubBob(summary: Handler, network: Handler = { body: page([]) }) {
  return stubOperatorApi({
    'GET /admin/users/5': { body: { user: adminUserRecord() } },
    'GET /admin/users/5/ledger': { body: page([ledgerEntry()]) },
    'GET /admin/partner/users/5': summary,
    [`GET ${NETWORK}`]: network,
  });
}

const partnerRegion = async () => {
  await screen.findByRole('heading', { level: 2, name: 'Bob' }, { timeout: 5000 });
  return screen.getByRole('region', { name: 'Partner programme' });
};

describe('the partner section of a user', () => {
  it('shows the code, the referrer, balances, levels and the latest rewards', async () => {
    stubBob({ body: partnerSummary() });
    await openOperator('/operator/users/5');
    const region = await partnerRegion();
    expect(await within(region).findByText('BOB12345')).toBeVisible();
    expect(within(region).getByRole('link', { name: 'carol@example.com' })).toHaveAttribute(
      'href',
      '/operator/users/6',
    );
    expect(region).toHaveTextContent('Active referralslevel 1: 3, level 2: 1, level 3: 0');
    expect(region).toHaveTextContent('Partner balance (available)$15.50');
    expect(region).toHaveTextContent('Pending (14-day hold)$1.99');

    const levels = within(region).getByRole('table', { name: 'Levels' });
    const [levelHeader, level1] = within(levels).getAllByRole('row');
    expect(
      within(levelHeader!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Level', 'Percentage', 'Referrals', 'Turnover', 'Rewards']);
    expect(
      within(level1!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Level 1', '12.5%', '4', '$119.99', '$14.99']);

    const rewards = within(region).getByRole('table', { name: 'Latest rewards (up to 20)' });
    const [pending, cancelled, available] = within(rewards).getAllByRole('row').slice(1);
    expect(within(pending!).getByRole('link', { name: 'dave@example.com' })).toHaveAttribute(
      'href',
      '/operator/users/7',
    );
    expect(pending).toHaveTextContent('#501: 10% of $19.99');
    expect(pending).toHaveTextContent('$1.99');
    expect(pending).toHaveTextContent('Pending');
    expect(pending).toHaveTextContent('Mar 15, 2025');
    expect(cancelled).toHaveTextContent('Cancelled');
    expect(cancelled).toHaveTextContent('—');
    expect(available).toHaveTextContent('erin@example.com');
    expect(available).toHaveTextContent('#499: 5% of $20.00');
    expect(available).toHaveTextContent('Available');

    expect(
      within(region).getByRole('link', { name: 'Partner withdrawal requests →' }),
    ).toHaveAttribute('href', '/operator/partner/withdrawals?status=all');
  });

  it('says when the user has no referrer and no rewards', async () => {
    stubBob({ body: partnerSummary({ referrer: null, rewards: [] }) });
    await openOperator('/operator/users/5');
    const region = await partnerRegion();
    expect(await within(region).findByText('Nobody')).toBeVisible();
    expect(within(region).getByText('No rewards yet.')).toBeVisible();
    expect(within(region).queryByRole('table', { name: /Latest rewards/ })).toBeNull();
  });

  it('shows its own failure with a way to try again, the rest of the page working', async () => {
    let fail = true;
    stubBob(() =>
      fail
        ? { status: 500, body: { message: 'Internal server error', code: 'INTERNAL' } }
        : { body: partnerSummary() },
    );
    const { user } = await openOperator('/operator/users/5');
    const region = await partnerRegion();
    const alert = await within(region).findByRole('alert');
    expect(screen.getByRole('region', { name: 'Adjust balance' })).toBeVisible();
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(region).findByText('BOB12345')).toBeVisible();
  });

  it('speaks Russian', async () => {
    stubOperatorApi(
      {
        'GET /admin/users/5': { body: { user: adminUserRecord() } },
        'GET /admin/users/5/ledger': { body: page([]) },
        'GET /admin/partner/users/5': { body: partnerSummary() },
        [`GET ${NETWORK}`]: { body: page([partnerReferral(), erin]) },
      },
      { ...adminUser, language: 'ru' },
    );
    await openOperator('/operator/users/5', { language: 'ru' });
    const region = await screen.findByRole(
      'region',
      { name: 'Партнёрская программа' },
      { timeout: 5000 },
    );
    expect(await within(region).findByText('В ожидании (удержание 14 дней)')).toBeVisible();
    expect(within(region).getByRole('table', { name: 'Уровни' })).toHaveTextContent('12,5 %');
    const referrals = within(region).getByRole('table', { name: 'Рефералы' });
    expect(
      within(referrals)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Реферал',
      'Регистрация',
      'Уровень',
      'Статус',
      'Его рефералы',
      'Оборот',
      'Вознаграждения партнёру',
    ]);
    expect(referrals).toHaveTextContent('Активен');
    expect(referrals).toHaveTextContent('Не активен');
    expect(within(region).getByRole('searchbox')).toHaveAccessibleName(
      'Поиск рефералов на всех уровнях (e-mail или имя)',
    );
  });
});

/** A level-2 referral of bob's (dave's), who has not paid. */
const erin = partnerReferral({
  id: 8,
  email: 'erin@example.com',
  registered_at: '2025-01-20T08:00:00.000Z',
  level: 2,
  active: false,
  referrals: 0,
  turnover: 0,
  rewards: 0,
});

const referralsTable = async (region: HTMLElement) =>
  within(region).findByRole('table', { name: 'Referrals' });

describe('the referrals of a user', () => {
  it('lists the first-level referrals, each leading to their own page', async () => {
    stubBob(
      { body: partnerSummary() },
      {
        body: page([
          partnerReferral(),
          partnerReferral({
            id: 9,
            email: 'frank@example.com',
            active: false,
            referrals: 0,
            turnover: 0,
            rewards: 0,
          }),
        ]),
      },
    );
    const { user, router } = await openOperator('/operator/users/5');
    const region = await partnerRegion();
    const table = await referralsTable(region);
    expect(queriesTo(NETWORK)).toEqual([{ page: '1', per_page: '20' }]);

    const [header, dave, frank] = within(table).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Referral',
      'Registered',
      'Level',
      'Status',
      'Their referrals',
      'Turnover',
      'Rewards to this partner',
    ]);
    const cells = within(dave!)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells[0]).toBe('dave@example.com');
    expect(cells[1]).toContain('Feb\u00a03,\u00a02025');
    expect(cells.slice(2)).toEqual(['1', 'Active', '2', '$119.99', '$12.00']);
    expect(
      within(frank!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent)
        .slice(2),
    ).toEqual(['1', 'Not active', '0', '$0.00', '$0.00']);
    // one page: the range alone
    expect(region).toHaveTextContent('1–2 of 2');
    expect(within(region).queryByRole('navigation', { name: 'Pages of the referrals' })).toBeNull();

    // the operator walks the tree through the user pages
    const link = within(dave!).getByRole('link', { name: 'dave@example.com' });
    expect(link).toHaveAttribute('href', '/operator/users/7');
    await user.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/operator/users/7'));
  });

  it('searches all three levels, the Level column telling which, from the first page', async () => {
    stubBob({ body: partnerSummary() }, () => {
      const search = queriesTo(NETWORK).at(-1)?.search;
      return { body: page(search === 'example' ? [erin, partnerReferral()] : [partnerReferral()]) };
    });
    // the ledger's page is its own and stays
    const { user, router } = await openOperator('/operator/users/5?page=2&referrals_page=3');
    const region = await partnerRegion();
    await referralsTable(region);
    expect(queriesTo(NETWORK)[0]).toEqual({ page: '3', per_page: '20' });

    const search = within(region).getByRole('searchbox', {
      name: 'Search referrals on all levels (e-mail or name)',
    });
    await user.type(search, '  example ');
    await user.click(within(region).getByRole('button', { name: 'Search' }));

    await waitFor(() =>
      expect(router.state.location.search).toBe('?page=2&referrals_search=example'),
    );
    await waitFor(() =>
      expect(queriesTo(NETWORK).at(-1)).toEqual({ search: 'example', page: '1', per_page: '20' }),
    );
    const table = await referralsTable(region);
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(within(first!).getByRole('link', { name: 'erin@example.com' })).toHaveAttribute(
      'href',
      '/operator/users/8',
    );
    expect(within(first!).getAllByRole('cell')[2]).toHaveTextContent('2');
    expect(within(second!).getAllByRole('cell')[2]).toHaveTextContent('1');
    expect(queriesTo('/admin/users/5/ledger').at(-1)).toMatchObject({ page: '2' });
  });

  it('pages through the referrals', async () => {
    stubBob({ body: partnerSummary() }, () => {
      const current = Number(queriesTo(NETWORK).at(-1)?.page ?? 1);
      return {
        body: page(current === 1 ? [partnerReferral()] : [erin], {
          page: current,
          per_page: 20,
          total: 21,
        }),
      };
    });
    const { user, router } = await openOperator('/operator/users/5');
    const region = await partnerRegion();
    const table = await referralsTable(region);
    const pages = within(region).getByRole('navigation', { name: 'Pages of the referrals' });
    expect(pages).toHaveTextContent('1–20 of 21');

    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(table).toHaveTextContent('erin@example.com'));
    expect(queriesTo(NETWORK).at(-1)).toEqual({ page: '2', per_page: '20' });
    expect(router.state.location.search).toBe('?referrals_page=2');
    expect(pages).toHaveTextContent('21–21 of 21');
    // the ledger stays on its first page
    expect(queriesTo('/admin/users/5/ledger').every((query) => query.page === '1')).toBe(true);
  });

  it('says when there are no referrals, and when nobody matches the search', async () => {
    stubBob({ body: partnerSummary() });
    await openOperator('/operator/users/5');
    const region = await partnerRegion();
    expect(await within(region).findByText('No referrals')).toBeVisible();
    expect(within(region).queryByRole('table', { name: 'Referrals' })).toBeNull();
    expect(within(region).queryByRole('navigation', { name: 'Pages of the referrals' })).toBeNull();
  });

  it('says when nobody on any level matches the search, the search kept in its box', async () => {
    stubBob({ body: partnerSummary() });
    await openOperator('/operator/users/5?referrals_search=zed');
    const region = await partnerRegion();
    expect(await within(region).findByText('No referrals on any level match “zed”.')).toBeVisible();
    expect(within(region).getByRole('searchbox')).toHaveValue('zed');
    expect(queriesTo(NETWORK)[0]).toEqual({ search: 'zed', page: '1', per_page: '20' });
  });

  it('shows its own failure with a way to try again, the partner figures still shown', async () => {
    let fail = true;
    stubBob({ body: partnerSummary() }, () =>
      fail
        ? { status: 500, body: { message: 'Internal server error', code: 'INTERNAL' } }
        : { body: page([partnerReferral()]) },
    );
    const { user } = await openOperator('/operator/users/5');
    const region = await partnerRegion();
    const alert = await within(region).findByRole('alert');
    expect(alert).toHaveTextContent('The list could not be loaded');
    expect(within(region).getByText('BOB12345')).toBeVisible();
    expect(within(region).queryByRole('table', { name: 'Referrals' })).toBeNull();
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    const table = await referralsTable(region);
    expect(within(table).getByRole('link', { name: 'dave@example.com' })).toBeVisible();
    expect(within(region).queryByRole('alert')).toBeNull();
  });

  it('shows a loading state until the referrals come', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    stubBob({ body: partnerSummary() }, async () => {
      await held;
      return { body: page([partnerReferral()]) };
    });
    await openOperator('/operator/users/5');
    const region = await partnerRegion();
    expect(await within(region).findByText('BOB12345')).toBeVisible();
    expect(within(region).getByRole('status')).toHaveTextContent('Loading…');
    release();
    expect(await referralsTable(region)).toBeVisible();
    expect(within(region).queryByRole('status')).toBeNull();
  });
});
