import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../../shared/ui/toast/notify';
import { TICKET_POLL_MS } from '../api/support-api';
import {
  attachment,
  message,
  renderSupport,
  stubObjectUrls,
  stubSupportApi,
  ticket,
  ticketResponse,
} from '../test-utils';

vi.mock('../../../shared/ui/toast/notify', () => ({ notify: vi.fn() }));

beforeEach(() => {
  vi.mocked(notify).mockClear();
});

const thread = () => screen.getByRole('list', { name: 'Conversation' });

const CONVERSATION = [
  message({
    id: 1,
    body: 'MetaTrader loses the connection every night at 3:00.',
    attachments: [attachment({ id: 7, file_name: 'screenshot.png' })],
  }),
  message({
    id: 2,
    kind: 'event',
    author_kind: 'staff',
    author_name: null,
    body: 'processing',
    created_at: '2026-11-20T09:00:00.000Z',
  }),
  message({
    id: 3,
    author_kind: 'staff',
    author_name: 'Olga from support',
    body: 'We moved your server to another host.\nPlease check tonight.',
    created_at: '2026-11-20T09:05:00.000Z',
    attachments: [
      attachment({
        id: 8,
        file_name: 'report.pdf',
        content_type: 'application/pdf',
        size_bytes: 1_572_864,
        has_preview: false,
        width: null,
        height: null,
      }),
    ],
  }),
];

describe('a ticket', () => {
  it('shows the header and the thread: the reader’s and the staff’s messages apart, status changes as lines, the files', async () => {
    const urls = stubObjectUrls();
    const api = stubSupportApi({
      'GET /user/support/tickets/12': {
        body: ticketResponse({ status: 'processing', department_id: 1 }, CONVERSATION),
      },
      'GET /user/support/attachments/7/preview': { body: 'webp bytes' },
      'GET /user/support/attachments/8': { body: 'pdf bytes' },
    });
    const { user } = renderSupport('/support/12');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'The terminal disconnects at night' }),
    ).toBeInTheDocument();
    expect(screen.getByText('#12')).toBeInTheDocument();
    expect(screen.getByText('Processing')).toBeInTheDocument();
    expect(await screen.findByText('Technical support')).toBeInTheDocument();
    expect(document.title).toBe('Ticket #12 · TradeHost');

    const mine = within(thread()).getByTestId('thread-user-message');
    expect(mine).toHaveTextContent('You');
    expect(mine).toHaveTextContent('MetaTrader loses the connection every night at 3:00.');
    const theirs = within(thread()).getByTestId('thread-staff-message');
    expect(theirs).toHaveTextContent('Olga from support');
    expect(theirs).toHaveTextContent('Support team');
    expect(within(theirs).getByText(/We moved your server/)).toHaveTextContent(
      'We moved your server to another host. Please check tonight.',
    );
    expect(mine.className).not.toBe(theirs.className);
    expect(within(thread()).getByTestId('thread-event')).toHaveTextContent(
      'Support is working on the ticket (Processing)',
    );
    // in the order they happened
    const order = [...thread().children].map((item) => item.getAttribute('data-testid'));
    expect(order).toEqual(['thread-user-message', 'thread-event', 'thread-staff-message']);

    // the screenshot's thumbnail, fetched with the token (an <img src> could not send it)
    const thumbnail = await within(mine).findByRole('img', { name: 'Preview of screenshot.png' });
    expect(thumbnail).toHaveAttribute('src', 'blob:support-1');
    expect(thumbnail).toHaveAttribute('width', '160');
    expect(thumbnail).toHaveAttribute('height', '90');
    const preview = api.requests.find((r) => r.url.pathname.endsWith('/attachments/7/preview'));
    expect(preview?.headers.get('authorization')).toBe('Bearer support-test-token');

    // the PDF: a download by name and size, saved, never opened in the page
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this);
    });
    await user.click(within(theirs).getByRole('button', { name: 'Download report.pdf (1.5 MB)' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]?.download).toBe('report.pdf');
    expect(urls.create).toHaveBeenCalledTimes(2);
  });

  it('says when a file cannot be downloaded', async () => {
    stubObjectUrls();
    stubSupportApi({
      'GET /user/support/tickets/12': { body: ticketResponse({}, [CONVERSATION[2]!]) },
      'GET /user/support/attachments/8': {
        status: 404,
        body: { message: 'File not found', code: 'ATTACHMENT_NOT_FOUND' },
      },
    });
    const { user } = renderSupport('/support/12', { language: 'ru' });
    await user.click(await screen.findByRole('button', { name: 'Скачать report.pdf (1,5 МБ)' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('error', 'Файл не найден'));
  });

  it('shows a staff answer that comes while it is open, without a reload, and announces it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let messages = [message({ id: 1 })];
    stubSupportApi({
      'GET /user/support/tickets/12': () => ({
        body: ticketResponse({ updated_at: messages.at(-1)!.created_at }, messages),
      }),
    });
    renderSupport('/support/12');
    expect(await screen.findByTestId('thread-user-message')).toBeInTheDocument();
    expect(screen.queryByTestId('thread-staff-message')).toBeNull();

    messages = [
      ...messages,
      message({
        id: 2,
        author_kind: 'staff',
        author_name: 'Olga',
        body: 'Fixed, please check.',
        created_at: '2026-11-20T10:00:00.000Z',
      }),
    ];
    await act(() => vi.advanceTimersByTimeAsync(TICKET_POLL_MS));
    expect(await screen.findByTestId('thread-staff-message')).toHaveTextContent(
      'Fixed, please check.',
    );
    expect(screen.getByText('1 new reply from support')).toBeInTheDocument();
  });

  it("announces new replies with their count in Russian's plural forms (21 takes the 'one' form)", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let messages = [message({ id: 1 })];
    stubSupportApi({
      'GET /user/support/tickets/12': () => ({
        body: ticketResponse({ updated_at: messages.at(-1)!.created_at }, messages),
      }),
    });
    renderSupport('/support/12', { language: 'ru' });
    expect(await screen.findByTestId('thread-user-message')).toBeInTheDocument();

    messages = [
      ...messages,
      ...Array.from({ length: 21 }, (_, i) =>
        message({
          id: 2 + i,
          author_kind: 'staff',
          author_name: 'Olga',
          body: `Reply ${i + 1}`,
          created_at: '2026-11-20T10:00:00.000Z',
        }),
      ),
    ];
    await act(() => vi.advanceTimersByTimeAsync(TICKET_POLL_MS));
    expect(await screen.findAllByTestId('thread-staff-message')).toHaveLength(21);
    expect(screen.getByRole('status')).toHaveTextContent('21 новый ответ поддержки');
  });

  it('stops asking while the page is hidden, and asks again once it shows', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = stubSupportApi({ 'GET /user/support/tickets/12': { body: ticketResponse() } });
    const setVisibility = (state: DocumentVisibilityState) => {
      Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
      act(() => void document.dispatchEvent(new Event('visibilitychange')));
    };
    const reads = () => api.callsTo('GET', '/user/support/tickets/12').length;
    try {
      renderSupport('/support/12');
      await screen.findByTestId('thread-user-message');
      await act(() => vi.advanceTimersByTimeAsync(TICKET_POLL_MS));
      await waitFor(() => expect(reads()).toBe(2));

      setVisibility('hidden');
      await act(() => vi.advanceTimersByTimeAsync(3 * TICKET_POLL_MS));
      expect(reads()).toBe(2);

      setVisibility('visible');
      await act(() => vi.advanceTimersByTimeAsync(TICKET_POLL_MS));
      await waitFor(() => expect(reads()).toBe(3));
    } finally {
      // the document's own getter again
      delete (document as { visibilityState?: unknown }).visibilityState;
    }
  });

  it('says a closed ticket is closed and that writing resumes it, and resumes it', async () => {
    let status: 'closed' | 'new' = 'closed';
    const api = stubSupportApi(
      {
        'GET /user/support/tickets/12': () => ({
          body: ticketResponse({
            status,
            updated_at: status === 'new' ? '2026-11-22T10:00:00.000Z' : undefined,
          }),
        }),
      },
      {
        'POST /user/support/tickets/12/messages': () => {
          status = 'new';
          return { status: 201, body: { ticket: ticket({ status: 'new' }), message: 'Sent' } };
        },
      },
    );
    const { user } = renderSupport('/support/12');
    expect(
      await screen.findByText(
        'This ticket is closed. Write a message to resume it: it becomes New again and the support team sees it.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Resume the ticket' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Close ticket' })).toBeNull();

    await user.type(screen.getByRole('textbox', { name: 'Your message' }), 'It happened again');
    expect(screen.getByTestId('characters-left')).toHaveTextContent('1007 characters left');
    await user.click(screen.getByRole('button', { name: 'Send and resume' }));
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith(
        'success',
        'Your message is sent and the ticket is open again.',
      ),
    );
    expect(api.sent).toEqual([
      {
        path: '/user/support/tickets/12/messages',
        fields: { text: 'It happened again' },
        files: [],
      },
    ]);
    expect(await screen.findByRole('button', { name: 'Close ticket' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Your message' })).toHaveValue('');
  });

  it('refuses to resume while another ticket of the department is open, linking to it', async () => {
    stubSupportApi(
      { 'GET /user/support/tickets/12': { body: ticketResponse({ status: 'closed' }) } },
      {
        'POST /user/support/tickets/12/messages': () => ({
          status: 409,
          body: {
            message: 'You already have an open ticket in this department',
            code: 'TICKET_OPEN_EXISTS',
            ticket_id: 15,
          },
        }),
      },
    );
    const { user } = renderSupport('/support/12');
    await user.type(await screen.findByRole('textbox', { name: 'Your message' }), 'Hello?');
    await user.click(screen.getByRole('button', { name: 'Send and resume' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('You already have an open ticket in this department');
    expect(within(alert).getByRole('link', { name: 'Go to ticket #15' })).toHaveAttribute(
      'href',
      '/support/15',
    );
    expect(screen.getByRole('textbox', { name: 'Your message' })).toHaveValue('Hello?');
  });

  it('refuses an empty reply and one over 1024 characters before sending', async () => {
    const api = stubSupportApi(
      { 'GET /user/support/tickets/12': { body: ticketResponse() } },
      { 'POST /user/support/tickets/12/messages': () => ({ status: 500 }) },
    );
    const { user } = renderSupport('/support/12');
    await user.click(await screen.findByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Enter your message')).toBeInTheDocument();
    await user.click(screen.getByRole('textbox', { name: 'Your message' }));
    await user.paste('я'.repeat(1025));
    expect(screen.getByTestId('characters-left')).toHaveTextContent('1 character too many');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(
      await screen.findByText('The message is too long (1024 characters at most)'),
    ).toBeInTheDocument();
    expect(api.sent).toEqual([]);
  });

  it('closes only after a confirmation', async () => {
    let status: 'new' | 'closed' = 'new';
    const api = stubSupportApi({
      'GET /user/support/tickets/12': () => ({ body: ticketResponse({ status }) }),
      'POST /user/support/tickets/12/close': () => {
        status = 'closed';
        return { body: { ticket: ticket({ status }), message: 'Closed' } };
      },
    });
    const { user } = renderSupport('/support/12');
    await user.click(await screen.findByRole('button', { name: 'Close ticket' }));
    const confirm = screen.getByRole('dialog', { name: 'Close ticket #12?' });
    expect(confirm).toHaveTextContent('You can resume it later by writing in it.');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.callsTo('POST', '/user/support/tickets/12/close')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Close ticket' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Close ticket #12?' })).getByRole('button', {
        name: 'Close the ticket',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST', '/user/support/tickets/12/close')).toHaveLength(1);
    expect(notify).toHaveBeenCalledWith('success', 'Ticket #12 is closed.');
    expect(await screen.findByText('Closed')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Close ticket' })).toBeNull();
    // the focus does not fall to the page's start: it goes to the ticket's heading
    expect(screen.getByRole('heading', { level: 1 })).toHaveFocus();
  });

  it('says clearly when the ticket is not there or not the reader’s, with a way back', async () => {
    stubSupportApi({
      'GET /user/support/tickets/99': {
        status: 404,
        body: { message: 'Ticket not found', code: 'TICKET_NOT_FOUND' },
      },
    });
    const { user, router } = renderSupport('/support/99');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Ticket not found' }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Go to your tickets' }));
    expect(router.state.location.pathname).toBe('/support');
  });

  it('does not ask for a ticket number that is not a number', async () => {
    const api = stubSupportApi();
    renderSupport('/support/abc', { language: 'ru' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Обращение не найдено' }),
    ).toBeInTheDocument();
    expect(api.calls.filter((c) => c.path.startsWith('/user/support/tickets/'))).toEqual([]);
  });
});
