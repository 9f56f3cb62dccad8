import { screen, within } from '@testing-library/react';
import type { PortfolioResponse, PortfolioSummary } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import type { Handler } from '../../../test/fetch-stub';
import { testUser } from '../../../test/fixtures';
import { openSignedIn, stubSignedInApi } from '../../../test/signed-in';
import { monitoringAccount } from '../test-utils';

const ACCOUNTS = [
  monitoringAccount({ id: 11, monitoring_id: 'AlphaAlphaAlpha1', name: 'Alpha', login: 501 }),
  monitoringAccount({ id: 12, monitoring_id: 'BetaBetaBetaBeta', name: 'Beta', login: 502 }),
  monitoringAccount({
    id: 13,
    monitoring_id: 'GammaGammaGamma1',
    name: 'Gamma',
    login: 503,
    currency: 'EUR',
  }),
];

const portfolio = (overrides: Partial<PortfolioSummary> = {}): PortfolioSummary => ({
  id: 3,
  monitoring_id: 'PortfolioPublic1',
  name: 'Both books',
  is_public: true,
  hide_money: false,
  views: 7,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
  account_ids: [11, 12],
  figures: {
    weighting: 'value',
    currency: 'USD',
    gain: 0.0525,
    max_drawdown: 0.031,
    balance: 4800,
    equity: 4810,
    since: '2026-01-05T12:00:00.000Z',
    accounts: 2,
  },
  ...overrides,
});

function stub(
  portfolios: PortfolioSummary[],
  more: Record<string, Handler> = {},
  language: 'en' | 'ru' = 'en',
  accounts = ACCOUNTS,
) {
  return stubSignedInApi(
    {
      'GET /user/monitoring/portfolios': { body: { portfolios } },
      'GET /user/monitoring/accounts': { body: { accounts } },
      ...more,
    },
    { ...testUser, language },
  );
}

describe('the portfolios', () => {
  it.each([
    ['en' as const, 'Portfolios', '+5.25%', '$4,810.00', 'Public'],
    ['ru' as const, 'Портфели', '+5,25 %', '4 810,00 $', 'Открыт'],
  ])(
    'are listed in %s with their combined figures',
    async (language, title, gain, equity, page) => {
      stub([portfolio()], {}, language);
      await openSignedIn('/online-monitoring/portfolios', { language });
      const table = await screen.findByRole('table', { name: title }, { timeout: 5000 });
      const row = within(table).getByRole('row', { name: /Both books/ });
      expect(within(row).getByRole('link', { name: 'Both books' })).toHaveAttribute(
        'href',
        '/online-monitoring/portfolios/PortfolioPublic1',
      );
      expect(row).toHaveTextContent(gain);
      expect(row.textContent?.replace(/\s/g, ' ')).toContain(equity.replace(/\s/g, ' '));
      expect(row).toHaveTextContent(page);
      // the section's tab
      expect(screen.getByRole('link', { name: title, current: 'page' })).toBeVisible();
    },
  );

  it('says what a portfolio is while there is none, and needs two accounts to make one', async () => {
    stub([], {}, 'en', ACCOUNTS.slice(0, 1));
    await openSignedIn('/online-monitoring/portfolios');
    expect(await screen.findByText('No portfolio yet', {}, { timeout: 5000 })).toBeVisible();
    expect(
      screen.getByText(/A portfolio combines two or more accounts: add another account first/),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Add an account' })).toHaveAttribute(
      'href',
      '/online-monitoring/accounts',
    );
    expect(screen.queryByRole('button', { name: 'New portfolio' })).toBeNull();
  });

  it('makes one of the accounts chosen, refusing one account or no name first, and opens it', async () => {
    const made: PortfolioResponse = {
      portfolio: portfolio({ id: 4, monitoring_id: 'NewPortfolio0001', name: 'Mixed' }),
      accounts: [],
      points: [],
    };
    const api = stub([], {
      'POST /user/monitoring/portfolios': { status: 201, body: made },
      [`GET /user/monitoring/portfolios/4`]: { body: made },
    });
    const { user, router } = await openSignedIn('/online-monitoring/portfolios');
    await user.click(
      await screen.findByRole('button', { name: 'New portfolio' }, { timeout: 5000 }),
    );
    const dialog = within(await screen.findByRole('dialog', { name: 'New portfolio' }));
    const accounts = dialog.getByRole('group', { name: 'Accounts' });
    await user.click(dialog.getByRole('checkbox', { name: /Alpha/ }));
    await user.click(dialog.getByRole('button', { name: 'Create' }));
    expect(dialog.getByText('Enter the portfolio name')).toBeVisible();
    expect(accounts).toHaveAccessibleDescription(
      /Chosen: 1.*Choose from 2 to 20 different accounts/,
    );
    expect(api.callsTo('POST', '/user/monitoring/portfolios')).toHaveLength(0);

    await user.type(dialog.getByRole('textbox', { name: 'Portfolio name' }), ' Mixed ');
    await user.click(dialog.getByRole('checkbox', { name: /Gamma/ }));
    // USD and EUR: weighed equally, said before it is made
    expect(dialog.getByText(/These accounts are in different currencies/)).toBeVisible();
    await user.click(dialog.getByRole('button', { name: 'Create' }));
    await expect
      .poll(() => router.state.location.pathname)
      .toBe('/online-monitoring/portfolios/NewPortfolio0001');
    expect(api.callsTo('POST', '/user/monitoring/portfolios')[0]!.body).toEqual({
      name: 'Mixed',
      account_ids: [11, 13],
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the API’s refusal above the buttons and keeps the dialog', async () => {
    stub(
      [],
      {
        'POST /user/monitoring/portfolios': {
          status: 409,
          body: {
            code: 'MONITORING_PORTFOLIOS_FULL',
            message: 'You already have 20 portfolios: delete one first',
          },
        },
      },
      'ru',
    );
    const { user } = await openSignedIn('/online-monitoring/portfolios', { language: 'ru' });
    await user.click(
      await screen.findByRole('button', { name: 'Новый портфель' }, { timeout: 5000 }),
    );
    const dialog = within(await screen.findByRole('dialog', { name: 'Новый портфель' }));
    await user.type(dialog.getByRole('textbox', { name: 'Название портфеля' }), 'Все');
    await user.click(dialog.getByRole('checkbox', { name: /Alpha/ }));
    await user.click(dialog.getByRole('checkbox', { name: /Beta/ }));
    await user.click(dialog.getByRole('button', { name: 'Создать' }));
    expect(await dialog.findByText('У вас уже 20 портфелей: сначала удалите один')).toBeVisible();
  });

  it('says when the list could not be loaded, and tries again', async () => {
    let failing = true;
    stub([], {
      'GET /user/monitoring/portfolios': () =>
        failing
          ? { status: 500, body: { code: 'INTERNAL', message: 'Internal server error' } }
          : { body: { portfolios: [portfolio()] } },
    });
    const { user } = await openSignedIn('/online-monitoring/portfolios');
    const retry = await screen.findByRole('button', { name: 'Try again' }, { timeout: 5000 });
    expect(screen.getByText('The portfolios could not be loaded')).toBeVisible();
    failing = false;
    await user.click(retry);
    expect(await screen.findByRole('link', { name: 'Both books' })).toBeVisible();
  });
});
