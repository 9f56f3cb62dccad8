import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  adminTicket,
  adminUser,
  bob,
  carol,
  departments,
  olga,
  openOperator,
  page,
  queriesTo,
  stubOperatorApi,
  supportQueue,
} from '../../../operator/test-utils';

const PATH = '/operator/support';
const LIST = '/admin/support/tickets';
const DAY = 86_400_000;
// the first test of the file also waits for the lazy pages to compile
const ticketsTable = () => screen.findByRole('table', { name: 'Tickets' }, { timeout: 5000 });

const overdue = adminTicket({
  id: 7,
  title: 'Refund for March',
  department_id: 2,
  status: 'processing',
  user: carol,
  assignee: olga,
  waiting_since: new Date(Date.now() - 2 * DAY).toISOString(),
  updated_at: new Date(Date.now() - 2 * DAY).toISOString(),
});
const waiting = adminTicket();
const answered = adminTicket({
  id: 15,
  title: 'Thanks',
  status: 'processing',
  waiting_since: null,
});

function stubDesk(tickets = [overdue, waiting, answered]) {
  return stubOperatorApi({
    'GET /admin/support/queues': {
      body: {
        data: [
          supportQueue(),
          supportQueue({
            department: {
              ...supportQueue().department,
              id: 2,
              name_en: 'Billing',
              name_ru: 'Оплата',
            },
            new_count: 0,
            processing_count: 1,
            waiting_count: 1,
            oldest_waiting_since: overdue.waiting_since,
          }),
          supportQueue({
            department: {
              ...supportQueue().department,
              id: 3,
              name_en: 'Partnership',
              name_ru: 'Партнёрство',
              active: false,
            },
            new_count: 0,
            processing_count: 0,
            waiting_count: 0,
            oldest_waiting_since: null,
          }),
        ],
      },
    },
    'GET /admin/support/departments': { body: { data: departments } },
    [`GET ${LIST}`]: () => ({ body: page(tickets) }),
  });
}

describe('the help desk', () => {
  it("shows each department's queue: its new, processing and waiting tickets and the longest wait", async () => {
    stubDesk();
    await openOperator(PATH);
    await ticketsTable();
    const queues = screen.getByRole('region', { name: 'Queues' });
    const technical = within(queues).getByRole('article', { name: 'Technical support' });
    const counts = within(technical)
      .getAllByRole('definition')
      .map((cell) => cell.textContent);
    expect(counts.slice(0, 3)).toEqual(['2', '1', '2']);
    expect(technical).toHaveTextContent('Oldest waiting:3 hr. ago');
    expect(technical).not.toHaveTextContent('Overdue');

    const billing = within(queues).getByRole('article', { name: 'Billing' });
    expect(billing).toHaveTextContent('Oldest waiting:2 days ago');
    expect(billing).toHaveTextContent('Overdue');

    const partnership = within(queues).getByRole('article', { name: /^Partnership/ });
    expect(partnership).toHaveTextContent('Inactive');
    expect(partnership).toHaveTextContent('Oldest waiting:nobody');
  });

  it('lists the open tickets as the server orders them, waiting longest first, the overdue marked', async () => {
    stubDesk();
    await openOperator(PATH);
    const table = await ticketsTable();
    const [header, ...rows] = within(table).getAllByRole('row');
    expect(
      within(header!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Ticket', 'User', 'Department', 'Status', 'Waiting', 'Assignee', 'Last activity']);
    expect(rows.map((row) => within(row).getAllByRole('link')[0]!.textContent)).toEqual([
      '#7 Refund for March',
      '#12 The terminal does not connect',
      '#15 Thanks',
    ]);
    const [first, second, third] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(first).getByRole('link', { name: '#7 Refund for March' })).toHaveAttribute(
      'href',
      '/operator/support/7',
    );
    expect(within(first).getByRole('link', { name: carol.email })).toHaveAttribute(
      'href',
      '/operator/users/6',
    );
    expect(first).toHaveTextContent('Billing');
    expect(first).toHaveTextContent('Processing');
    expect(first).toHaveTextContent('2 days ago');
    expect(first).toHaveTextContent('Overdue');
    expect(first).toHaveTextContent(olga.email);

    expect(within(second).getByRole('link', { name: bob.email })).toBeVisible();
    expect(second).toHaveTextContent('Technical support');
    expect(second).toHaveTextContent('New');
    expect(second).toHaveTextContent('3 hr. ago');
    expect(second).not.toHaveTextContent('Overdue');
    expect(second).toHaveTextContent('Unassigned');

    expect(third).toHaveTextContent('Answered');
    expect(queriesTo(LIST)[0]).toEqual({ status: 'open', page: '1', per_page: '20' });
  });

  it('filters by a queue, the status, the assignee and a search, and says when nothing matches', async () => {
    stubDesk([]);
    const { user, router } = await openOperator(PATH);
    expect(
      await screen.findByText('No open tickets: nobody is waiting.', {}, { timeout: 5000 }),
    ).toBeVisible();

    const billing = screen.getByRole('article', { name: 'Billing' });
    await user.click(within(billing).getByRole('button', { name: 'Show the tickets of Billing' }));
    await waitFor(() => expect(router.state.location.search).toBe('?department=2'));
    expect(screen.getByRole('combobox', { name: 'Department' })).toHaveValue('2');
    await waitFor(() =>
      expect(queriesTo(LIST).at(-1)).toEqual({
        status: 'open',
        department_id: '2',
        page: '1',
        per_page: '20',
      }),
    );

    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Closed');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Assignee' }), 'Me');
    await user.type(
      screen.getByRole('searchbox', { name: 'Find by number, subject or e-mail' }),
      'carol@',
    );
    await user.click(screen.getByRole('button', { name: 'Find' }));
    await waitFor(() =>
      expect(queriesTo(LIST).at(-1)).toEqual({
        status: 'closed',
        assignee: 'me',
        department_id: '2',
        search: 'carol@',
        page: '1',
        per_page: '20',
      }),
    );
    expect(screen.getByText('No tickets match these filters.')).toBeVisible();

    // every status and anyone: the parameters are left out
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'All');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Assignee' }), 'Anyone');
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Department' }),
      'All departments',
    );
    await waitFor(() =>
      expect(queriesTo(LIST).at(-1)).toEqual({ search: 'carol@', page: '1', per_page: '20' }),
    );
  });

  it('shows a failed load with a way to try again', async () => {
    let fail = true;
    stubOperatorApi({
      'GET /admin/support/queues': { body: { data: [] } },
      'GET /admin/support/departments': { body: { data: departments } },
      [`GET ${LIST}`]: () =>
        fail
          ? { status: 500, body: { message: 'Internal server error', code: 'INTERNAL' } }
          : { body: page([waiting]) },
    });
    const { user } = await openOperator(PATH);
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert).toHaveTextContent('The list could not be loaded');
    expect(screen.getByText('There are no departments yet.')).toBeVisible();
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(
      await screen.findByRole('link', { name: '#12 The terminal does not connect' }),
    ).toBeVisible();
  });

  it('speaks Russian, on a phone too', async () => {
    stubOperatorApi(
      {
        'GET /admin/support/queues': { body: { data: [supportQueue()] } },
        'GET /admin/support/departments': { body: { data: departments } },
        [`GET ${LIST}`]: { body: page([overdue]) },
      },
      { ...adminUser, language: 'ru' },
    );
    await openOperator(PATH, { language: 'ru', width: 375 });
    const list = await screen.findByRole('list', { name: 'Обращения' }, { timeout: 5000 });
    // № takes a no-break space in Russian (toHaveTextContent would read it as any space)
    expect(list.textContent).toContain('№\u00a07 Refund for March');
    expect(list).toHaveTextContent('Оплата');
    expect(list).toHaveTextContent('В работе');
    expect(list).toHaveTextContent('Просрочено');
    expect(screen.getByRole('article', { name: 'Техническая поддержка' })).toHaveTextContent(
      'Ждут ответа',
    );
    expect(screen.getByRole('navigation', { name: 'Разделы поддержки' })).toBeVisible();
  });
});
