import { screen, waitFor, within } from '@testing-library/react';
import type { AdminDepartment, DepartmentRequest } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import {
  adminDepartment,
  adminUserRecord,
  departments,
  olga,
  openOperator,
  page,
  queriesTo,
  stubOperatorApi,
} from '../../../operator/test-utils';

const PATH = '/operator/support/departments';
const LIST = '/admin/support/departments';
const departmentsTable = () =>
  screen.findByRole('table', { name: 'Departments' }, { timeout: 5000 });

const ivan = { id: 98, email: 'ivan@tradehost.test', name: 'Ivan' };

/** The departments as the server keeps them; the users search finds two operators and a user. */
function stubDepartments(initial: AdminDepartment[] = departments) {
  let rows = [...initial];
  const saved = (id: number, body: DepartmentRequest): AdminDepartment => ({
    id,
    code: null,
    name_en: body.name_en,
    name_ru: body.name_ru,
    position: body.position ?? 0,
    active: body.active ?? true,
    operators: [olga, ivan].filter((operator) => body.operator_ids?.includes(operator.id)),
  });
  return stubOperatorApi({
    [`GET ${LIST}`]: () => ({ body: { data: rows } }),
    [`POST ${LIST}`]: (call) => {
      const department = saved(3, call.body as DepartmentRequest);
      rows = [...rows, department];
      return { status: 201, body: { department, message: 'ok' } };
    },
    [`PUT ${LIST}/1`]: (call) => {
      const department = { ...saved(1, call.body as DepartmentRequest), code: 'technical' };
      rows = rows.map((row) => (row.id === 1 ? department : row));
      return { body: { department, message: 'ok' } };
    },
    'GET /admin/users': {
      body: page([
        adminUserRecord({ ...olga, role: 'admin' }),
        adminUserRecord({ ...ivan, role: 'admin' }),
        adminUserRecord({ id: 97, email: 'ivanova@example.com', name: 'Ivanova' }),
      ]),
    },
  });
}

describe('departments', () => {
  it('lists the departments with their names, state and whose mail they are', async () => {
    stubDepartments([
      adminDepartment({ operators: [olga] }),
      adminDepartment({ id: 2, name_en: 'Billing', name_ru: 'Оплата', position: 2, active: false }),
    ]);
    await openOperator(PATH);
    const table = await departmentsTable();
    const [header, first, second] = within(table).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Order', 'Name in English', 'Name in Russian', 'Status', 'Mail goes to', 'Actions']);
    expect(first).toHaveTextContent('Technical support');
    expect(first).toHaveTextContent('Техническая поддержка');
    expect(first).toHaveTextContent('Active');
    expect(first).toHaveTextContent(olga.email);
    expect(second).toHaveTextContent('Inactive');
    expect(second).toHaveTextContent('Every operator');
  });

  it('adds a department with an operator found by e-mail (operators only)', async () => {
    const http = stubDepartments();
    const { user } = await openOperator(PATH);
    const table = await departmentsTable();
    await user.click(screen.getByRole('button', { name: 'Add a department' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a department' });
    const order = within(dialog).getByRole('textbox', { name: 'Order' });
    expect(order).toHaveValue('3');
    const nameError = 'Enter the department name in both languages (100 characters at most)';

    const search = within(dialog).getByRole('searchbox', {
      name: 'Find an operator by e-mail or name',
    });
    // Enter searches, it does not send the form
    await user.type(search, 'ivan{Enter}');
    const found = await within(dialog).findByRole('list', { name: 'Operators found' });
    expect(queriesTo('/admin/users').at(-1)).toEqual({ query: 'ivan', page: '1', per_page: '10' });
    expect(within(dialog).queryByText(nameError)).toBeNull();
    // a user who is not an operator is not offered
    expect(found).not.toHaveTextContent('ivanova@example.com');
    expect(found).toHaveTextContent(olga.email);
    await user.click(within(found).getByRole('button', { name: `Add ${ivan.email}` }));
    const chosen = within(dialog).getByRole('list', { name: 'Chosen operators' });
    expect(chosen).toHaveTextContent(ivan.email);
    expect(within(dialog).getByRole('list', { name: 'Operators found' })).not.toHaveTextContent(
      ivan.email,
    );

    await user.click(within(dialog).getByRole('button', { name: 'Add the department' }));
    expect(await within(dialog).findAllByText(nameError)).toHaveLength(2);
    expect(http.callsTo('POST', LIST)).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: 'Name in English' }), 'Sales');
    await user.type(within(dialog).getByRole('textbox', { name: 'Name in Russian' }), 'Продажи');
    await user.clear(order);
    await user.type(order, 'first');
    await user.click(within(dialog).getByRole('button', { name: 'Add the department' }));
    expect(await within(dialog).findByText('Enter a whole number from 0 to 1000')).toBeVisible();
    await user.clear(order);
    await user.type(order, '3');
    await user.click(within(dialog).getByRole('button', { name: 'Add the department' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(http.callsTo('POST', LIST).map((call) => call.body)).toEqual([
      { name_en: 'Sales', name_ru: 'Продажи', position: 3, active: true, operator_ids: [98] },
    ]);
    expect(await within(table).findByText('Sales')).toBeVisible();
    expect(await screen.findByText('The department “Sales” has been added')).toBeInTheDocument();
  });

  it('edits a department: renames it, switches it off, removes an operator', async () => {
    const http = stubDepartments([adminDepartment({ operators: [olga, ivan] })]);
    const { user } = await openOperator(PATH);
    const table = await departmentsTable();
    await user.click(
      within(table).getByRole('button', { name: 'Edit the department Technical support' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Edit the department “Technical support”',
    });
    const english = within(dialog).getByRole('textbox', { name: 'Name in English' });
    await user.clear(english);
    await user.type(english, 'Tech support');
    await user.click(
      within(dialog).getByRole('checkbox', { name: 'Users can open tickets in it' }),
    );
    await user.click(within(dialog).getByRole('button', { name: `Remove ${olga.email}` }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(http.callsTo('PUT', `${LIST}/1`).map((call) => call.body)).toEqual([
      {
        name_en: 'Tech support',
        name_ru: 'Техническая поддержка',
        position: 1,
        active: false,
        operator_ids: [98],
      },
    ]);
    const row = within(table).getAllByRole('row')[1]!;
    await waitFor(() => expect(row).toHaveTextContent('Tech support'));
    expect(row).toHaveTextContent('Inactive');
    expect(row).not.toHaveTextContent(olga.email);
  });
});
