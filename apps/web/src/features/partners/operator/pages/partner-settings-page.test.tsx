import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { checkSettings } from '../lib/partner-settings';
import { openOperator, partnerSettings, stubOperatorApi } from '../../../operator/test-utils';

const PATH = '/operator/partner/settings';
const API = '/admin/partner/settings';

const field = (name: string | RegExp) => screen.getByRole('textbox', { name });
const tierField = (tier: number, what: 'From active referrals' | 'Discount, %') =>
  field(`Tier ${tier}: ${what}`);
const openSettings = async () => {
  const opened = await openOperator(PATH);
  await screen.findByRole('textbox', { name: 'Level 1, %' }, { timeout: 5000 });
  return opened;
};

describe('partner settings', () => {
  it('shows the saved percentages and tiers, and when changes apply', async () => {
    stubOperatorApi({ [`GET ${API}`]: { body: partnerSettings } });
    await openSettings();
    expect(screen.getByRole('heading', { level: 2, name: 'Partner settings' })).toBeVisible();
    expect(field('Level 1, %')).toHaveValue('10');
    expect(field('Level 2, %')).toHaveValue('5');
    expect(field('Level 3, %')).toHaveValue('2');
    const tiers = screen.getByRole('region', { name: 'Promocode discount tiers' });
    expect(within(tiers).getAllByRole('listitem')).toHaveLength(3);
    expect(tierField(1, 'From active referrals')).toHaveValue('0');
    // the first tier starts at 0: fixed, and it cannot be removed
    expect(tierField(1, 'From active referrals')).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Remove tier 1' })).toBeNull();
    expect(tierField(3, 'From active referrals')).toHaveValue('20');
    expect(tierField(3, 'Discount, %')).toHaveValue('15');
    expect(
      screen.getByText(/Rewards already granted, pending or available, keep theirs\./),
    ).toBeVisible();
  });

  it('refuses bad values on their fields without a call', async () => {
    const http = stubOperatorApi({ [`GET ${API}`]: { body: partnerSettings } });
    const { user } = await openSettings();
    const set = async (input: HTMLElement, value: string) => {
      await user.clear(input);
      if (value) await user.type(input, value);
    };
    await set(field('Level 1, %'), '10.125');
    await set(field('Level 2, %'), '');
    await set(field('Level 3, %'), '60');
    await set(tierField(2, 'From active referrals'), '0');
    await set(tierField(2, 'Discount, %'), '3');
    await set(tierField(3, 'Discount, %'), '95');
    await user.click(screen.getByRole('button', { name: 'Save the settings' }));

    const percent = 'Enter a percentage from 0 to 50 with at most two decimals';
    expect(await screen.findAllByText(percent)).toHaveLength(3);
    expect(field('Level 1, %')).toHaveAttribute('aria-invalid', 'true');
    expect(field('Level 1, %')).toHaveAccessibleDescription(percent);
    // 0 active referrals again, and 3 % after 5 %: not above the tier above
    expect(tierField(2, 'From active referrals')).toHaveAccessibleDescription(
      'Enter more active referrals than in the tier above',
    );
    expect(tierField(2, 'Discount, %')).toHaveAccessibleDescription(
      'Enter a discount no smaller than in the tier above',
    );
    expect(tierField(3, 'Discount, %')).toHaveAccessibleDescription(
      'Enter a whole percentage from 1 to 90',
    );
    expect(tierField(3, 'From active referrals')).not.toHaveAttribute('aria-invalid');
    expect(http.callsTo('PUT', API)).toHaveLength(0);
  });

  it('adds and removes tiers and saves everything together', async () => {
    const http = stubOperatorApi({
      [`GET ${API}`]: { body: partnerSettings },
      [`PUT ${API}`]: (call) => ({ body: call.body }),
    });
    const { user } = await openSettings();
    await user.clear(field('Level 1, %'));
    await user.type(field('Level 1, %'), '12,5');
    await user.clear(field('Level 3, %'));
    await user.type(field('Level 3, %'), '0');

    await user.click(screen.getByRole('button', { name: 'Remove tier 2' }));
    const add = screen.getByRole('button', { name: 'Add a tier' });
    expect(add).toHaveFocus();
    expect(tierField(2, 'From active referrals')).toHaveValue('20');
    await user.click(add);
    await user.type(tierField(3, 'From active referrals'), '50');
    await user.type(tierField(3, 'Discount, %'), '25');
    expect(screen.getByText('Unsaved changes')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Save the settings' }));
    await waitFor(() => expect(http.callsTo('PUT', API)).toHaveLength(1));
    expect(http.callsTo('PUT', API)[0]!.body).toEqual({
      reward_percents: [12.5, 5, 0],
      discount_tiers: [
        { active_referrals: 0, discount: 5 },
        { active_referrals: 20, discount: 15 },
        { active_referrals: 50, discount: 25 },
      ],
    });
    expect(
      await screen.findByText('The partner settings have been saved', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
  });

  it('holds at most 10 tiers', async () => {
    stubOperatorApi({ [`GET ${API}`]: { body: partnerSettings } });
    const { user } = await openSettings();
    const add = screen.getByRole('button', { name: 'Add a tier' });
    for (let i = 0; i < 7; i += 1) await user.click(add);
    expect(
      within(screen.getByRole('region', { name: 'Promocode discount tiers' })).getAllByRole(
        'listitem',
      ),
    ).toHaveLength(10);
    expect(add).toBeDisabled();
  });

  it("shows the server's refusal in its words", async () => {
    stubOperatorApi({
      [`GET ${API}`]: { body: partnerSettings },
      [`PUT ${API}`]: {
        status: 422,
        body: {
          message: 'Give three percentages from 0 to 50, with at most two decimals',
          code: 'PERCENT_INVALID',
          errors: {
            reward_percents: ['Give three percentages from 0 to 50, with at most two decimals'],
          },
        },
      },
    });
    const { user } = await openSettings();
    await user.click(screen.getByRole('button', { name: 'Save the settings' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Give three percentages from 0 to 50, with at most two decimals',
    );
  });

  it('shows a failed load with a way to try again', async () => {
    let fail = true;
    stubOperatorApi({
      [`GET ${API}`]: () =>
        fail
          ? { status: 500, body: { message: 'Internal server error', code: 'INTERNAL' } }
          : { body: partnerSettings },
    });
    const { user } = await openOperator(PATH);
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert).toHaveTextContent('could not be loaded');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('textbox', { name: 'Level 1, %' })).toHaveValue('10');
  });
});

describe('checkSettings', () => {
  const values = (percents: string[], tiers: [string, string][]) => ({
    reward_percents: percents,
    discount_tiers: tiers.map(([active_referrals, discount]) => ({ active_referrals, discount })),
  });

  it('takes what the contract takes, a decimal comma included', () => {
    expect(
      checkSettings(
        values(
          ['12,5', '50', '0.01'],
          [
            ['0', '1'],
            ['3', '1'],
            ['4', '90'],
          ],
        ),
      ),
    ).toEqual({
      settings: {
        reward_percents: [12.5, 50, 0.01],
        discount_tiers: [
          { active_referrals: 0, discount: 1 },
          { active_referrals: 3, discount: 1 },
          { active_referrals: 4, discount: 90 },
        ],
      },
      problems: {},
    });
  });

  it('refuses what the contract refuses, on the field at fault', () => {
    expect(
      checkSettings(
        values(
          ['50.01', '-1', '1e1'],
          [
            ['1', '0'],
            ['0', '10'],
            ['x', '9'],
            ['5', '8'],
          ],
        ),
      ).problems,
    ).toEqual({
      'reward_percents.0': 'percent',
      'reward_percents.1': 'percent',
      'reward_percents.2': 'percent',
      'discount_tiers.0.active_referrals': 'referrals',
      'discount_tiers.0.discount': 'discount',
      // the first tier's own faults are not held against the second
      'discount_tiers.2.active_referrals': 'referrals',
      'discount_tiers.2.discount': 'discountOrder',
      // a tier out of order is still compared by its value
      'discount_tiers.3.discount': 'discountOrder',
    });
  });
});
