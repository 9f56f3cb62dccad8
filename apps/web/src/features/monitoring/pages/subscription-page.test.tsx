import { screen, within } from '@testing-library/react';
import type { MonitoringPlans, Subscription } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { openSignedIn, stubSignedInApi } from '../../../test/signed-in';
import styles from '../components/monitoring.module.css';

const PLANS: MonitoringPlans = {
  account_month_price: 3,
  discounts: [{ months: 3, discount_percent: 5 }],
  free_accounts: 1,
  free_available: true,
};

const PAID: Subscription = {
  id: 5,
  plan: 'paid',
  accounts: 2,
  used_accounts: 1,
  created_at: '2026-11-01T00:00:00.000Z',
  ends_at: '2099-01-01T00:00:00.000Z',
  active: true,
};

describe('the subscription page', () => {
  it("puts every button of a subscription's card in one row of one size, its key's among them, and each plan's at its card's foot", async () => {
    stubSignedInApi({
      'GET /user/monitoring/plans': { body: PLANS },
      'GET /user/monitoring/subscriptions': { body: { subscriptions: [PAID] } },
    });
    await openSignedIn('/online-monitoring');
    const card = within(
      await screen.findByRole('article', { name: 'Subscription #5' }, { timeout: 5000 }),
    );
    const controls = [
      card.getByRole('button', { name: 'Extend' }),
      card.getByRole('button', { name: 'Add accounts' }),
      card.getByRole('link', { name: 'Add an account' }),
      card.getByRole('button', { name: 'Show the activation key' }),
      card.getByRole('button', { name: 'Regenerate the key' }),
    ];
    const row = controls[0]!.parentElement!;
    expect(row).toHaveClass(styles.actions!);
    for (const control of controls) expect(control.parentElement).toBe(row);
    // the link to add an account looks like the buttons beside it
    expect(controls[2]!.className).toBe(controls[1]!.className);

    for (const name of ['Take the free plan', 'Pay $3.00'])
      expect(screen.getByRole('button', { name }).parentElement).toHaveClass(styles.actions!);
  });
});
