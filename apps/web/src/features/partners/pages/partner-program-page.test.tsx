import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { searchOf } from '../../../test/render';
import {
  DISCOUNT,
  networkPage,
  node,
  promocode,
  renderPartners,
  stubPartnerApi,
  withdrawal,
} from '../test-utils';

describe('the partner page: statistics', () => {
  it('shows the link and code to copy, the QR code, the figures, the rewards and the levels', async () => {
    stubPartnerApi();
    renderPartners();
    expect(await screen.findByTestId('partner-link')).toHaveTextContent(
      'http://localhost/signup?ref=MAXREF42',
    );
    expect(screen.getByTestId('partner-code')).toHaveTextContent('MAXREF42');
    expect(screen.getByRole('button', { name: 'Copy the link' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy the code' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'QR code of your partner link' })).toHaveAttribute(
      'src',
      'data:image/svg+xml;base64,PHN2Zy8+',
    );
    expect(
      screen.getByText(/You earn 10% of what they pay, 5% .* and 2% on the third level/),
    ).toBeInTheDocument();

    const tile = (name: string) => screen.getByText(name, { selector: 'dt' }).nextElementSibling;
    await waitFor(() => expect(tile('Clicks')).toHaveTextContent('40'));
    expect(tile('Registrations')).toHaveTextContent('5');
    expect(tile('Paying clients')).toHaveTextContent('2');
    expect(tile('Conversion')).toHaveTextContent('12.5%');
    expect(tile("Referrals' turnover")).toHaveTextContent('$125.00');
    expect(tile('Rewards pending')).toHaveTextContent('$12.50');

    expect(
      screen.getByRole('img', {
        name: /Rewards chart: \$12\.50 over \d+ days; the best was Nov 22 with \$8\.00/,
      }),
    ).toBeInTheDocument();

    const rows = within(screen.getByRole('table', { name: 'Levels' })).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'LevelPercentClientsActive nowTurnoverReward',
      'Level 110%43$125.00$12.50',
      'Level 25%11$0.00$0.00',
      'Level 32%00$0.00$0.00',
    ]);
  });

  it('asks for the chosen period', async () => {
    const api = stubPartnerApi();
    const { user } = renderPartners();
    await screen.findByTestId('partner-link');
    await user.click(screen.getByRole('radio', { name: 'Week' }));
    await waitFor(() => {
      const last = api.callsTo('POST', '/user/partner/infodata').at(-1);
      expect(last?.body).toEqual({ from: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    });
    expect(api.callsTo('POST', '/user/partner/infodata')[0]?.body).toEqual({});
  });

  it('offers to try again when the figures cannot be loaded', async () => {
    let fail = true;
    stubPartnerApi({
      'GET /user/partner_info': () =>
        fail ? { status: 500, body: { message: 'Boom' } } : { body: undefined },
    });
    const { user } = renderPartners();
    expect(await screen.findByText('The partner figures could not be loaded')).toBeInTheDocument();
    fail = false;
    stubPartnerApi();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('partner-code')).toHaveTextContent('MAXREF42');
  });
});

describe('the partner page: network', () => {
  it('lists the referrals, opens one onto their own, and searches all three levels', async () => {
    const api = stubPartnerApi({
      'GET /user/partner_network/': { body: networkPage([node()]) },
    });
    const { user, router } = renderPartners();
    await screen.findByTestId('partner-link');
    await user.click(screen.getByRole('tab', { name: 'Network' }));
    expect(searchOf(router).get('tab')).toBe('network');
    expect(await screen.findByText('o***@example.com')).toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(screen.getByText(/Level 1 · joined/)).toBeInTheDocument();

    const open = screen.getByRole('button', { name: 'Show 2 referrals' });
    expect(open).toHaveAttribute('aria-expanded', 'false');
    await user.click(open);
    expect(screen.getByRole('button', { name: 'Hide 2 referrals' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    // their referrals under them, a list of its own (the stub answers the same person again)
    await waitFor(() => expect(screen.getAllByText('o***@example.com')).toHaveLength(2));
    expect(api.callsTo('GET', '/user/partner_network/')).toHaveLength(2);

    await user.type(screen.getByRole('searchbox', { name: 'Search by e-mail or name' }), 'anna');
    await user.click(screen.getByRole('button', { name: 'Find' }));
    // the matches: a flat list, each with its referrals counted, none to open
    expect(await screen.findByText('2 referrals')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Show 2 referrals/ })).toBeNull();
  });

  it('sends parent_id for a branch and search for a search (the query string)', async () => {
    const urls: string[] = [];
    const original = globalThis.fetch;
    stubPartnerApi();
    const stubbed = globalThis.fetch;
    globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      urls.push(request.url);
      return stubbed(request);
    }) as typeof fetch;
    try {
      const { user } = renderPartners('/partner-program?tab=network');
      await user.click(await screen.findByRole('button', { name: 'Show 2 referrals' }));
      await waitFor(() => expect(urls.some((u) => u.includes('parent_id=7'))).toBe(true));
      await user.type(screen.getByRole('searchbox'), 'o@ex');
      await user.click(screen.getByRole('button', { name: 'Find' }));
      await waitFor(() => expect(urls.some((u) => u.includes('search=o%40ex'))).toBe(true));
    } finally {
      globalThis.fetch = original;
    }
  });

  it('counts the referrals to open in the Russian plural forms (1 and 2 реферала, 5 рефералов)', async () => {
    stubPartnerApi({
      'GET /user/partner_network/': {
        body: networkPage([
          node({ id: 7, referrals: 1 }),
          node({ id: 8, referrals: 2 }),
          node({ id: 9, referrals: 5 }),
          node({ id: 10, referrals: 21 }),
          node({ id: 11, referrals: 24 }),
        ]),
      },
    });
    const { user } = renderPartners('/partner-program?tab=network', { language: 'ru' });
    const shown = [
      'Показать 1 реферала',
      'Показать 2 реферала',
      'Показать 5 рефералов',
      'Показать 21 реферала',
      'Показать 24 реферала',
    ];
    for (const name of shown) expect(await screen.findByRole('button', { name })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Показать 2 реферала' }));
    expect(screen.getByRole('button', { name: 'Скрыть 2 реферала' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  });

  it('says how to grow a network when there is none', async () => {
    stubPartnerApi({ 'GET /user/partner_network/': { body: networkPage([]) } });
    renderPartners('/partner-program?tab=network');
    expect(await screen.findByRole('heading', { name: 'No referrals yet' })).toBeInTheDocument();
  });
});

describe('the partner page: promocodes', () => {
  it('explains the tiers, creates a promocode with an available discount and lists it', async () => {
    let list = [promocode()];
    const api = stubPartnerApi({
      'GET /user/balance/promocodes': () => ({ body: { data: list } }),
      'POST /user/balance/promocode': (call) => {
        const created = promocode({ id: 4, name: 'SPRING', times_used: 0 });
        list = [created, ...list];
        expect(call.body).toEqual({ name: 'SPRING', discount: 5 });
        return { status: 201, body: { promocode: created, message: 'Created' } };
      },
    });
    const { user } = renderPartners('/partner-program?tab=promocodes');
    expect(
      await screen.findByText(
        /You have 3 active referrals, so your promocodes can give up to 5% off a 1-month rental\. 2 more active referrals open 10%\./,
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: '5%' })).toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Create the promocode' }));
    expect(
      await screen.findByText('A promocode name is 3 to 32 letters and digits'),
    ).toBeInTheDocument();
    expect(api.callsTo('POST', '/user/balance/promocode')).toHaveLength(0);

    await user.type(screen.getByLabelText('Name'), 'SPRING');
    await user.click(screen.getByRole('button', { name: 'Create the promocode' }));
    const row = await screen.findByRole('row', { name: /SPRING/ });
    expect(row).toHaveTextContent('5%');
    expect(row).toHaveTextContent('0');
    expect(screen.getByLabelText('Name')).toHaveValue('');
  });

  it('shows a taken name on the name field', async () => {
    stubPartnerApi({
      'POST /user/balance/promocode': {
        status: 422,
        body: {
          message: 'This promocode already exists',
          code: 'PROMOCODE_TAKEN',
          errors: { name: ['This promocode already exists'] },
        },
      },
    });
    const { user } = renderPartners('/partner-program?tab=promocodes');
    await user.type(await screen.findByLabelText('Name'), 'MAXIM5');
    await user.click(screen.getByRole('button', { name: 'Create the promocode' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true'),
    );
    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription(
      /This promocode already exists/,
    );
  });

  it('draws Delete as a button of the console, not a link', async () => {
    stubPartnerApi();
    renderPartners('/partner-program?tab=promocodes');
    const remove = await screen.findByRole('button', { name: 'Delete the promocode MAXIM5' });
    expect(remove.className).toMatch(/secondary/);
    expect(remove.className).not.toMatch(/ghost/);
  });

  it('deletes a promocode only after the confirmation', async () => {
    let list = [promocode()];
    const api = stubPartnerApi({
      'GET /user/balance/promocodes': () => ({ body: { data: list } }),
      'DELETE /user/balance/promocode/3': () => {
        list = [];
        return { body: { message: 'Deleted' } };
      },
    });
    const { user } = renderPartners('/partner-program?tab=promocodes');
    await user.click(await screen.findByRole('button', { name: 'Delete the promocode MAXIM5' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete MAXIM5?' });
    expect(dialog).toHaveTextContent('(2 uses)');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('DELETE', '/user/balance/promocode/3')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete the promocode MAXIM5' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: /^Delete$/ }));
    expect(await screen.findByRole('heading', { name: 'No promocodes yet' })).toBeInTheDocument();
    expect(api.callsTo('DELETE', '/user/balance/promocode/3')).toHaveLength(1);
  });

  it('heads the promocodes’ columns in Russian, the uses as a count ("Использований")', async () => {
    stubPartnerApi({ 'GET /user/balance/promocodes': { body: { data: [promocode()] } } });
    renderPartners('/partner-program?tab=promocodes', { language: 'ru' });
    const table = await screen.findByRole('table', { name: 'Ваши промокоды' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Название', 'Скидка', 'Использований', 'Создан', 'Действия']);
  });

  it('says when the highest tier is reached', async () => {
    stubPartnerApi({
      'GET /user/balance/available_discount': {
        body: {
          ...DISCOUNT,
          available_discounts: [5, 10, 15],
          active_referrals: 20,
          next_tier: null,
        },
      },
    });
    renderPartners('/partner-program?tab=promocodes');
    expect(await screen.findByText(/You have reached the highest discount\./)).toBeInTheDocument();
    expect(screen.getAllByRole('radio')).toHaveLength(3);
  });
});

describe('the partner page: withdrawal', () => {
  it('checks the wallet and the amount against the method, confirms, and then shows the request', async () => {
    let open: ReturnType<typeof withdrawal> | null = null;
    const api = stubPartnerApi({
      'GET /user/partner/payments': () => ({
        body: {
          data: [
            {
              id: 'USDT-TRC20',
              name: 'USDT (TRC-20)',
              minimum: 20,
              wallet_example: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
            },
            { id: 'PAYEER', name: 'Payeer', minimum: 10, wallet_example: 'P1000000' },
          ],
          available: open ? 34.2 : 64.2,
          open,
        },
      }),
      'POST /user/partner/createwithdrawal': (call) => {
        expect(call.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
        expect(call.body).toEqual({ method: 'PAYEER', wallet: 'P1234567', amount: '30.00' });
        open = withdrawal({ method: 'PAYEER', wallet: 'P1234567' });
        return { status: 201, body: { withdrawal: open, available: 34.2, message: 'Received' } };
      },
    });
    const { user } = renderPartners('/partner-program?tab=withdrawal');
    expect(await screen.findByTestId('partner-available')).toHaveTextContent('$64.20');
    await user.click(screen.getByRole('radio', { name: /Payeer/ }));
    await user.type(screen.getByLabelText('Wallet'), 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE');
    await user.type(screen.getByLabelText('Amount (USD)'), '5');
    await user.click(screen.getByRole('button', { name: 'Request the withdrawal' }));
    expect(await screen.findByText('The wallet address is invalid')).toBeInTheDocument();
    expect(screen.getByText('The minimum for this method is $10.00')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Amount (USD)'));
    await user.type(screen.getByLabelText('Amount (USD)'), '70');
    await user.click(screen.getByRole('button', { name: 'Request the withdrawal' }));
    expect(await screen.findByText('The maximum for this method is $64.20')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Wallet'));
    await user.type(screen.getByLabelText('Wallet'), 'P1234567');
    await user.clear(screen.getByLabelText('Amount (USD)'));
    await user.type(screen.getByLabelText('Amount (USD)'), '30');
    await user.click(screen.getByRole('button', { name: 'Request the withdrawal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm the withdrawal' });
    expect(dialog).toHaveTextContent(
      '$30.00 will be reserved from your partner balance and sent by Payeer to P1234567',
    );
    expect(api.callsTo('POST', '/user/partner/createwithdrawal')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Withdraw $30.00' }));

    expect(await screen.findByRole('heading', { name: 'Request received' })).toHaveFocus();
    expect(screen.getByText('Received')).toBeInTheDocument();
    expect(screen.getByTestId('withdrawal-due')).toHaveTextContent('Nov 30, 2026');
    expect(screen.getByTestId('partner-available')).toHaveTextContent('$34.20');
    expect(screen.queryByRole('button', { name: 'Request the withdrawal' })).toBeNull();
    expect(api.callsTo('POST', '/user/partner/createwithdrawal')).toHaveLength(1);
  });

  it('shows the open request instead of the form', async () => {
    stubPartnerApi({
      'GET /user/partner/payments': {
        body: { data: [], available: 10, open: withdrawal({ status: 'under_review' }) },
      },
    });
    renderPartners('/partner-program?tab=withdrawal');
    expect(
      await screen.findByRole('heading', { name: 'Your request is being processed' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Under review')).toBeInTheDocument();
    expect(screen.queryByLabelText('Wallet')).toBeNull();
  });

  it('puts a refusal of the server on the form', async () => {
    stubPartnerApi({
      'POST /user/partner/createwithdrawal': {
        status: 422,
        body: {
          message: 'Insufficient funds in the partner balance',
          code: 'INSUFFICIENT_FUNDS_WITHDRAWAL',
          errors: { amount: ['Insufficient funds in the partner balance'] },
        },
      },
    });
    const { user } = renderPartners('/partner-program?tab=withdrawal');
    await user.type(await screen.findByLabelText('Wallet'), 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE');
    await user.type(screen.getByLabelText('Amount (USD)'), '25');
    await user.click(screen.getByRole('button', { name: 'Request the withdrawal' }));
    await user.click(await screen.findByRole('button', { name: 'Withdraw $25.00' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByLabelText('Amount (USD)')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Amount (USD)')).toHaveFocus();
    expect(screen.getByLabelText('Amount (USD)')).toHaveAccessibleDescription(
      /Insufficient funds in the partner balance/,
    );
  });

  it('says when the balance is below the chosen method’s minimum', async () => {
    stubPartnerApi({
      'GET /user/partner/payments': {
        body: {
          data: [{ id: 'BTC', name: 'Bitcoin', minimum: 50, wallet_example: 'bc1q' }],
          available: 12,
          open: null,
        },
      },
    });
    renderPartners('/partner-program?tab=withdrawal');
    expect(
      await screen.findByText(
        'The minimum for this method is $50.00; your partner balance is $12.00.',
      ),
    ).toBeInTheDocument();
  });
});
