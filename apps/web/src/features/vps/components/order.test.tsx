import { screen, waitFor, within } from '@testing-library/react';
import type { OrderRequest, PaidResponse } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import {
  operation,
  page,
  plain,
  renderVps,
  searchOf,
  server,
  stubVpsApi,
  user,
  type Handler,
} from '../test-utils';

const total = () => plain(screen.getByTestId('order-total').textContent);
const summary = () => screen.getByRole('region', { name: 'Your order' });
const form = () => screen.getByRole('region', { name: 'Rent a server' });
const sourceOf = () => within(form()).getByRole('combobox', { name: 'How did you hear about us?' });

async function openRates(language: 'en' | 'ru' = 'en') {
  const view = renderVps('/vps?tab=rates', { language });
  await screen.findByRole('group', {
    name: language === 'en' ? 'Choose a rate' : 'Выберите тариф',
  });
  return view;
}

function paid(overrides: Partial<PaidResponse> = {}): PaidResponse {
  return {
    server: server({
      id: 31,
      status: 'provisioning',
      power: 'unknown',
      has_credentials: false,
      operation: operation({ id: 900, kind: 'create' }),
    }),
    charged: 114,
    balance: 36.5,
    message: 'The server is being created',
    ...overrides,
  };
}

const FUNDS_SHORT: Handler = {
  status: 422,
  body: { message: 'Insufficient funds for payment', code: 'INSUFFICIENT_FUNDS_PAYMENT' },
};

describe('the rates', () => {
  it('show each rate with its size, location and monthly price, and price every period', async () => {
    stubVpsApi();
    const { user: events } = await openRates();

    const trader = screen.getByRole('radio', { name: 'Trader' });
    expect(trader).toHaveAccessibleDescription(
      '4\u00a0vCPU · 8\u00a0GB\u00a0RAM · 120\u00a0GB\u00a0SSD London (LD4) $40.00 / month',
    );
    // the first rate is chosen to start with
    expect(screen.getByRole('radio', { name: 'Start' })).toBeChecked();
    expect(total()).toBe('$20.00');

    await events.click(trader);
    expect(screen.getByRole('radio', { name: '1 month' })).toHaveAccessibleDescription(
      'No discount $40.00',
    );
    expect(screen.getByRole('radio', { name: '3 months' })).toHaveAccessibleDescription(
      '−5% $114.00',
    );
    expect(screen.getByRole('radio', { name: '6 months' })).toHaveAccessibleDescription(
      '−10% $216.00',
    );
    expect(screen.getByRole('radio', { name: '12 months' })).toHaveAccessibleDescription(
      '−15% $408.00',
    );
    expect(total()).toBe('$40.00');

    await events.click(screen.getByRole('radio', { name: '12 months' }));
    const lines = within(summary());
    expect(plain(lines.getByText('Price for 12 months').nextSibling?.textContent)).toBe('$480.00');
    expect(plain(lines.getByText('Discount for 12 months (15%)').nextSibling?.textContent)).toBe(
      '−$72.00',
    );
    expect(total()).toBe('$408.00');
    expect(lines.getByRole('button', { name: 'Pay $408.00' })).toBeInTheDocument();
    expect(lines.getByTestId('vps-balance')).toHaveTextContent('$150.50');
  });

  it('apply a promocode to a 1-month rental only, and say so', async () => {
    const api = stubVpsApi({
      'GET /user/vps/promocode': { body: { code: 'SPRING10', discount_percent: 10 } },
    });
    const { user: events } = await openRates();
    await events.click(screen.getByRole('radio', { name: 'Trader' }));
    expect(
      screen.getByText('A promocode gives a discount on a 1-month rental only.'),
    ).toBeVisible();

    await events.type(screen.getByLabelText(/Promocode/), 'spring10');
    await events.click(screen.getByRole('button', { name: 'Apply' }));

    expect(
      await screen.findByText('Promocode SPRING10: −10% on a 1-month rental'),
    ).toBeInTheDocument();
    expect(api.queries('GET', '/user/vps/promocode')).toEqual([{ code: 'spring10' }]);
    expect(
      plain(within(summary()).getByText('Promocode SPRING10 (10%)').nextSibling?.textContent),
    ).toBe('−$4.00');
    expect(total()).toBe('$36.00');
    expect(screen.getByRole('radio', { name: '1 month' })).toHaveAccessibleDescription(
      'No discount $36.00',
    );

    await events.click(screen.getByRole('radio', { name: '3 months' }));
    expect(
      screen.getByText(
        'The promocode works for a 1-month rental only, so it does not apply to 3 months.',
      ),
    ).toBeInTheDocument();
    expect(total()).toBe('$114.00');
    expect(within(summary()).queryByText(/Promocode SPRING10/)).toBeNull();

    await events.click(screen.getByRole('button', { name: 'Remove' }));
    expect(screen.getByLabelText(/Promocode/)).toHaveValue('');
  });

  it('refuse an unknown promocode on its field, and an empty one without asking', async () => {
    const api = stubVpsApi({
      'GET /user/vps/promocode': {
        status: 422,
        body: {
          message: 'Promocode not found',
          code: 'PROMOCODE_NOT_FOUND',
          errors: { code: ['Promocode not found'] },
        },
      },
    });
    const { user: events } = await openRates();
    await events.click(screen.getByRole('button', { name: 'Apply' }));
    const field = screen.getByLabelText(/Promocode/);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(
      'Enter a promocode A promocode gives a discount on a 1-month rental only.',
    );
    expect(api.callsTo('GET', '/user/vps/promocode')).toHaveLength(0);

    await events.type(field, 'NOPE1{Enter}');
    await waitFor(() =>
      expect(field).toHaveAccessibleDescription(
        'Promocode not found A promocode gives a discount on a 1-month rental only.',
      ),
    );
    expect(total()).toBe('$20.00');

    // a code that cannot be one is refused here
    await events.clear(field);
    await events.type(field, 'a b');
    await events.click(screen.getByRole('button', { name: 'Apply' }));
    expect(field).toHaveAccessibleDescription(/^Promocode not found/);
    expect(api.callsTo('GET', '/user/vps/promocode')).toHaveLength(1);
  });
});

describe('ordering', () => {
  it('asks for the source, confirms the rate, period and total, pays once and shows the new server', async () => {
    let balance = 150.5;
    let servers = [] as ReturnType<typeof server>[];
    const api = stubVpsApi({
      'GET /user/auth': () => ({ body: user({ balance }) }),
      'GET /user/vps/servers': () => ({ body: page(servers) }),
      'GET /user/vps/servers/31': () => ({ body: { server: paid().server } }),
      'POST /user/vps/order': () => {
        balance = 36.5;
        servers = [paid().server];
        return { status: 201, body: paid() };
      },
    });
    const { user: events, router } = await openRates();
    await events.click(screen.getByRole('radio', { name: 'Trader' }));
    await events.click(screen.getByRole('radio', { name: '3 months' }));

    // no answer to the source question: nothing is asked to pay
    await events.click(screen.getByRole('button', { name: 'Pay $114.00' }));
    const source = sourceOf();
    expect(source).toHaveFocus();
    expect(source).toHaveAccessibleDescription('Tell us how you heard about us');
    expect(screen.queryByRole('dialog')).toBeNull();

    await events.selectOptions(source, 'A friend or colleague');
    await events.click(screen.getByRole('button', { name: 'Pay $114.00' }));

    const dialog = await screen.findByRole('dialog', { name: 'Confirm the payment' });
    expect(dialog).toHaveAccessibleDescription(
      'Pay $114.00 from your balance for the Trader rate for 3 months?',
    );
    expect(api.callsTo('POST', '/user/vps/order')).toHaveLength(0);
    const userCalls = api.callsTo('GET', '/user/auth').length;

    await events.click(within(dialog).getByRole('button', { name: 'Pay $114.00' }));

    await waitFor(() => expect(searchOf(router).get('tab')).toBe('servers'));
    const orders = api.callsTo('POST', '/user/vps/order');
    expect(orders.map((call) => call.body)).toEqual([
      { rate_id: 2, months: 3, source: 'friend' } satisfies OrderRequest,
    ]);
    expect(orders[0]?.headers.get('Idempotency-Key')).toBeTruthy();
    expect(
      await screen.findByText(
        'Payment received: $114.00. Server #31 is being created; this takes a few minutes, and this list updates by itself. Your balance is now $36.50.',
      ),
    ).toBeInTheDocument();
    const row = await screen.findByRole('row', { name: /#31/ });
    expect(within(row).getByText('Being created')).toBeInTheDocument();
    expect(within(row).getByText('Setting up Windows, a few minutes…')).toBeInTheDocument();
    // the header's balance comes from GET /user/auth: asked again
    await waitFor(() => expect(api.callsTo('GET', '/user/auth').length).toBeGreaterThan(userCalls));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('sends the answer "Other" with the reader’s words, and refuses too long a one', async () => {
    const api = stubVpsApi({ 'POST /user/vps/order': { status: 201, body: paid() } });
    const { user: events } = await openRates();
    await events.selectOptions(sourceOf(), 'Other');
    const other = screen.getByLabelText('Where did you hear about us?');
    await events.click(other);
    await events.paste('x'.repeat(201));
    await events.click(screen.getByRole('button', { name: 'Pay $20.00' }));
    expect(other).toHaveAccessibleDescription('The answer is too long Up to 200 characters');
    expect(screen.queryByRole('dialog')).toBeNull();

    await events.clear(other);
    await events.type(other, '  A webinar  ');
    await events.click(screen.getByRole('button', { name: 'Pay $20.00' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm the payment' });
    await events.click(within(dialog).getByRole('button', { name: 'Pay $20.00' }));
    await waitFor(() => expect(api.callsTo('POST', '/user/vps/order')).toHaveLength(1));
    expect(api.callsTo('POST', '/user/vps/order')[0]?.body).toEqual({
      rate_id: 1,
      months: 1,
      source: 'other',
      source_other: 'A webinar',
    });
  });

  it('sends the promocode with a 1-month order only', async () => {
    const api = stubVpsApi({
      'GET /user/vps/promocode': { body: { code: 'SPRING10', discount_percent: 10 } },
      'POST /user/vps/order': { status: 201, body: paid() },
    });
    const { user: events } = await openRates();
    await events.type(screen.getByLabelText(/Promocode/), 'SPRING10{Enter}');
    await screen.findByText('Promocode SPRING10: −10% on a 1-month rental');
    await events.selectOptions(sourceOf(), 'YouTube');
    await events.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    const dialog = await screen.findByRole('dialog');
    await events.click(within(dialog).getByRole('button', { name: 'Pay $18.00' }));
    await waitFor(() => expect(api.callsTo('POST', '/user/vps/order')).toHaveLength(1));
    expect(api.callsTo('POST', '/user/vps/order')[0]?.body).toEqual({
      rate_id: 1,
      months: 1,
      promocode: 'SPRING10',
      source: 'youtube',
    });
  });

  it('says when the balance is short, with the top-up, and shows "Insufficient funds for payment"', async () => {
    const api = stubVpsApi({
      'GET /user/auth': { body: user({ balance: 10 }) },
      'POST /user/vps/order': FUNDS_SHORT,
    });
    const { user: events, router } = await openRates();
    await screen.findByText('$10.00 more is needed on your balance.', { exact: false });
    expect(within(summary()).getByRole('link', { name: 'Top up the balance' })).toHaveAttribute(
      'href',
      '/balance-operations?tab=topup',
    );

    await events.selectOptions(sourceOf(), 'Telegram');
    await events.click(screen.getByRole('button', { name: 'Pay $20.00' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm the payment' });
    await events.click(within(dialog).getByRole('button', { name: 'Pay $20.00' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Insufficient funds for payment Top up the balance');
    expect(alert).toHaveFocus();
    // the dialog stays, and nothing else happened
    expect(searchOf(router).get('tab')).toBe('rates');
    expect(api.callsTo('POST', '/user/vps/order')).toHaveLength(1);

    await events.click(within(alert).getByRole('link', { name: 'Top up the balance' }));
    expect(router.state.location.pathname).toBe('/balance-operations');
    expect(router.state.location.search).toBe('?tab=topup');
  });

  it('retries a lost answer with the same Idempotency-Key, and a refused one with a new key', async () => {
    let attempt = 0;
    const api = stubVpsApi({
      'POST /user/vps/order': () => {
        attempt += 1;
        if (attempt === 1) return 'network-error';
        if (attempt === 2) return FUNDS_SHORT;
        return { status: 201, body: paid() };
      },
    });
    const { user: events, router } = await openRates();
    await events.selectOptions(sourceOf(), 'Search engine');
    await events.click(screen.getByRole('button', { name: 'Pay $20.00' }));
    const dialog = await screen.findByRole('dialog');
    const pay = within(dialog).getByRole('button', { name: 'Pay $20.00' });

    await events.click(pay);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'No connection to the server',
    );
    await events.click(pay);
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent('Insufficient funds for payment'),
    );
    await events.click(pay);
    await waitFor(() => expect(searchOf(router).get('tab')).toBe('servers'));

    const keys = api
      .callsTo('POST', '/user/vps/order')
      .map((c) => c.headers.get('Idempotency-Key'));
    expect(keys).toHaveLength(3);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[1]);
  });

  it('takes a refusal of the promocode back to its field', async () => {
    stubVpsApi({
      'GET /user/vps/promocode': { body: { code: 'SPRING10', discount_percent: 10 } },
      'POST /user/vps/order': {
        status: 422,
        body: {
          message: 'Promocode not found',
          code: 'PROMOCODE_NOT_FOUND',
          errors: { promocode: ['Promocode not found'] },
        },
      },
    });
    const { user: events } = await openRates();
    await events.type(screen.getByLabelText(/Promocode/), 'SPRING10{Enter}');
    await screen.findByText('Promocode SPRING10: −10% on a 1-month rental');
    await events.selectOptions(sourceOf(), 'Other');
    await events.click(screen.getByRole('button', { name: 'Pay $18.00' }));
    await events.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Pay $18.00' }),
    );

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const field = screen.getByLabelText(/Promocode/);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(/^Promocode not found/);
    expect(total()).toBe('$20.00');
  });

  it('says it in Russian', async () => {
    stubVpsApi({
      'GET /user/auth': { body: user({ balance: 10, language: 'ru' }) },
      'POST /user/vps/order': FUNDS_SHORT,
    });
    const { user: events } = await openRates('ru');
    await events.selectOptions(
      within(screen.getByRole('region', { name: 'Аренда сервера' })).getByRole('combobox', {
        name: 'Откуда вы о нас узнали?',
      }),
      'Telegram',
    );
    const pay = screen.getByRole('button', { name: /Оплатить 20,00/ });
    await events.click(pay);
    const dialog = await screen.findByRole('dialog', { name: 'Подтвердите оплату' });
    expect(plain(dialog.textContent)).toContain(
      'Оплатить с баланса 20,00 $ за тариф Start на срок 1 месяц?',
    );
    await events.click(within(dialog).getByRole('button', { name: /Оплатить 20,00/ }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Недостаточно средств для оплаты',
    );
  });
});
