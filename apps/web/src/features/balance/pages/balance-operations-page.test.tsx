import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { authApi } from '../../auth/api/auth-api';
import { renderBalance, searchOf, stubBalanceApi, user } from '../test-utils';

/** Intl's spaces (no-break, narrow no-break) as plain ones, to compare. */
const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');

describe('balance operations page', () => {
  it('has a heading, the two balances and the three tabs, Top up first', async () => {
    const api = stubBalanceApi({
      'GET /user/auth': { body: user({ balance: 1234.5, balance_partner: 80 }) },
    });
    const { store } = renderBalance();
    // the header's read of the user, as in the app: the page's figures come from the same call
    store.dispatch(authApi.endpoints.getUser.initiate());

    expect(
      screen.getByRole('heading', { level: 1, name: 'Balance operations' }),
    ).toBeInTheDocument();
    expect(document.title).toBe('Balance operations · TradeHost');
    const summary = screen.getByRole('region', { name: 'Your balances' });
    await waitFor(() =>
      expect(within(summary).getByTestId('summary-balance')).toHaveTextContent('$1,234.50'),
    );
    expect(within(summary).getByTestId('summary-partner')).toHaveTextContent('$80.00');
    expect(
      within(screen.getByRole('tablist', { name: 'Balance operations' }))
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Top up', 'Transfer', 'History']);
    expect(screen.getByRole('tab', { name: 'Top up' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('group', { name: 'Payment method' })).toBeInTheDocument();
    expect(api.callsTo('GET', '/user/auth')).toHaveLength(1);
  });

  it('keeps the tab in the address, so that reload and Back show the same', async () => {
    stubBalanceApi();
    const { user: events, router } = renderBalance();

    await events.click(screen.getByRole('tab', { name: 'Transfer' }));
    expect(searchOf(router).get('tab')).toBe('transfer');
    expect(await screen.findByLabelText("Recipient's e-mail")).toBeInTheDocument();

    await events.click(screen.getByRole('tab', { name: 'History' }));
    expect(searchOf(router).get('tab')).toBe('history');
    await events.click(await screen.findByRole('tab', { name: 'Withdrawals' }));
    expect(router.state.location.search).toBe('?tab=history&history=withdrawals');

    await router.navigate(-1);
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: 'Top-ups' })).toHaveAttribute('aria-selected', 'true'),
    );
    await router.navigate(-1);
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: 'Transfer' })).toHaveAttribute(
        'aria-selected',
        'true',
      ),
    );
  });

  it('opens the tab and the history of the address', async () => {
    stubBalanceApi();
    renderBalance('/balance-operations?tab=history&history=charges');
    expect(screen.getByRole('tab', { name: 'History' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('tab', { name: 'Charges' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });

  it('falls back to Top up for an unknown tab', async () => {
    stubBalanceApi();
    renderBalance('/balance-operations?tab=nonsense&payment=abc');
    expect(screen.getByRole('tab', { name: 'Top up' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByRole('region', { name: /Payment #/ })).toBeNull();
  });

  it('is usable from the keyboard: the tabs with the arrows and Enter', async () => {
    stubBalanceApi();
    const { user: events, router } = renderBalance();
    screen.getByRole('tab', { name: 'Top up' }).focus();
    await events.keyboard('{ArrowRight}{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'History' })).toHaveFocus();
    await events.keyboard('{Enter}');
    expect(searchOf(router).get('tab')).toBe('history');
  });

  it('reads in Russian, with the amounts as Russian readers write them', async () => {
    stubBalanceApi({ 'GET /user/auth': { body: user({ balance: 1234.5, balance_partner: 0 }) } });
    renderBalance('/balance-operations', { language: 'ru' });

    expect(
      screen.getByRole('heading', { level: 1, name: 'Операции с балансом' }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(plain(screen.getByTestId('summary-balance').textContent)).toBe('1 234,50 $'),
    );
    expect(screen.getByRole('tab', { name: 'Пополнение' })).toBeInTheDocument();
    const card = await screen.findByRole('radio', { name: 'Банковская карта' });
    expect(
      plain(
        card.getAttribute('aria-describedby') &&
          document.getElementById(card.getAttribute('aria-describedby')!)!.textContent,
      ),
    ).toBe('От 10,00 $');
    expect(screen.getByLabelText('Сумма (USD)')).toBeInTheDocument();
  });
});
