import { screen, waitFor, within } from '@testing-library/react';
import type { AdminPromocode } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import {
  adminPromocode,
  adminUser,
  carol,
  openOperator,
  page,
  queriesTo,
  stubOperatorApi,
} from '../../../operator/test-utils';

const codesTable = () => screen.findByRole('table', { name: 'Promocodes' }, { timeout: 5000 });

const partners = adminPromocode({
  id: 2,
  code: 'CAROL-FX',
  discount_percent: 15,
  times_used: 0,
  owner: carol,
  active: false,
});

describe('promocodes', () => {
  it('lists the codes with their discount, use, owner and state, page by page', async () => {
    stubOperatorApi({
      'GET /admin/vps/promocodes': () => {
        const current = Number(queriesTo('/admin/vps/promocodes').at(-1)?.page ?? 1);
        return {
          body: page(
            current === 1
              ? [adminPromocode(), partners]
              : [adminPromocode({ id: 9, code: 'LAST' })],
            {
              page: current,
              per_page: 50,
              total: 51,
            },
          ),
        };
      },
    });
    const { user } = await openOperator('/operator/vps/promocodes');
    const table = await codesTable();
    const [header, ...rows] = within(table).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Code', 'Discount', 'Times used', 'Owner', 'Created', 'Status', 'Actions']);
    expect(rows[0]).toHaveTextContent('WELCOME10');
    expect(rows[0]).toHaveTextContent('10%');
    expect(rows[0]).toHaveTextContent('4');
    expect(rows[0]).toHaveTextContent('Operator');
    expect(rows[0]).toHaveTextContent('Active');
    expect(within(rows[1]!).getByRole('link', { name: 'carol@example.com' })).toHaveAttribute(
      'href',
      '/operator/users/6',
    );
    expect(rows[1]).toHaveTextContent('Inactive');
    expect(queriesTo('/admin/vps/promocodes')[0]).toEqual({ page: '1', per_page: '50' });

    const pages = screen.getByRole('navigation', { name: 'Pages of the promocode list' });
    expect(pages).toHaveTextContent('1–50 of 51');
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(await within(table).findByText('LAST')).toBeVisible();
    expect(queriesTo('/admin/vps/promocodes').at(-1)).toEqual({ page: '2', per_page: '50' });
  });

  it('adds a code: checks it, shows a taken code on its field, then adds it', async () => {
    let list: AdminPromocode[] = [adminPromocode()];
    const http = stubOperatorApi({
      'GET /admin/vps/promocodes': () => ({ body: page(list, { per_page: 50 }) }),
      'POST /admin/vps/promocodes': (call) => {
        const body = call.body as { code: string; discount_percent: number };
        if (body.code === 'WELCOME10') {
          return {
            status: 409,
            body: { message: 'This promocode already exists', code: 'PROMOCODE_TAKEN' },
          };
        }
        const promocode = adminPromocode({ id: 3, times_used: 0, ...body });
        list = [promocode, ...list];
        return { status: 201, body: { promocode } };
      },
    });
    const { user } = await openOperator('/operator/vps/promocodes');
    const table = await codesTable();
    await user.click(screen.getByRole('button', { name: 'Add a promocode' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a promocode' });
    const code = within(dialog).getByRole('textbox', { name: 'Code' });
    const discount = within(dialog).getByRole('textbox', { name: 'Discount, %' });
    expect(code).toHaveFocus();

    await user.type(code, 'no spaces!');
    await user.type(discount, '95');
    await user.click(within(dialog).getByRole('button', { name: 'Add the promocode' }));
    await waitFor(() => expect(code).toHaveAttribute('aria-invalid', 'true'));
    expect(code).toHaveAccessibleDescription(/3 to 32 letters, digits, “-” or “_”/);
    expect(within(dialog).getByText('Enter a whole number from 1 to 90')).toBeVisible();
    expect(http.callsTo('POST', '/admin/vps/promocodes')).toHaveLength(0);

    await user.clear(code);
    await user.type(code, 'WELCOME10');
    await user.clear(discount);
    await user.type(discount, '20');
    await user.click(within(dialog).getByRole('button', { name: 'Add the promocode' }));
    expect(
      await within(dialog).findByText('This promocode already exists. Choose another code.'),
    ).toBeVisible();
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(code).toHaveFocus();

    await user.clear(code);
    await user.type(code, ' SPRING-25 ');
    await user.click(within(dialog).getByRole('button', { name: 'Add the promocode' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(http.callsTo('POST', '/admin/vps/promocodes').map((call) => call.body)).toEqual([
      { code: 'WELCOME10', discount_percent: 20 },
      { code: 'SPRING-25', discount_percent: 20 },
    ]);
    expect(await within(table).findByText('SPRING-25')).toBeVisible();
    expect(
      await screen.findByText('The promocode SPRING-25 (20%) has been added'),
    ).toBeInTheDocument();
  });

  it('switches a code off and on again', async () => {
    let active = true;
    const http = stubOperatorApi({
      'GET /admin/vps/promocodes': () => ({ body: page([adminPromocode({ active })]) }),
      'PATCH /admin/vps/promocodes/1': (call) => {
        active = (call.body as { active: boolean }).active;
        return { body: { promocode: adminPromocode({ active }) } };
      },
    });
    const { user } = await openOperator('/operator/vps/promocodes');
    const table = await codesTable();
    await user.click(
      within(table).getByRole('button', { name: 'Deactivate the promocode WELCOME10' }),
    );
    await user.click(
      await within(table).findByRole('button', { name: 'Activate the promocode WELCOME10' }),
    );
    expect(
      await within(table).findByRole('button', { name: 'Deactivate the promocode WELCOME10' }),
    ).toBeVisible();
    expect(http.callsTo('PATCH', '/admin/vps/promocodes/1').map((call) => call.body)).toEqual([
      { active: false },
      { active: true },
    ]);
  });

  it('heads its columns in Russian, the uses as a count ("Использований")', async () => {
    stubOperatorApi(
      { 'GET /admin/vps/promocodes': { body: page([adminPromocode()]) } },
      { ...adminUser, language: 'ru' },
    );
    await openOperator('/operator/vps/promocodes', { language: 'ru' });
    const table = await screen.findByRole('table', { name: 'Промокоды' }, { timeout: 5000 });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Код', 'Скидка', 'Использований', 'Владелец', 'Создан', 'Состояние', 'Действия']);
  });

  it('says when there are none, in Russian too', async () => {
    stubOperatorApi(
      { 'GET /admin/vps/promocodes': { body: page([]) } },
      { ...adminUser, language: 'ru' },
    );
    await openOperator('/operator/vps/promocodes', { language: 'ru' });
    expect(await screen.findByText('Промокодов пока нет.', {}, { timeout: 5000 })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Добавить промокод' })).toBeVisible();
  });
});
