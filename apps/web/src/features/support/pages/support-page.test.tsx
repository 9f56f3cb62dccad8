import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../../shared/ui/toast/notify';
import {
  fileOf,
  page,
  renderSupport,
  stubSupportApi,
  ticket,
  ticketResponse,
  type SentForm,
} from '../test-utils';

vi.mock('../../../shared/ui/toast/notify', () => ({ notify: vi.fn() }));

beforeEach(() => {
  vi.mocked(notify).mockClear();
});

const dialog = () => screen.getByRole('dialog', { name: 'New ticket' });
const EMOJI = '😀'; // one character, two UTF-16 units, four bytes

describe('the ticket list', () => {
  it('shows each ticket with its status, department, last activity and the unread marker', async () => {
    stubSupportApi({
      'GET /user/support/tickets': {
        body: page([
          ticket({
            id: 14,
            title: 'Refund of a double payment',
            department_id: 2,
            status: 'processing',
            unread: true,
          }),
          ticket({ id: 12, status: 'closed' }),
        ]),
      },
    });
    renderSupport();
    const list = await screen.findByRole('list', { name: 'Your tickets' });
    const rows = within(list).getAllByTestId('ticket-row');
    expect(rows).toHaveLength(2);

    const answered = rows[0]!;
    expect(
      within(answered).getByRole('link', { name: '#14 Refund of a double payment, new reply' }),
    ).toHaveAttribute('href', '/support/14');
    expect(answered).toHaveTextContent('Billing');
    expect(answered).toHaveTextContent('Processing');
    expect(answered).toHaveTextContent(/Last activity .*2026/);
    expect(within(answered).getByText('New reply')).toBeVisible();

    const read = rows[1]!;
    expect(
      within(read).getByRole('link', { name: '#12 The terminal disconnects at night' }),
    ).toHaveAttribute('href', '/support/12');
    expect(read).toHaveTextContent('Technical support');
    expect(read).toHaveTextContent('Closed');
    expect(within(read).queryByText('New reply')).toBeNull();
    expect(screen.getByText('2 tickets')).toBeInTheDocument();
  });

  it('filters by status and department and pages, keeping them in the address', async () => {
    const api = stubSupportApi({
      'GET /user/support/tickets': { body: page([ticket()], { total: 45 }) },
    });
    const { user, router } = renderSupport();
    await screen.findByRole('list', { name: 'Your tickets' });
    expect(api.queries('GET', '/user/support/tickets')[0]?.toString()).toBe('page=1&per_page=20');

    await user.click(screen.getByRole('radio', { name: 'Open' }));
    await waitFor(() =>
      expect(api.queries('GET', '/user/support/tickets').at(-1)?.toString()).toBe(
        'status=open&page=1&per_page=20',
      ),
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'Department' }), 'Billing');
    await waitFor(() =>
      expect(api.queries('GET', '/user/support/tickets').at(-1)?.toString()).toBe(
        'status=open&department_id=2&page=1&per_page=20',
      ),
    );
    expect(router.state.location.search).toBe('?status=open&department=2');

    await user.click(await screen.findByRole('button', { name: 'Next' }));
    await waitFor(() =>
      expect(api.queries('GET', '/user/support/tickets').at(-1)?.get('page')).toBe('2'),
    );
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    // another filter starts again from the first page
    await user.click(screen.getByRole('radio', { name: 'Closed' }));
    await waitFor(() =>
      expect(api.queries('GET', '/user/support/tickets').at(-1)?.toString()).toBe(
        'status=closed&department_id=2&page=1&per_page=20',
      ),
    );
  });

  it('invites the first ticket when there is none, and opens the form from there', async () => {
    stubSupportApi();
    const { user } = renderSupport();
    expect(await screen.findByRole('heading', { name: 'No tickets yet' })).toBeInTheDocument();
    const empty = screen
      .getByRole('heading', { name: 'No tickets yet' })
      .closest('div')!.parentElement!;
    await user.click(within(empty).getByRole('button', { name: 'New ticket' }));
    expect(dialog()).toBeInTheDocument();
    expect(await within(dialog()).findByRole('combobox', { name: 'Department' })).toBeVisible();
  });

  it('says when no ticket matches the filters and clears them', async () => {
    const api = stubSupportApi();
    const { user } = renderSupport('/support?status=closed');
    expect(await screen.findByRole('heading', { name: 'No tickets match' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show all tickets' }));
    await waitFor(() =>
      expect(api.queries('GET', '/user/support/tickets').at(-1)?.has('status')).toBe(false),
    );
    expect(await screen.findByRole('heading', { name: 'No tickets yet' })).toBeInTheDocument();
  });

  it('offers to try again when the list cannot be loaded', async () => {
    let fail = true;
    stubSupportApi({
      'GET /user/support/tickets': () =>
        fail
          ? { status: 500, body: { message: 'Boom', code: 'INTERNAL' } }
          : { body: page([ticket()]) },
    });
    const { user } = renderSupport();
    expect(await screen.findByText('Your tickets could not be loaded')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(
      await screen.findByRole('link', { name: '#12 The terminal disconnects at night' }),
    ).toBeInTheDocument();
  });

  it('is in Russian for a Russian reader', async () => {
    stubSupportApi({
      'GET /user/support/tickets': { body: page([ticket({ unread: true })]) },
    });
    renderSupport('/support', { language: 'ru' });
    expect(
      await screen.findByRole('link', {
        name: '№\u00a012 The terminal disconnects at night, новый ответ',
      }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('ticket-row')).toHaveTextContent('Техническая поддержка');
    expect(screen.getByText('1 обращение')).toBeInTheDocument();
  });
});

describe('the new ticket form', () => {
  it('names every required field and sends nothing', async () => {
    const api = stubSupportApi({}, { 'POST /user/support/tickets': () => ({ status: 500 }) });
    const { user } = renderSupport('/support?new');
    await user.click(await within(dialog()).findByRole('button', { name: 'Send the ticket' }));
    expect(
      await within(dialog()).findByText('Choose a department', { selector: 'p' }),
    ).toBeInTheDocument();
    expect(within(dialog()).getByText('Enter the subject of the ticket')).toBeInTheDocument();
    expect(within(dialog()).getByText('Enter your message')).toBeInTheDocument();
    expect(within(dialog()).getByRole('combobox', { name: 'Department' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(api.sent).toEqual([]);
  });

  it('counts characters as the API does (an emoji is one) and refuses the 1025th', async () => {
    const created = ticket({ id: 31, title: 'Emoji' });
    const api = stubSupportApi(
      { 'GET /user/support/tickets/31': { body: ticketResponse({ id: 31, title: 'Emoji' }) } },
      {
        'POST /user/support/tickets': () => ({
          status: 201,
          body: { ticket: created, message: 'Created' },
        }),
      },
    );
    const { user, router } = renderSupport('/support?new=technical');
    const form = dialog();
    const department = await within(form).findByRole('combobox', { name: 'Department' });
    expect(department).toHaveDisplayValue('Technical support');
    await user.type(within(form).getByRole('textbox', { name: 'Subject' }), 'Emoji');
    const text = within(form).getByRole('textbox', { name: 'Message' });
    expect(text).not.toHaveAttribute('maxlength');
    expect(within(form).getByTestId('characters-left')).toHaveTextContent('1024 characters left');

    fireEvent.change(text, { target: { value: EMOJI.repeat(1025) } });
    expect(within(form).getByTestId('characters-left')).toHaveTextContent('1 character too many');
    await user.click(within(form).getByRole('button', { name: 'Send the ticket' }));
    expect(
      await within(form).findByText('The message is too long (1024 characters at most)'),
    ).toBeInTheDocument();
    expect(api.sent).toEqual([]);

    // 1024 emoji: 2048 UTF-16 units, 4096 bytes, and exactly the limit
    fireEvent.change(text, { target: { value: EMOJI.repeat(1024) } });
    expect(within(form).getByTestId('characters-left')).toHaveTextContent('0 characters left');
    await user.click(within(form).getByRole('button', { name: 'Send the ticket' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/support/31'));
    expect(api.sent).toEqual([
      {
        path: '/user/support/tickets',
        fields: { department_id: '1', title: 'Emoji', text: EMOJI.repeat(1024) },
        files: [],
      },
    ]);
    expect(notify).toHaveBeenCalledWith(
      'success',
      'Ticket #31 is open. The support team will answer here.',
    );
  });

  it('refuses a file over 5 MB or of another kind in the browser, and sends the others', async () => {
    const created = ticket({ id: 40 });
    const api = stubSupportApi(
      { 'GET /user/support/tickets/40': { body: ticketResponse({ id: 40 }) } },
      {
        'POST /user/support/tickets': () => ({
          status: 201,
          body: { ticket: created, message: 'Created' },
        }),
      },
    );
    renderSupport('/support?new=billing');
    // the accept list is a hint: a reader can choose "All files" in the dialog
    const user = userEvent.setup({ applyAccept: false });
    const form = dialog();
    const picker = await within(form).findByLabelText('Attach files');
    expect(picker).toHaveAttribute(
      'accept',
      '.jpg,.jpeg,.png,.gif,.pdf,image/jpeg,image/png,image/gif,application/pdf',
    );
    await user.upload(picker, [
      fileOf(5 * 1024 * 1024 + 1, 'huge.png', 'image/png'),
      fileOf(300, 'logo.svg', 'image/svg+xml'),
      fileOf(2000, 'screen.png', 'image/png'),
      fileOf(5 * 1024 * 1024, 'invoice.pdf', 'application/pdf'),
    ]);
    const alert = within(form).getByRole('alert');
    expect(alert).toHaveTextContent('huge.png: A file must be at most 5 MB');
    expect(alert).toHaveTextContent('logo.svg: A file must be a JPEG, PNG, GIF or PDF');
    const chosen = within(form).getByRole('list', { name: 'Files to send' });
    expect(
      within(chosen)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['screen.png2 kB', 'invoice.pdf5 MB']);

    await user.click(within(form).getByRole('button', { name: 'Remove invoice.pdf' }));
    expect(within(chosen).getAllByRole('listitem')).toHaveLength(1);

    await user.type(within(form).getByRole('textbox', { name: 'Subject' }), 'Receipt');
    await user.type(within(form).getByRole('textbox', { name: 'Message' }), 'See the screenshot');
    await user.click(within(form).getByRole('button', { name: 'Send the ticket' }));
    await waitFor(() => expect(api.sent).toHaveLength(1));
    const sent = api.sent[0] as SentForm;
    expect(sent.fields).toEqual({
      department_id: '2',
      title: 'Receipt',
      text: 'See the screenshot',
    });
    expect(sent.files.map((file) => [file.name, file.size])).toEqual([['screen.png', 2000]]);
  });

  it('takes five files at most', async () => {
    stubSupportApi();
    const { user } = renderSupport('/support?new');
    const picker = await within(dialog()).findByLabelText('Attach files');
    await user.upload(
      picker,
      [1, 2, 3, 4, 5, 6].map((n) => fileOf(100, `shot-${n}.png`, 'image/png')),
    );
    expect(within(dialog()).getByRole('alert')).toHaveTextContent(
      'shot-6.png: Attach at most 5 files to a message',
    );
    expect(
      within(within(dialog()).getByRole('list', { name: 'Files to send' })).getAllByRole(
        'listitem',
      ),
    ).toHaveLength(5);
    expect(picker).toBeDisabled();
  });

  it('refuses a second open ticket of a department, linking to the open one', async () => {
    stubSupportApi(
      {},
      {
        'POST /user/support/tickets': () => ({
          status: 409,
          body: {
            message: 'You already have an open ticket in this department',
            code: 'TICKET_OPEN_EXISTS',
            ticket_id: 7,
          },
        }),
      },
    );
    const { user, router } = renderSupport('/support?new=technical', { language: 'ru' });
    const form = screen.getByRole('dialog', { name: 'Новое обращение' });
    await within(form).findByRole('combobox', { name: 'Отдел' });
    await user.type(within(form).getByRole('textbox', { name: 'Тема' }), 'Опять отключается');
    await user.type(within(form).getByRole('textbox', { name: 'Сообщение' }), 'Помогите');
    await user.click(within(form).getByRole('button', { name: 'Отправить обращение' }));
    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent('У вас уже есть открытое обращение в этом отделе');
    const link = within(alert).getByRole('link', { name: 'Перейти к обращению №\u00a07' });
    expect(link).toHaveAttribute('href', '/support/7');
    // what was typed stays
    expect(within(form).getByRole('textbox', { name: 'Тема' })).toHaveValue('Опять отключается');
    expect(router.state.location.pathname).toBe('/support');
  });

  it('closes on Cancel, leaving the address without ?new', async () => {
    stubSupportApi();
    const { user, router } = renderSupport();
    await user.click(await screen.findByRole('button', { name: 'New ticket' }));
    expect(router.state.location.search).toBe('?new=');
    await user.click(await within(dialog()).findByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(router.state.location.search).toBe('');
  });
});
