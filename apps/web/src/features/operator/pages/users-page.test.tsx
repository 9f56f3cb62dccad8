import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminUserRecord, openOperator, page, queriesTo, stubOperatorApi } from '../test-utils';

const bob = adminUserRecord();
const bobby = adminUserRecord({
  id: 6,
  email: 'bobby@example.com',
  name: 'Bobby',
  balance: 1234.5,
  balance_partner: 0,
  role: 'admin',
});

describe('users', () => {
  it('searches by e-mail or name and lists the balances', async () => {
    stubOperatorApi({
      'GET /admin/users': () => {
        const query = queriesTo('/admin/users').at(-1)?.query ?? '';
        return { body: page(query === 'bob' ? [bob, bobby] : []) };
      },
    });
    const { user, router } = await openOperator('/operator/users');
    expect(await screen.findByText('There are no users yet.', {}, { timeout: 5000 })).toBeVisible();
    expect(queriesTo('/admin/users')[0]).toEqual({ page: '1', per_page: '20' });

    const search = screen.getByRole('searchbox', { name: 'E-mail or name' });
    await user.type(search, '  bob ');
    await user.click(screen.getByRole('button', { name: 'Search' }));

    await waitFor(() => expect(router.state.location.search).toBe('?query=bob'));
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(queriesTo('/admin/users').at(-1)).toEqual({ query: 'bob', page: '1', per_page: '20' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByRole('link', { name: 'bob@example.com' })).toHaveAttribute(
      'href',
      '/operator/users/5',
    );
    expect(rows[0]).toHaveTextContent('$120.00');
    expect(rows[0]).toHaveTextContent('$15.50');
    expect(rows[1]).toHaveTextContent('$1,234.50');
    expect(rows[1]).toHaveTextContent('Admin');
  });

  it('says when nothing matches the search', async () => {
    stubOperatorApi({ 'GET /admin/users': { body: page([]) } });
    await openOperator('/operator/users?query=nobody');
    expect(
      await screen.findByText('No users match “nobody”.', {}, { timeout: 5000 }),
    ).toBeVisible();
    expect(screen.getByRole('searchbox', { name: 'E-mail or name' })).toHaveValue('nobody');
  });

  it('pages through the results', async () => {
    stubOperatorApi({
      'GET /admin/users': () => {
        const current = Number(queriesTo('/admin/users').at(-1)?.page ?? 1);
        return {
          body: page(current === 1 ? [bob] : [bobby], { page: current, per_page: 20, total: 21 }),
        };
      },
    });
    const { user } = await openOperator('/operator/users');
    const pages = await screen.findByRole(
      'navigation',
      { name: 'Pages of the user list' },
      { timeout: 5000 },
    );
    expect(pages).toHaveTextContent('1–20 of 21');
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('link', { name: 'bobby@example.com' })).toBeVisible();
    expect(queriesTo('/admin/users').at(-1)).toMatchObject({ page: '2' });
    expect(screen.getByRole('navigation', { name: 'Pages of the user list' })).toHaveTextContent(
      'Page 2 of 2',
    );
  });
});
