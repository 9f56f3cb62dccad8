import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Handler } from '../../../test/fetch-stub';
import {
  adminUser,
  adminUserRecord,
  ledgerEntry,
  openOperator,
  page,
  partnerSummary,
  stubOperatorApi,
} from '../test-utils';

function stubBob(summary: Handler) {
  return stubOperatorApi({
    'GET /admin/users/5': { body: { user: adminUserRecord() } },
    'GET /admin/users/5/ledger': { body: page([ledgerEntry()]) },
    'GET /admin/partner/users/5': summary,
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
  });
});
