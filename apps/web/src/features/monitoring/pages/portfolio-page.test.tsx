import { screen, within } from '@testing-library/react';
import type {
  PortfolioAccount,
  PortfolioResponse,
  PortfolioSummary,
  PublicPortfolioResponse,
} from '@tradehost/contracts';
import { describe, expect, it, vi } from 'vitest';
import type { Handler } from '../../../test/fetch-stub';
import { stubFetch } from '../../../test/fetch-stub';
import { renderApp } from '../../../test/render';
import { openSignedIn, stubSignedInApi } from '../../../test/signed-in';
import { testUser } from '../../../test/fixtures';
import { signedOutRoutes } from '../../../app/router';
import { monitoringAccount } from '../test-utils';

// The chart library draws on canvases jsdom has not: the charts' summaries are what is read here.
vi.mock('lightweight-charts', () => {
  const series = { setData: () => {} };
  const chart = {
    addSeries: () => series,
    timeScale: () => ({ fitContent: () => {} }),
    remove: () => {},
  };
  return {
    createChart: () => chart,
    ColorType: { Solid: 'solid' },
    LineSeries: 'line',
    AreaSeries: 'area',
  };
});

const ALPHA = monitoringAccount({ id: 11, monitoring_id: 'AlphaAlphaAlpha1', name: 'Alpha' });
const BETA = monitoringAccount({ id: 12, monitoring_id: 'BetaBetaBetaBeta', name: 'Beta' });

/** The reader's portfolio of Alpha and Beta: -5 % by value, 4,800 USD summed. */
const SUMMARY: PortfolioSummary = {
  id: 3,
  monitoring_id: 'PortfolioPublic1',
  name: 'Both books',
  is_public: false,
  hide_money: false,
  views: 7,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
  account_ids: [11, 12],
  figures: {
    weighting: 'value',
    currency: 'USD',
    gain: -0.05,
    max_drawdown: 0.0732,
    balance: 4800,
    equity: 4810,
    since: '2026-01-05T12:00:00.000Z',
    accounts: 2,
  },
};

const row = (overrides: Partial<PortfolioAccount>): PortfolioAccount => ({
  id: null,
  monitoring_id: null,
  name: null,
  is_public: false,
  currency: null,
  gain: 0,
  max_drawdown: 0,
  balance: null,
  equity: null,
  share: null,
  since: null,
  ...overrides,
});

const ROWS: PortfolioAccount[] = [
  row({
    id: 11,
    monitoring_id: ALPHA.monitoring_id,
    name: 'Alpha',
    is_public: true,
    currency: 'USD',
    gain: 0.1,
    balance: 1100,
    equity: 1100,
    share: 1100 / 4800,
    since: '2026-01-05T12:00:00.000Z',
  }),
  row({
    id: 12,
    monitoring_id: BETA.monitoring_id,
    name: 'Beta',
    currency: 'USD',
    gain: -0.1,
    max_drawdown: 0.1,
    balance: 3700,
    equity: 3710,
    share: 3710 / 4810,
    since: '2026-01-05T12:00:00.000Z',
  }),
];

const POINTS: PortfolioResponse['points'] = [
  { time: '2026-01-05T12:00:00.000Z', gain: 0, balance: 4000, equity: 4000, drawdown: 0 },
  { time: '2026-01-06T15:00:00.000Z', gain: 0.025, balance: 4100, equity: 4100, drawdown: 0 },
  { time: '2026-01-07T15:00:00.000Z', gain: -0.05, balance: 3800, equity: 3800, drawdown: 0.0732 },
];

const detail = (summary: PortfolioSummary = SUMMARY): PortfolioResponse => ({
  portfolio: summary,
  accounts: ROWS,
  points: POINTS,
});

function stubOwner(more: Record<string, Handler> = {}, language: 'en' | 'ru' = 'en') {
  return stubSignedInApi(
    {
      'GET /user/monitoring/portfolios': { body: { portfolios: [SUMMARY] } },
      [`GET /user/monitoring/portfolios/${SUMMARY.id}`]: { body: detail() },
      'GET /user/monitoring/accounts': { body: { accounts: [ALPHA, BETA] } },
      ...more,
    },
    { ...testUser, language },
  );
}

describe('the owner’s portfolio', () => {
  it('shows the combined figures, how they are weighed, and each account’s row', async () => {
    stubOwner();
    await openSignedIn(`/online-monitoring/portfolios/${SUMMARY.monitoring_id}`);
    const headline = await screen.findByLabelText('Portfolio figures', {}, { timeout: 5000 });
    expect(headline).toHaveTextContent('−5.00%');
    expect(headline).toHaveTextContent('7.32%');
    expect(headline).toHaveTextContent('$4,800.00');
    expect(headline).toHaveTextContent('$4,810.00');
    expect(screen.getByRole('heading', { level: 2, name: 'Both books' })).toBeVisible();
    expect(screen.getByText(/Each step weighs the accounts by their value/)).toBeVisible();
    expect(screen.getByRole('img', { name: /Growth chart/ })).toBeInTheDocument();
    const table = within(screen.getByRole('table', { name: 'Accounts in the portfolio' }));
    const alpha = table.getByRole('row', { name: /Alpha/ });
    expect(within(alpha).getByRole('link', { name: 'Alpha' })).toHaveAttribute(
      'href',
      `/online-monitoring/${ALPHA.monitoring_id}`,
    );
    expect(alpha).toHaveTextContent('+10.00%');
    expect(alpha).toHaveTextContent('22.92%');
    // Beta is not public: its owner is told the public page does not name it
    expect(table.getByRole('row', { name: /Beta/ })).toHaveTextContent(
      'Private: not named on the public page',
    );
  });

  it('on a phone shows each account as a card, its gain at the top', async () => {
    stubOwner();
    await openSignedIn(`/online-monitoring/portfolios/${SUMMARY.monitoring_id}`, { width: 375 });
    const cards = await screen.findByRole(
      'list',
      { name: 'Accounts in the portfolio' },
      { timeout: 5000 },
    );
    expect(screen.queryByRole('table')).toBeNull();
    const [alpha, beta] = within(cards).getAllByRole('listitem');
    expect(within(alpha!).getByRole('link', { name: 'Alpha' })).toBeVisible();
    expect(alpha).toHaveTextContent('+10.00%');
    expect(alpha).toHaveTextContent('$1,100.00');
    expect(beta).toHaveTextContent('Private: not named on the public page');
  });

  it('shares it: the public switch and hidden money are saved, and the link shows to copy', async () => {
    let current = SUMMARY;
    const api = stubOwner({
      [`PATCH /user/monitoring/portfolios/${SUMMARY.id}`]: (call) => {
        const body = call.body as { is_public: boolean; hide_money: boolean };
        current = { ...current, is_public: body.is_public, hide_money: body.hide_money };
        return { body: detail(current) };
      },
      'GET /user/monitoring/portfolios': () => ({ body: { portfolios: [current] } }),
      [`GET /user/monitoring/portfolios/${SUMMARY.id}`]: () => ({ body: detail(current) }),
    });
    const { user } = await openSignedIn(`/online-monitoring/portfolios/${SUMMARY.monitoring_id}`);
    const settings = within(
      (await screen.findByRole('heading', { name: 'Settings' }, { timeout: 5000 })).closest(
        'section',
      )!,
    );
    const hide = settings.getByRole('checkbox', { name: /Hide money figures/ });
    expect(hide).toBeDisabled();
    await user.click(settings.getByRole('checkbox', { name: /Anyone with the link/ }));
    await user.click(hide);
    await user.click(settings.getByRole('button', { name: 'Save' }));
    expect(await settings.findByText('Saved')).toBeVisible();
    const [sent] = api.callsTo('PATCH', `/user/monitoring/portfolios/${SUMMARY.id}`);
    expect(sent!.body).toEqual({
      name: 'Both books',
      account_ids: [11, 12],
      is_public: true,
      hide_money: true,
    });
    const link = `${window.location.origin}/online-monitoring/portfolios/${SUMMARY.monitoring_id}`;
    expect(await settings.findByRole('link', { name: link })).toHaveAttribute('href', link);
    expect(settings.getByRole('button', { name: 'Copy the link' })).toBeVisible();
  });

  it('refuses one account before asking, and shows the API’s refusal of the accounts', async () => {
    const api = stubOwner({
      [`PATCH /user/monitoring/portfolios/${SUMMARY.id}`]: {
        status: 422,
        body: {
          code: 'MONITORING_PORTFOLIO_ACCOUNT_UNKNOWN',
          message: 'Choose among your own monitored accounts',
          errors: { account_ids: ['Choose among your own monitored accounts'] },
        },
      },
    });
    const { user } = await openSignedIn(`/online-monitoring/portfolios/${SUMMARY.monitoring_id}`);
    const accounts = await screen.findByRole('group', { name: 'Accounts' }, { timeout: 5000 });
    const save = screen.getByRole('button', { name: 'Save' });
    await user.click(within(accounts).getByRole('checkbox', { name: /Beta/ }));
    await user.click(save);
    expect(accounts).toHaveAccessibleDescription(/Choose from 2 to 20 different accounts/);
    expect(api.callsTo('PATCH', `/user/monitoring/portfolios/${SUMMARY.id}`)).toHaveLength(0);
    await user.click(within(accounts).getByRole('checkbox', { name: /Beta/ }));
    await user.click(save);
    expect(
      await within(accounts).findByText('Choose among your own monitored accounts'),
    ).toBeVisible();
  });

  it('deletes it after a confirmation that names it, and goes back to the list', async () => {
    let deleted = false;
    const api = stubOwner({
      [`DELETE /user/monitoring/portfolios/${SUMMARY.id}`]: () => {
        deleted = true;
        return { body: { message: 'The portfolio has been deleted' } };
      },
      'GET /user/monitoring/portfolios': () => ({
        body: { portfolios: deleted ? [] : [SUMMARY] },
      }),
    });
    const { user, router } = await openSignedIn(
      `/online-monitoring/portfolios/${SUMMARY.monitoring_id}`,
    );
    await user.click(
      await screen.findByRole('button', { name: 'Delete this portfolio' }, { timeout: 5000 }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Delete the portfolio “Both books”?',
    });
    expect(api.callsTo('DELETE', `/user/monitoring/portfolios/${SUMMARY.id}`)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await expect.poll(() => router.state.location.pathname).toBe('/online-monitoring/portfolios');
    expect(api.callsTo('DELETE', `/user/monitoring/portfolios/${SUMMARY.id}`)).toHaveLength(1);
    expect(await screen.findByText('No portfolio yet', {}, { timeout: 5000 })).toBeVisible();
  });
});

/** The public page of the portfolio: Alpha public, Beta a private account; money as given. */
function publicPage(showsMoney: boolean): PublicPortfolioResponse {
  return {
    portfolio: {
      monitoring_id: SUMMARY.monitoring_id,
      name: 'Both books',
      views: 12,
      created_at: SUMMARY.created_at,
      shows_money: showsMoney,
      figures: showsMoney
        ? SUMMARY.figures
        : { ...SUMMARY.figures, currency: null, balance: null, equity: null },
    },
    accounts: [
      {
        ...ROWS[0]!,
        id: null,
        ...(showsMoney ? {} : { currency: null, balance: null, equity: null }),
      },
      row({ gain: -0.1, max_drawdown: 0.1 }),
    ],
    points: POINTS.map((p) => (showsMoney ? p : { ...p, balance: null, equity: null })),
  };
}

describe('another’s portfolio, or one signed out', () => {
  it.each([
    ['en' as const, 'A private account', '12 views', 'The owner shows percentages only.'],
    ['ru' as const, 'Закрытый счёт', '12 просмотров', 'Владелец показывает только проценты.'],
  ])(
    'is its public page in %s: a private account without its name, money hidden',
    async (language, privateAccount, views, percentOnly) => {
      stubSignedInApi(
        {
          'GET /user/monitoring/portfolios': { body: { portfolios: [] } },
          [`GET /monitoring/portfolios/${SUMMARY.monitoring_id}`]: { body: publicPage(false) },
        },
        { ...testUser, language },
      );
      await openSignedIn(`/online-monitoring/portfolios/${SUMMARY.monitoring_id}`, { language });
      const headline = await screen.findByLabelText(
        language === 'en' ? 'Portfolio figures' : 'Показатели портфеля',
        {},
        { timeout: 5000 },
      );
      expect(headline).toHaveTextContent(language === 'en' ? '−5.00%' : '−5,00 %');
      expect(headline).not.toHaveTextContent('4,800');
      expect(screen.getByText(percentOnly)).toBeVisible();
      expect(screen.getByText(new RegExp(views))).toBeVisible();
      const table = screen.getByRole('table');
      expect(within(table).getByText(privateAccount)).toBeVisible();
      expect(within(table).queryByText('Beta')).toBeNull();
      expect(within(table).getByRole('link', { name: 'Alpha' })).toBeVisible();
      // no settings of another's
      expect(screen.queryByRole('button', { name: /Save|Сохранить/ })).toBeNull();
    },
  );

  it('opens signed out, with money when it is shown', async () => {
    stubFetch({
      [`GET /monitoring/portfolios/${SUMMARY.monitoring_id}`]: { body: publicPage(true) },
    });
    await renderApp({
      routes: signedOutRoutes,
      path: `/online-monitoring/portfolios/${SUMMARY.monitoring_id}`,
    });
    const headline = await screen.findByLabelText('Portfolio figures', {}, { timeout: 5000 });
    expect(headline).toHaveTextContent('$4,800.00');
    expect(screen.getByRole('heading', { level: 1, name: 'Online monitoring' })).toBeVisible();
  });

  it('says a private or missing one does not exist, in the same words', async () => {
    stubFetch({
      [`GET /monitoring/portfolios/${SUMMARY.monitoring_id}`]: {
        status: 404,
        body: {
          code: 'MONITORING_PUBLIC_NOT_FOUND',
          message: 'This monitoring page does not exist or is private',
        },
      },
    });
    await renderApp({
      routes: signedOutRoutes,
      path: `/online-monitoring/portfolios/${SUMMARY.monitoring_id}`,
    });
    expect(
      await screen.findByRole(
        'heading',
        { name: 'This portfolio does not exist or is private' },
        { timeout: 5000 },
      ),
    ).toBeVisible();
  });
});
