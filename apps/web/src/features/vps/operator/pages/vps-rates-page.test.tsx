import { screen, waitFor, within } from '@testing-library/react';
import type { AdminRate } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import {
  adminRate,
  adminUser,
  openOperator,
  periods,
  stubOperatorApi,
} from '../../../operator/test-utils';

const ratesTable = () => screen.findByRole('table', { name: 'VPS rates' }, { timeout: 5000 });

const pro = adminRate({
  id: 2,
  name: 'Pro',
  cpu_cores: 4,
  ram_gb: 8,
  disk_gb: 120,
  location: 'Frankfurt (FR2)',
  monthly_price: 1234.5,
  template_id: 'win2022-pro',
  active: false,
  servers: 0,
});

/** A catalogue the stub keeps, so that a change shows in the refetched list. */
function catalogue(rates: AdminRate[]) {
  let list = [...rates];
  return {
    get: () => ({ body: { rates: list, periods } }),
    set: (next: AdminRate[]) => {
      list = next;
    },
  };
}

const invalid = (field: string) => ({
  status: 422,
  body: {
    message: 'The data is invalid',
    code: 'VALIDATION',
    errors: { [field]: ['The data is invalid'] },
  },
});

describe('VPS rates', () => {
  it('lists the rates with their figures, state and number of servers, and the discounts', async () => {
    stubOperatorApi({ 'GET /admin/vps/rates': { body: { rates: [adminRate(), pro], periods } } });
    await openOperator('/operator/vps/rates');
    const table = await ratesTable();
    const [header, ...rows] = within(table).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Name',
      'CPU',
      'RAM',
      'Disk',
      'Location',
      'Per month',
      'Template',
      'Status',
      'Servers',
      'Actions',
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Start');
    expect(rows[0]).toHaveTextContent('2 vCPU');
    expect(rows[0]).toHaveTextContent('4 GB');
    expect(rows[0]).toHaveTextContent('60 GB');
    expect(rows[0]).toHaveTextContent('London (LD4)');
    expect(rows[0]).toHaveTextContent('$12.50');
    expect(rows[0]).toHaveTextContent('win2022-std');
    expect(rows[0]).toHaveTextContent('Active');
    expect(
      within(rows[0]!).getByRole('button', { name: 'Deactivate the rate Start' }),
    ).toBeVisible();
    expect(rows[1]).toHaveTextContent('$1,234.50');
    expect(rows[1]).toHaveTextContent('Inactive');
    expect(within(rows[1]!).getByRole('button', { name: 'Activate the rate Pro' })).toBeVisible();

    const discounts = screen.getByRole('region', { name: 'Rental period discounts' });
    expect(within(discounts).getByRole('textbox', { name: '1 month' })).toHaveValue('0');
    expect(within(discounts).getByRole('textbox', { name: '3 months' })).toHaveValue('5');
    expect(within(discounts).getByRole('textbox', { name: '6 months' })).toHaveValue('10');
    expect(within(discounts).getByRole('textbox', { name: '12 months' })).toHaveValue('15');
  });

  it('adds a rate: checks the fields, shows the refusals of the server on them, then adds it', async () => {
    const server = catalogue([adminRate()]);
    let answer: 'invalid' | 'ok' = 'invalid';
    const http = stubOperatorApi({
      'GET /admin/vps/rates': server.get,
      'POST /admin/vps/rates': (call) => {
        if (answer === 'invalid') return invalid('template_id');
        const rate = adminRate({ ...(call.body as object), id: 3, monthly_price: 20, servers: 0 });
        server.set([adminRate(), rate]);
        return { status: 201, body: { rate } };
      },
    });
    const { user } = await openOperator('/operator/vps/rates');
    await ratesTable();
    const add = screen.getByRole('button', { name: 'Add a rate' });
    await user.click(add);
    const dialog = await screen.findByRole('dialog', { name: 'Add a rate' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveFocus();

    await user.click(within(dialog).getByRole('button', { name: 'Add the rate' }));
    expect(await within(dialog).findByText('Enter a name of up to 60 characters')).toBeVisible();
    expect(within(dialog).getByText('Enter a whole number from 1 to 128')).toBeVisible();
    expect(within(dialog).getByText('Enter a whole number from 1 to 1024')).toBeVisible();
    expect(within(dialog).getByText('Enter a whole number from 1 to 16384')).toBeVisible();
    expect(within(dialog).getByText('Enter the location, up to 60 characters')).toBeVisible();
    expect(
      within(dialog).getByText(
        'Enter a price above zero in dollars, at most two decimals, e.g. 12.50',
      ),
    ).toBeVisible();
    expect(within(dialog).getByText('1 to 40 letters, digits, “-” or “_”')).toBeVisible();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveFocus();

    await user.type(name, '  Turbo ');
    await user.type(within(dialog).getByRole('textbox', { name: 'CPU cores' }), '8');
    await user.type(within(dialog).getByRole('textbox', { name: 'RAM, GB' }), '16');
    await user.type(within(dialog).getByRole('textbox', { name: 'Disk, GB' }), '2.5');
    await user.type(within(dialog).getByRole('textbox', { name: 'Price per month, $' }), '0');
    await user.type(within(dialog).getByRole('textbox', { name: /^Location/ }), 'Amsterdam (AM5)');
    await user.type(within(dialog).getByRole('textbox', { name: /^Template/ }), 'win2022-turbo');
    await user.click(within(dialog).getByRole('button', { name: 'Add the rate' }));
    expect(await within(dialog).findByText('Enter a whole number from 1 to 16384')).toBeVisible();
    expect(
      within(dialog).getByText(
        'Enter a price above zero in dollars, at most two decimals, e.g. 12.50',
      ),
    ).toBeVisible();
    expect(within(dialog).queryByText('Enter a name of up to 60 characters')).toBeNull();
    expect(http.callsTo('POST', '/admin/vps/rates')).toHaveLength(0);

    const disk = within(dialog).getByRole('textbox', { name: 'Disk, GB' });
    await user.clear(disk);
    await user.type(disk, '250');
    const price = within(dialog).getByRole('textbox', { name: 'Price per month, $' });
    await user.clear(price);
    await user.type(price, '20,5');
    await user.click(within(dialog).getByRole('button', { name: 'Add the rate' }));

    // the server refuses the template: its error is on the field, which takes the focus
    const template = within(dialog).getByRole('textbox', { name: /^Template/ });
    await waitFor(() => expect(template).toHaveAttribute('aria-invalid', 'true'));
    expect(template).toHaveFocus();
    expect(within(dialog).getByText('1 to 40 letters, digits, “-” or “_”')).toBeVisible();
    expect(http.callsTo('POST', '/admin/vps/rates')).toHaveLength(1);

    answer = 'ok';
    await user.click(within(dialog).getByRole('button', { name: 'Add the rate' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(http.callsTo('POST', '/admin/vps/rates')[1]?.body).toEqual({
      name: 'Turbo',
      cpu_cores: 8,
      ram_gb: 16,
      disk_gb: 250,
      location: 'Amsterdam (AM5)',
      monthly_price: '20.50',
      template_id: 'win2022-turbo',
      active: true,
    });
    const table = await ratesTable();
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(table).toHaveTextContent('Turbo');
    expect(await screen.findByText('The rate “Turbo” has been added')).toBeInTheDocument();
    expect(add).toHaveFocus();
  });

  it('edits a rate and sends only what changed; a rate gone meanwhile is said so', async () => {
    let gone = false;
    const http = stubOperatorApi({
      'GET /admin/vps/rates': { body: { rates: [adminRate()], periods } },
      'PATCH /admin/vps/rates/1': () =>
        gone
          ? { status: 404, body: { message: 'This rate is not available', code: 'RATE_NOT_FOUND' } }
          : { body: { rate: adminRate({ monthly_price: 14, active: false }) } },
    });
    const { user } = await openOperator('/operator/vps/rates');
    const table = await ratesTable();
    await user.click(within(table).getByRole('button', { name: 'Edit the rate Start' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the rate “Start”' });
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Start');
    expect(within(dialog).getByRole('textbox', { name: 'Price per month, $' })).toHaveValue(
      '12.50',
    );
    const offered = within(dialog).getByRole('checkbox', { name: 'Offer for new orders' });
    expect(offered).toBeChecked();

    // nothing changed: nothing is sent
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(http.callsTo('PATCH', '/admin/vps/rates/1')).toHaveLength(0);

    await user.click(within(table).getByRole('button', { name: 'Edit the rate Start' }));
    const again = await screen.findByRole('dialog', { name: 'Edit the rate “Start”' });
    const price = within(again).getByRole('textbox', { name: 'Price per month, $' });
    await user.clear(price);
    await user.type(price, '14');
    await user.click(within(again).getByRole('checkbox', { name: 'Offer for new orders' }));
    gone = true;
    await user.click(within(again).getByRole('button', { name: 'Save' }));
    expect(await within(again).findByRole('alert')).toHaveTextContent(
      'This rate no longer exists. The list has been refreshed.',
    );
    await waitFor(() => expect(http.callsTo('GET', '/admin/vps/rates')).toHaveLength(2));

    gone = false;
    await user.click(within(again).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const calls = http.callsTo('PATCH', '/admin/vps/rates/1');
    expect(calls).toHaveLength(2);
    expect(calls[1]?.body).toEqual({ monthly_price: '14.00', active: false });
  });

  it('deactivates and activates a rate, and the list is fetched again', async () => {
    const server = catalogue([adminRate(), pro]);
    const http = stubOperatorApi({
      'GET /admin/vps/rates': server.get,
      'PATCH /admin/vps/rates/1': () => {
        server.set([adminRate({ active: false }), pro]);
        return { body: { rate: adminRate({ active: false }) } };
      },
      'PATCH /admin/vps/rates/2': {
        status: 500,
        body: { message: 'Internal server error', code: 'INTERNAL' },
      },
    });
    const { user } = await openOperator('/operator/vps/rates');
    const table = await ratesTable();
    await user.click(within(table).getByRole('button', { name: 'Deactivate the rate Start' }));
    expect(
      await within(table).findByRole('button', { name: 'Activate the rate Start' }),
    ).toBeVisible();
    expect(http.callsTo('PATCH', '/admin/vps/rates/1')[0]?.body).toEqual({ active: false });
    expect(http.callsTo('GET', '/admin/vps/rates')).toHaveLength(2);
    expect(
      await screen.findByText('The rate “Start” is no longer offered for new orders'),
    ).toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: 'Activate the rate Pro' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Internal server error');
    expect(http.callsTo('PATCH', '/admin/vps/rates/2')[0]?.body).toEqual({ active: true });
    expect(http.callsTo('GET', '/admin/vps/rates')).toHaveLength(2);
  });

  it('saves the four discounts together, after checking them', async () => {
    let refuse = true;
    const http = stubOperatorApi({
      'GET /admin/vps/rates': { body: { rates: [adminRate()], periods } },
      'PUT /admin/vps/discounts': (call) =>
        refuse
          ? {
              status: 422,
              body: {
                message: 'A discount is a whole percentage from 0 to 90',
                code: 'DISCOUNT_INVALID',
                errors: {
                  'periods.3.discount_percent': ['A discount is a whole percentage from 0 to 90'],
                },
              },
            }
          : { body: call.body },
    });
    const { user } = await openOperator('/operator/vps/rates');
    await ratesTable();
    const form = screen.getByRole('region', { name: 'Rental period discounts' });
    const six = within(form).getByRole('textbox', { name: '6 months' });
    const twelve = within(form).getByRole('textbox', { name: '12 months' });
    await user.clear(six);
    await user.type(six, '95');
    await user.clear(twelve);
    await user.type(twelve, '7.5');
    expect(within(form).getByText('Unsaved changes')).toBeVisible();
    await user.click(within(form).getByRole('button', { name: 'Save the discounts' }));
    await waitFor(() => expect(six).toHaveAttribute('aria-invalid', 'true'));
    expect(twelve).toHaveAttribute('aria-invalid', 'true');
    expect(within(form).getAllByText('Enter a whole number from 0 to 90')).toHaveLength(2);
    expect(http.callsTo('PUT', '/admin/vps/discounts')).toHaveLength(0);

    await user.clear(six);
    await user.type(six, '12');
    await user.clear(twelve);
    await user.type(twelve, '20');
    await user.click(within(form).getByRole('button', { name: 'Save the discounts' }));
    await waitFor(() => expect(twelve).toHaveAttribute('aria-invalid', 'true'));
    expect(six).not.toHaveAttribute('aria-invalid');
    expect(twelve).toHaveFocus();

    refuse = false;
    await user.click(within(form).getByRole('button', { name: 'Save the discounts' }));
    expect(await screen.findByText('The period discounts have been saved')).toBeInTheDocument();
    const calls = http.callsTo('PUT', '/admin/vps/discounts');
    expect(calls).toHaveLength(2);
    expect(calls[1]?.body).toEqual({
      periods: [
        { months: 1, discount_percent: 0 },
        { months: 3, discount_percent: 5 },
        { months: 6, discount_percent: 12 },
        { months: 12, discount_percent: 20 },
      ],
    });
  });

  it('shows an empty catalogue, and a failed load with a way to try again', async () => {
    let fail = true;
    stubOperatorApi({
      'GET /admin/vps/rates': () =>
        fail
          ? { status: 500, body: { message: 'Internal server error', code: 'INTERNAL' } }
          : { body: { rates: [], periods } },
    });
    const { user } = await openOperator('/operator/vps/rates');
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert).toHaveTextContent('The list could not be loaded');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('There are no rates yet. Add the first one.')).toBeVisible();
    expect(screen.getByRole('region', { name: 'Rental period discounts' })).toBeVisible();
  });

  it('speaks Russian, and shows cards on a phone', async () => {
    stubOperatorApi(
      { 'GET /admin/vps/rates': { body: { rates: [adminRate()], periods } } },
      { ...adminUser, language: 'ru' },
    );
    await openOperator('/operator/vps/rates', { language: 'ru', width: 375 });
    const list = await screen.findByRole('list', { name: 'Тарифы VPS' }, { timeout: 5000 });
    const [card] = within(list).getAllByRole('listitem');
    expect(card).toHaveTextContent('12,50 $');
    expect(card).toHaveTextContent('4 ГБ');
    expect(within(card!).getByRole('button', { name: 'Отключить тариф Start' })).toBeVisible();
    expect(screen.getByRole('textbox', { name: '12 месяцев' })).toHaveValue('15');
    expect(screen.getByRole('navigation', { name: 'Разделы оператора' })).toHaveTextContent(
      'Тарифы VPS',
    );
  });
});
