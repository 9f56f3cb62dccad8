import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Handler } from '../../../test/fetch-stub';
import {
  adminUser,
  adminUserRecord,
  ledgerEntry,
  moneyApproval,
  olga,
  openOperator,
  operatorUser,
  page,
  queriesTo,
  stubOperatorApi,
} from '../test-utils';

const bob = adminUserRecord();

const ledger = [
  ledgerEntry({
    id: 3,
    kind: 'charge',
    amount: -10,
    balance_after: 120,
    memo: 'VPS Standard, 1 month',
  }),
  ledgerEntry({ id: 2, kind: 'topup', amount: 25, balance_after: 130, memo: 'crypto BTC abc' }),
  ledgerEntry({
    id: 1,
    kind: 'adjustment',
    account: 'balance_partner',
    amount: 15.5,
    balance_after: 15.5,
  }),
];

function stubUser(routes: Record<string, Handler> = {}) {
  return stubOperatorApi({
    'GET /admin/users/5': { body: { user: bob } },
    'GET /admin/users/5/ledger': { body: page(ledger) },
    ...routes,
  });
}

const openBob = () => openOperator('/operator/users/5');
const userHeading = () =>
  screen.findByRole('heading', { level: 2, name: 'Bob' }, { timeout: 5000 });

describe('a user of the operator area', () => {
  it('shows an operator without the billing role the user and balances, not the correction, partner figures or ledger', async () => {
    const http = stubOperatorApi(
      { 'GET /admin/users/5': { body: { user: bob } } },
      operatorUser('support'),
    );
    await openBob();
    await userHeading();
    expect(screen.getByText('$120.00', { selector: 'dd' })).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Adjust balance' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Partner programme' })).toBeNull();
    expect(screen.queryByRole('table', { name: 'Ledger' })).toBeNull();
    const adminCalls = http.calls
      .map((call) => call.path)
      .filter((path) => path.startsWith('/admin/'));
    expect(new Set(adminCalls)).toEqual(new Set(['/admin/users/5']));
  });

  it('shows the balances and the ledger with signed, coloured amounts', async () => {
    stubUser();
    await openBob();
    await userHeading();
    expect(screen.getByText('bob@example.com')).toBeVisible();
    expect(screen.getByText('$120.00', { selector: 'dd' })).toBeVisible();
    expect(screen.getByText('$15.50', { selector: 'dd' })).toBeVisible();

    const table = await screen.findByRole('table', { name: 'Ledger' });
    const [charge, topup, adjustment] = within(table).getAllByRole('row').slice(1);
    const debit = within(charge!).getByText('\u2212$10.00');
    const credit = within(topup!).getByText('+$25.00');
    expect(debit.className).toMatch(/debit/);
    expect(credit.className).toMatch(/credit/);
    expect(charge).toHaveTextContent('Charge');
    expect(charge).toHaveTextContent('VPS Standard, 1 month');
    expect(charge).toHaveTextContent('$120.00');
    expect(adjustment).toHaveTextContent('Partner balance');
    expect(adjustment).toHaveTextContent('+$15.50');
    expect(queriesTo('/admin/users/5/ledger')[0]).toEqual({ page: '1', per_page: '20' });
  });

  describe('puts what the system wrote into the reader’s words', () => {
    const coded = [
      ledgerEntry({
        id: 10,
        memo_code: 'topup_gateway',
        memo_params: { payment_id: 40, method: 'card', gateway: 'sandbox', operation_id: 'op-77' },
      }),
      ledgerEntry({
        id: 9,
        memo_code: 'topup_crypto',
        memo_params: { payment_id: 41, network: 'BTC', txid: 'abc123' },
      }),
      ledgerEntry({
        id: 8,
        kind: 'charge',
        amount: -10,
        memo_code: 'charge',
        memo_params: {
          description_en: 'VPS #12 Trader: 1 month',
          description_ru: 'VPS №\u00a012 Trader: 1 месяц',
        },
      }),
      ...(['vps_create_refund', 'vps_upgrade_refund', 'vps_upgrade_revoked_refund'] as const).map(
        (code, i) =>
          ledgerEntry({
            id: 7 - i,
            kind: 'refund',
            memo_code: code,
            memo_params: { server_id: 12 },
          }),
      ),
      ledgerEntry({
        id: 12,
        kind: 'transfer',
        amount: -10,
        memo_code: 'transfer',
        memo_params: { transfer_id: 45, from_user_id: 5, to_user_id: 6 },
      }),
      ledgerEntry({
        id: 11,
        kind: 'partner_move',
        account: 'balance_partner',
        amount: -10,
        memo_code: 'partner_move',
        memo_params: {},
      }),
      ledgerEntry({
        id: 4,
        kind: 'withdrawal',
        account: 'balance_partner',
        amount: -20,
        memo_code: 'partner_withdrawal',
        memo_params: { method: 'USDT-TRC20' },
      }),
      ledgerEntry({
        id: 3,
        kind: 'refund',
        account: 'balance_partner',
        memo_code: 'partner_withdrawal_cancelled',
        memo_params: { withdrawal_id: 5 },
      }),
      ledgerEntry({
        id: 2,
        kind: 'reward',
        account: 'balance_partner',
        memo_code: 'partner_reward',
        memo_params: { level: 2, charge_id: 77 },
      }),
      // shown as stored: an operator's text, and a code this console does not know
      ledgerEntry({ id: 1, kind: 'adjustment', memo: 'Goodwill, ticket 12' }),
      ledgerEntry({
        id: 0,
        kind: 'refund',
        memo: 'Refund: an old text',
        memo_code: 'from_a_later_release',
        memo_params: { anything: 1 },
      }),
    ];
    const words = {
      en: [
        'Bank card payment #40, sandbox operation op-77',
        'Crypto payment #41: BTC, TXID abc123',
        'VPS #12 Trader: 1 month',
        'Refund: VPS #12 could not be created',
        'Refund: the upgrade of VPS #12 failed',
        'Refund: the upgrade of VPS #12 was cancelled, the server was revoked',
        'Transfer #45 from user #5 to user #6',
        'Moved by the partner from the partner balance to the main balance',
        'Partner withdrawal: USDT (TRC-20)',
        'Partner withdrawal #5 cancelled',
        'Partner reward: level 2, charge #77',
        'Goodwill, ticket 12',
        'Refund: an old text',
      ],
      ru: [
        'Банковская карта: платёж №\u00a040, операция sandbox op-77',
        'Криптовалюта: платёж №\u00a041, BTC, TXID abc123',
        'VPS №\u00a012 Trader: 1 месяц',
        'Возврат: VPS №\u00a012 не удалось создать',
        'Возврат: смена тарифа VPS №\u00a012 не удалась',
        'Возврат: смена тарифа VPS №\u00a012 отменена, сервер отозван',
        'Перевод №\u00a045 от пользователя №\u00a05 пользователю №\u00a06',
        'Партнёр перевёл средства с партнёрского баланса на основной',
        'Вывод партнёрского баланса: USDT (TRC-20)',
        'Вывод партнёрского баланса №\u00a05 отменён',
        'Партнёрское вознаграждение: уровень 2, списание №\u00a077',
        'Goodwill, ticket 12',
        'Refund: an old text',
      ],
    };
    const titles = { en: 'Ledger', ru: 'Движения по счёту' };

    it.each(['en', 'ru'] as const)('in %s', async (language) => {
      stubOperatorApi(
        {
          'GET /admin/users/5': { body: { user: bob } },
          'GET /admin/users/5/ledger': { body: page(coded) },
        },
        { ...adminUser, language },
      );
      await openOperator('/operator/users/5', { language });
      const table = await screen.findByRole('table', { name: titles[language] }, { timeout: 5000 });
      const rows = within(table).getAllByRole('row').slice(1);
      // the raw text: toHaveTextContent would take the no-break space for any space
      expect(rows.map((row) => within(row).getAllByRole('cell').at(-1)!.textContent)).toEqual(
        words[language],
      );
    });
  });

  it('says when there is no such user', async () => {
    stubOperatorApi({
      'GET /admin/users/404': { status: 404, body: { message: 'Not found', code: 'NOT_FOUND' } },
    });
    await openOperator('/operator/users/404');
    expect(await screen.findByText('User not found', {}, { timeout: 5000 })).toBeVisible();
    expect(screen.getByRole('link', { name: '← All users' })).toHaveAttribute(
      'href',
      '/operator/users',
    );
  });
});

describe('adjusting a balance', () => {
  it('checks the amount and the reason before anything is sent', async () => {
    const http = stubUser();
    const { user } = await openBob();
    await userHeading();
    const form = screen.getByRole('region', { name: 'Adjust balance' });
    const amount = within(form).getByRole('textbox', { name: 'Amount, $' });
    const reason = within(form).getByRole('textbox', { name: 'Reason' });
    const review = within(form).getByRole('button', { name: 'Review the adjustment' });

    await user.click(review);
    expect(await within(form).findByText(/Enter a non-zero amount/)).toBeVisible();
    expect(within(form).getByText('Enter the reason')).toBeVisible();
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(amount).toHaveFocus();

    await user.type(amount, '12.345');
    await user.type(reason, 'Goodwill');
    await user.click(review);
    expect(await within(form).findByText(/Enter a non-zero amount/)).toBeVisible();

    // $120.00 on the balance: taking $500 would make it negative
    await user.clear(amount);
    await user.type(amount, '-500');
    await user.click(review);
    expect(await within(form).findByText('The balance would become negative')).toBeVisible();

    expect(screen.queryByRole('dialog')).toBeNull();
    expect(http.callsTo('POST', '/admin/users/5/adjustments')).toHaveLength(0);
  });

  it('shows the resulting balance, and sends the adjustment only once confirmed', async () => {
    let adjusted = false;
    const http = stubUser({
      'GET /admin/users/5': () => ({
        body: { user: adjusted ? { ...bob, balance: 99.5 } : bob },
      }),
      'POST /admin/users/5/adjustments': () => {
        adjusted = true;
        return {
          status: 201,
          body: {
            user: { ...bob, balance: 99.5 },
            entry: ledgerEntry({ id: 9, kind: 'adjustment', amount: -20.5, balance_after: 99.5 }),
            message: 'The balance has been adjusted',
            code: 'BALANCE_ADJUSTED',
          },
        };
      },
    });
    const { user } = await openBob();
    await userHeading();
    const form = screen.getByRole('region', { name: 'Adjust balance' });
    await user.type(within(form).getByRole('textbox', { name: 'Amount, $' }), '-20,5');
    await user.type(
      within(form).getByRole('textbox', { name: 'Reason' }),
      'Refund of a duplicate top-up',
    );
    await user.click(within(form).getByRole('button', { name: 'Review the adjustment' }));

    const dialog = await screen.findByRole('dialog', { name: 'Confirm the adjustment' });
    expect(dialog).toHaveAccessibleDescription('Debit $20.50 from the Balance of bob@example.com?');
    expect(dialog).toHaveTextContent('Current balance$120.00');
    expect(dialog).toHaveTextContent('Change\u2212$20.50');
    expect(dialog).toHaveTextContent('Resulting balance$99.50');
    expect(http.callsTo('POST', '/admin/users/5/adjustments')).toHaveLength(0);

    // back to the form and again: nothing is sent until Adjust
    await user.click(within(dialog).getByRole('button', { name: 'Back to the form' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(within(form).getByRole('button', { name: 'Review the adjustment' }));
    const again = await screen.findByRole('dialog', { name: 'Confirm the adjustment' });
    await user.click(within(again).getByRole('button', { name: 'Adjust the balance' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const calls = http.callsTo('POST', '/admin/users/5/adjustments');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toEqual({
      account: 'balance',
      amount: '-20.50',
      reason: 'Refund of a duplicate top-up',
    });
    expect(calls[0]?.headers.get('Idempotency-Key')).toBeTruthy();
    expect(
      await screen.findByText(
        'The balance of bob@example.com has been adjusted',
        {},
        { timeout: 5000 },
      ),
    ).toBeVisible();
    expect(await screen.findByText('$99.50', { selector: 'dd' })).toBeVisible();
    expect(within(form).getByRole('textbox', { name: 'Amount, $' })).toHaveValue('');
    // the ledger is fetched again
    await waitFor(() => expect(queriesTo('/admin/users/5/ledger').length).toBeGreaterThan(1));
  });

  it('says an adjustment above the approval threshold waits for a second operator (202)', async () => {
    const http = stubUser({
      'POST /admin/users/5/adjustments': {
        status: 202,
        body: {
          approval: moneyApproval({ user: bob, requested_by: olga, amount: 600, reason: 'Bonus' }),
          message: 'Sent for approval: it takes effect when a second operator approves it',
          code: 'APPROVAL_REQUESTED',
        },
      },
    });
    const { user } = await openBob();
    await userHeading();
    const form = screen.getByRole('region', { name: 'Adjust balance' });
    await user.type(within(form).getByRole('textbox', { name: 'Amount, $' }), '600');
    await user.type(within(form).getByRole('textbox', { name: 'Reason' }), 'Bonus');
    await user.click(within(form).getByRole('button', { name: 'Review the adjustment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm the adjustment' });
    await user.click(within(dialog).getByRole('button', { name: 'Adjust the balance' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(http.callsTo('POST', '/admin/users/5/adjustments')).toHaveLength(1);
    expect(
      await screen.findByText(
        'The adjustment for bob@example.com is above the approval threshold: it takes effect when a second operator approves it in Approvals',
        {},
        { timeout: 5000 },
      ),
    ).toBeVisible();
    // nothing moved: the balance shown is the one before
    expect(screen.getByText('$120.00', { selector: 'dd' })).toBeVisible();
  });

  it('offers no adjustment of the operator’s own account', async () => {
    stubOperatorApi({
      'GET /admin/users/99': { body: { user: adminUserRecord({ id: 99, name: 'Olga' }) } },
      'GET /admin/users/99/ledger': { body: page([]) },
    });
    await openOperator('/operator/users/99');
    const section = await screen.findByRole(
      'region',
      { name: 'Adjust balance' },
      { timeout: 5000 },
    );
    expect(section).toHaveTextContent(
      'This is your own account: another operator adjusts its balances.',
    );
    expect(within(section).queryByRole('textbox')).toBeNull();
    expect(within(section).queryByRole('button')).toBeNull();
  });

  it('puts a refusal of the server on its field, and a new attempt gets a new key', async () => {
    const http = stubUser({
      'POST /admin/users/5/adjustments': {
        status: 422,
        body: {
          message: 'Insufficient funds',
          code: 'INSUFFICIENT_FUNDS',
          errors: { amount: ['INSUFFICIENT_FUNDS'] },
        },
      },
    });
    const { user } = await openBob();
    await userHeading();
    const form = screen.getByRole('region', { name: 'Adjust balance' });
    await user.selectOptions(
      within(form).getByRole('combobox', { name: 'Account' }),
      'Partner balance',
    );
    await user.type(within(form).getByRole('textbox', { name: 'Amount, $' }), '-15');
    await user.type(within(form).getByRole('textbox', { name: 'Reason' }), 'Reward reversal');
    await user.click(within(form).getByRole('button', { name: 'Review the adjustment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm the adjustment' });
    expect(dialog).toHaveTextContent('Resulting balance$0.50');
    await user.click(within(dialog).getByRole('button', { name: 'Adjust the balance' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const amount = within(form).getByRole('textbox', { name: 'Amount, $' });
    expect(await within(form).findByText('The balance would become negative')).toBeVisible();
    await waitFor(() => expect(amount).toHaveFocus());

    await user.click(within(form).getByRole('button', { name: 'Review the adjustment' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Adjust the balance' }),
    );
    await waitFor(() => expect(http.callsTo('POST', '/admin/users/5/adjustments')).toHaveLength(2));
    const [first, second] = http.callsTo('POST', '/admin/users/5/adjustments');
    expect(first?.body).toMatchObject({ account: 'balance_partner', amount: '-15.00' });
    expect(second?.headers.get('Idempotency-Key')).not.toBe(first?.headers.get('Idempotency-Key'));
  });
});
