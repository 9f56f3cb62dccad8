import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminTicketSummary, TicketMessage } from '@tradehost/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Handler, Reply } from '../../../../test/fetch-stub';
import {
  adminTicket,
  adminUser,
  attachment,
  bob,
  cannedReply,
  departments,
  olga,
  openOperator,
  stubOperatorApi,
  ticketMessage,
} from '../../../operator/test-utils';

const PATH = '/operator/support/12';
const TICKET = '/admin/support/tickets/12';

const userMessage = ticketMessage({
  attachments: [
    attachment(),
    attachment({
      id: 71,
      file_name: 'statement.pdf',
      content_type: 'application/pdf',
      has_preview: false,
      width: null,
      height: null,
      size_bytes: 1_300_000,
    }),
  ],
});
const note = ticketMessage({
  id: 101,
  kind: 'note',
  author_kind: 'staff',
  author_name: 'Olga',
  body: 'Their server was moved last night; check the address first.',
  created_at: '2025-03-05T09:05:00.000Z',
});
const reply = ticketMessage({
  id: 102,
  author_kind: 'staff',
  author_name: 'Olga',
  body: 'We are looking into it.',
  created_at: '2025-03-05T09:10:00.000Z',
});
const event = ticketMessage({
  id: 103,
  kind: 'event',
  author_kind: 'staff',
  author_name: 'Olga',
  body: 'processing',
  created_at: '2025-03-05T09:10:01.000Z',
});

interface Posted {
  fields: Record<string, string>;
  files: File[];
}

/**
 * The help desk's API for one ticket the stub keeps as the server would, and the multipart posts
 * of the reply box: jsdom's FormData does not survive the Request RTK Query builds, so the
 * fields are taken where the page appends them. Attachments answer with bytes.
 */
function stubTicket(
  options: {
    ticket?: AdminTicketSummary;
    messages?: TicketMessage[];
    routes?: Record<string, Handler>;
    onPost?: (posted: Posted) => Reply;
    user?: typeof adminUser;
  } = {},
) {
  const state = {
    ticket: options.ticket ?? adminTicket(),
    messages: options.messages ?? [userMessage, note, reply, event],
  };
  const changed = (changes: Partial<AdminTicketSummary>) => {
    state.ticket = { ...state.ticket, ...changes };
    return { body: { ticket: state.ticket, message: 'ok' } };
  };
  const api = stubOperatorApi(
    {
      [`GET ${TICKET}`]: () => ({ body: { ticket: state.ticket, messages: state.messages } }),
      'GET /admin/support/departments': { body: { data: departments } },
      'GET /admin/support/canned': {
        body: {
          data: [
            cannedReply(),
            cannedReply({ id: 5, title: 'Fixed', body_en: 'Fixed now.', body_ru: 'Исправили.' }),
          ],
        },
      },
      [`POST ${TICKET}/assign`]: (call) => {
        const { assignee } = call.body as { assignee: 'me' | null };
        return changed({ assignee: assignee === 'me' ? olga : null });
      },
      [`POST ${TICKET}/status`]: (call) =>
        changed({ status: (call.body as { status: AdminTicketSummary['status'] }).status }),
      ...options.routes,
    },
    options.user,
  );

  const forms: Posted[] = [];
  const JsdomFormData = globalThis.FormData;
  vi.stubGlobal(
    'FormData',
    class extends JsdomFormData {
      constructor() {
        super();
        forms.push({ fields: {}, files: [] });
      }
      override append(name: string, value: string | Blob, filename?: string) {
        const form = forms.at(-1)!;
        if (typeof value === 'string') form.fields[name] = value;
        else form.files.push(value as File);
        if (filename === undefined) super.append(name, value as string);
        else super.append(name, value as Blob, filename);
      }
    },
  );
  const posts: Posted[] = [];
  const fileRequests: Request[] = [];
  const stubbed = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const { pathname } = new URL(request.url);
    if (request.method === 'POST' && pathname === `/api${TICKET}/messages`) {
      const posted = forms.at(-1)!;
      posts.push(posted);
      const answer = options.onPost?.(posted) ?? {
        status: 201,
        body: { ticket: state.ticket, message: 'ok' },
      };
      if (answer === 'network-error') throw new TypeError('Failed to fetch');
      if ((answer.status ?? 200) < 300) {
        state.messages = [
          ...state.messages,
          ticketMessage({
            id: 200 + posts.length,
            kind: posted.fields.internal === 'true' ? 'note' : 'message',
            author_kind: 'staff',
            author_name: 'Olga',
            body: posted.fields.text ?? '',
            created_at: new Date().toISOString(),
          }),
        ];
      }
      return new Response(JSON.stringify(answer.body), {
        status: answer.status ?? 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }
    if (request.method === 'GET' && pathname.startsWith('/api/admin/support/attachments/')) {
      fileRequests.push(request);
      const preview = pathname.endsWith('/preview');
      return new Response(new Blob([new Uint8Array([1, 2, 3])]), {
        headers: {
          'Content-Type': preview ? 'image/webp' : 'application/pdf',
          'Content-Disposition': preview ? 'inline' : 'attachment; filename="statement.pdf"',
        },
      });
    }
    return stubbed(request);
  });
  return { ...api, state, posts, fileRequests };
}

/** Object URLs, which jsdom lacks: named after the blob's size; the saved files' links. */
function stubObjectUrls() {
  let count = 0;
  const create = vi.fn(() => `blob:file-${++count}`);
  const revoke = vi.fn();
  vi.stubGlobal(
    'URL',
    class extends URL {
      static override createObjectURL = create;
      static override revokeObjectURL = revoke;
    },
  );
  const clicked: HTMLAnchorElement[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    clicked.push(this);
  });
  return { create, revoke, clicked };
}

const thread = () => screen.findByRole('region', { name: 'Conversation' }, { timeout: 5000 });
const replyBox = () => screen.getByRole('textbox', { name: 'Reply' });
const cannedPicker = () => screen.findByRole('combobox', { name: 'Canned reply' });

describe('a ticket of the help desk', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('shows the ticket, its user and the thread, the internal notes never in the look of a reply', async () => {
    stubObjectUrls();
    stubTicket();
    await openOperator(PATH);
    const conversation = await thread();
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent(
      '#12 The terminal does not connect',
    );
    const details = screen.getByRole('region', { name: 'Details' });
    expect(within(details).getByRole('link', { name: bob.email })).toHaveAttribute(
      'href',
      '/operator/users/5',
    );
    expect(details).toHaveTextContent('Technical support');
    expect(details).toHaveTextContent('New');
    expect(details).toHaveTextContent('Unassigned');
    expect(details).toHaveTextContent('English');
    expect(details).toHaveTextContent('3 hr. ago');

    // the thread's list first, then each message's files
    const [entries] = within(conversation).getAllByRole('list');
    expect(entries!.children).toHaveLength(4);
    const message = within(conversation).getByRole('article', { name: /^Message from Bob/ });
    expect(message).toHaveTextContent('MetaTrader says "No connection" since this morning.');
    expect(message).not.toHaveTextContent('Internal note');

    const internal = within(conversation).getByRole('article', { name: /^Internal note by Olga/ });
    expect(internal).toHaveTextContent('Internal note the user does not see it');
    expect(internal).toHaveTextContent('Their server was moved last night');
    expect(internal.className).toMatch(/note/);

    const answer = within(conversation).getByRole('article', { name: /^Reply by Olga/ });
    expect(answer).toHaveTextContent('We are looking into it.');
    expect(answer).not.toHaveTextContent('Internal note');
    expect(answer.className).not.toMatch(/note/);
    expect(answer.className).not.toBe(internal.className);

    expect(conversation).toHaveTextContent('Olga changed the status to Processing');
  });

  it("shows the images' previews and downloads the files with the operator's token", async () => {
    const urls = stubObjectUrls();
    const api = stubTicket();
    const { user } = await openOperator(PATH);
    const conversation = await thread();
    const preview = await within(conversation).findByRole('img', {
      name: 'Preview of screenshot.png',
    });
    expect(preview).toHaveAttribute('src', 'blob:file-1');
    const previewRequest = api.fileRequests[0]!;
    expect(new URL(previewRequest.url).pathname).toBe('/api/admin/support/attachments/70/preview');
    expect(previewRequest.headers.get('Authorization')).toBe('Bearer test-token');
    // a PDF has no preview
    expect(api.fileRequests).toHaveLength(1);

    const files = within(conversation).getByRole('list', { name: 'Attached files' });
    expect(files).toHaveTextContent('1.2 MB');
    await user.click(within(files).getByRole('button', { name: 'Download statement.pdf' }));
    await waitFor(() => expect(urls.clicked).toHaveLength(1));
    expect(urls.clicked[0]!.download).toBe('statement.pdf');
    const download = api.fileRequests[1]!;
    expect(new URL(download.url).pathname).toBe('/api/admin/support/attachments/71');
    expect(download.headers.get('Authorization')).toBe('Bearer test-token');
  });

  it('sends a reply with internal=false and a note with internal=true, with the files', async () => {
    stubObjectUrls();
    const api = stubTicket();
    const { user } = await openOperator(PATH);
    await thread();

    await user.type(replyBox(), 'Please try the new address.');
    const picker = screen.getByLabelText('Attach files');
    await user.upload(picker, new File([new Uint8Array(2048)], 'steps.png', { type: 'image/png' }));
    expect(screen.getByRole('list', { name: 'Files to send' })).toHaveTextContent(
      /^steps\.png2 kB$/,
    );
    await user.click(screen.getByRole('button', { name: 'Send the reply' }));
    await waitFor(() => expect(api.posts).toHaveLength(1));
    expect(api.posts[0]!.fields).toEqual({
      text: 'Please try the new address.',
      internal: 'false',
    });
    expect(api.posts[0]!.files.map((file) => file.name)).toEqual(['steps.png']);
    expect(await screen.findByText('The reply has been sent')).toBeInTheDocument();
    await waitFor(() => expect(replyBox()).toHaveValue(''));
    expect(screen.queryByRole('list', { name: 'Files to send' })).toBeNull();
    await waitFor(async () =>
      expect(
        within(await thread()).getAllByRole('article', { name: /^Reply by Olga/ }),
      ).toHaveLength(2),
    );

    await user.click(screen.getByRole('radio', { name: 'Internal note' }));
    expect(screen.getByRole('note')).toHaveTextContent(
      'Internal note: only the staff see it, and the user is not told.',
    );
    const noteBox = screen.getByRole('textbox', { name: 'Internal note' });
    await user.type(noteBox, 'Asked them to retry.');
    await user.click(screen.getByRole('button', { name: 'Add the note' }));
    await waitFor(() => expect(api.posts).toHaveLength(2));
    expect(api.posts[1]!.fields).toEqual({ text: 'Asked them to retry.', internal: 'true' });
    expect(api.posts[1]!.files).toEqual([]);
    expect(await screen.findByText('The internal note has been added')).toBeInTheDocument();
    await waitFor(async () =>
      expect(
        within(await thread())
          .getAllByRole('article', { name: /^Internal note by Olga/ })
          .at(-1),
      ).toHaveTextContent('Asked them to retry.'),
    );
  });

  it('attaches files with the console’s picker, in the reader’s language (not the browser’s “Choose Files”)', async () => {
    stubObjectUrls();
    stubTicket({ user: { ...adminUser, language: 'ru' } });
    const { user } = await openOperator(PATH, { language: 'ru' });
    await screen.findByRole('region', { name: 'Переписка' }, { timeout: 5000 });
    const picker = screen.getByLabelText('Приложить файлы');
    // the native input is there for the keyboard and the screen reader, its label is the button
    expect(picker).toHaveClass('visually-hidden');
    const button = document.querySelector(`label[for="${picker.id}"]`)!;
    expect(button).toHaveTextContent('Приложить файлы');
    expect(button.className).toMatch(/button/);
    expect(picker).toHaveAccessibleDescription(
      'До 5 файлов: JPEG, PNG, GIF или PDF, каждый не больше 5 МБ.',
    );
    await user.upload(picker, new File([new Uint8Array(2048)], 'steps.png', { type: 'image/png' }));
    const chosen = screen.getByRole('list', { name: 'Файлы к отправке' });
    expect(chosen).toHaveTextContent(/^steps\.png2 кБ$/);
    await user.click(within(chosen).getByRole('button', { name: 'Убрать steps.png' }));
    expect(screen.queryByRole('list', { name: 'Файлы к отправке' })).toBeNull();
  });

  it('counts the characters left, refuses an empty or too long text and a wrong file, and shows the server’s refusal', async () => {
    stubObjectUrls();
    const api = stubTicket({
      onPost: () => ({
        status: 422,
        body: { message: 'A file must be a JPEG, PNG, GIF or PDF', code: 'ATTACHMENT_FORMAT' },
      }),
    });
    await openOperator(PATH);
    await thread();
    // the accept list is a hint: a reader can choose "All files" in the dialog
    const user = userEvent.setup({ applyAccept: false });
    expect(replyBox()).toHaveAccessibleDescription('8000 characters left');
    await user.click(screen.getByRole('button', { name: 'Send the reply' }));
    expect(await screen.findByText('Enter your message')).toBeVisible();
    expect(replyBox()).toHaveAttribute('aria-invalid', 'true');

    // characters, not UTF-16 units: an emoji is one
    await user.type(replyBox(), 'Hi 👋');
    expect(replyBox()).toHaveAccessibleDescription(/7996 characters left/);

    const picker = screen.getByLabelText('Attach files');
    await user.upload(picker, new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }));
    expect(picker).toHaveAccessibleDescription(/A file must be a JPEG, PNG, GIF or PDF/);
    await user.upload(
      picker,
      new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'huge.png', { type: 'image/png' }),
    );
    expect(picker).toHaveAccessibleDescription(/A file must be at most 5 MB/);
    expect(screen.queryByRole('list', { name: 'Files to send' })).toBeNull();

    await user.upload(picker, new File(['GIF89a<script>'], 'cat.gif', { type: 'image/gif' }));
    await user.click(screen.getByRole('button', { name: 'Send the reply' }));
    await waitFor(() => expect(api.posts).toHaveLength(1));
    await waitFor(() =>
      expect(picker).toHaveAccessibleDescription(/A file must be a JPEG, PNG, GIF or PDF/),
    );
    expect(picker).toHaveFocus();
    // nothing was lost
    expect(replyBox()).toHaveValue('Hi 👋');
    expect(screen.getByRole('list', { name: 'Files to send' })).toHaveTextContent('cat.gif');
  });

  it('links to the user’s open ticket when a reply cannot open this closed one (409)', async () => {
    stubObjectUrls();
    const api = stubTicket({
      ticket: adminTicket({ status: 'closed', waiting_since: null }),
      onPost: () => ({
        status: 409,
        body: {
          message: 'You already have an open ticket in this department',
          code: 'TICKET_OPEN_EXISTS',
          ticket_id: 31,
        },
      }),
    });
    const { user } = await openOperator(PATH);
    await thread();
    await user.type(replyBox(), 'We have fixed it.');
    await user.click(screen.getByRole('button', { name: 'Send the reply' }));
    await waitFor(() => expect(api.posts).toHaveLength(1));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'The user has another open ticket in this department, so this one cannot be opened again.',
    );
    expect(within(alert).getByRole('link', { name: 'Go to ticket #31' })).toHaveAttribute(
      'href',
      '/operator/support/31',
    );
    expect(replyBox()).toHaveValue('We have fixed it.');
  });

  it("inserts a canned reply in the ticket owner's language", async () => {
    stubObjectUrls();
    const api = stubTicket({ ticket: adminTicket({ user_language: 'ru' }) });
    const { user } = await openOperator(PATH);
    await thread();
    // the canned replies come by a call of their own, maybe after the thread
    const canned = await cannedPicker();
    expect(canned).toHaveAccessibleDescription("Inserted in the user's language: Russian");
    const insert = screen.getByRole('button', { name: 'Insert' });
    expect(insert).toBeDisabled();

    await user.type(replyBox(), 'Здравствуйте!');
    await user.selectOptions(canned, 'Restart the terminal');
    await user.click(insert);
    expect(replyBox()).toHaveValue(
      'Здравствуйте!\n\nПерезапустите терминал и напишите, подключается ли он.',
    );
    expect(replyBox()).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Send the reply' }));
    await waitFor(() => expect(api.posts).toHaveLength(1));
    expect(api.posts[0]!.fields.text).toBe(
      'Здравствуйте!\n\nПерезапустите терминал и напишите, подключается ли он.',
    );
  });

  it('inserts the English text for an English-speaking user', async () => {
    stubObjectUrls();
    stubTicket();
    const { user } = await openOperator(PATH);
    await thread();
    await user.selectOptions(await cannedPicker(), 'Fixed');
    await user.click(screen.getByRole('button', { name: 'Insert' }));
    expect(replyBox()).toHaveValue('Fixed now.');
  });

  it('assigns the ticket to the operator and gives it back', async () => {
    stubObjectUrls();
    const api = stubTicket();
    const { user } = await openOperator(PATH);
    await thread();
    const details = screen.getByRole('region', { name: 'Details' });
    expect(within(details).queryByRole('button', { name: 'Unassign' })).toBeNull();
    await user.click(within(details).getByRole('button', { name: 'Assign to me' }));
    expect(await screen.findByText('Ticket #12 is assigned to you')).toBeInTheDocument();
    expect(api.callsTo('POST', `${TICKET}/assign`).map((call) => call.body)).toEqual([
      { assignee: 'me' },
    ]);
    await waitFor(() => expect(details).toHaveTextContent(olga.email));
    // it is the operator's own now: no Assign to me
    expect(within(details).queryByRole('button', { name: 'Assign to me' })).toBeNull();

    await user.click(within(details).getByRole('button', { name: 'Unassign' }));
    await waitFor(() => expect(details).toHaveTextContent('Unassigned'));
    expect(api.callsTo('POST', `${TICKET}/assign`).map((call) => call.body)).toEqual([
      { assignee: 'me' },
      { assignee: null },
    ]);
    expect(within(details).getByRole('button', { name: 'Assign to me' })).toBeVisible();
  });

  it('changes the status at once, but asks before closing', async () => {
    stubObjectUrls();
    const api = stubTicket();
    const { user } = await openOperator(PATH);
    await thread();
    const details = screen.getByRole('region', { name: 'Details' });
    const statuses = within(details).getByRole('group', { name: 'Change the status' });
    expect(
      within(statuses)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Mark as Processing', 'Close the ticket']);

    await user.click(within(statuses).getByRole('button', { name: 'Mark as Processing' }));
    expect(await screen.findByText('Ticket #12 is now Processing')).toBeInTheDocument();
    expect(api.callsTo('POST', `${TICKET}/status`).map((call) => call.body)).toEqual([
      { status: 'processing' },
    ]);
    await waitFor(() =>
      expect(
        within(statuses)
          .getAllByRole('button')
          .map((button) => button.textContent),
      ).toEqual(['Mark as New', 'Close the ticket']),
    );

    const close = within(statuses).getByRole('button', { name: 'Close the ticket' });
    await user.click(close);
    let dialog = await screen.findByRole('dialog', { name: 'Close ticket #12' });
    expect(dialog).toHaveAccessibleDescription(
      'Close “The terminal does not connect”? The user is told by e-mail and can resume the ticket by writing again.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(close).toHaveFocus();
    expect(api.callsTo('POST', `${TICKET}/status`)).toHaveLength(1);

    await user.click(close);
    dialog = await screen.findByRole('dialog', { name: 'Close ticket #12' });
    await user.click(within(dialog).getByRole('button', { name: 'Close the ticket' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST', `${TICKET}/status`).map((call) => call.body)).toEqual([
      { status: 'processing' },
      { status: 'closed' },
    ]);
    expect(await screen.findByText('Ticket #12 has been closed')).toBeInTheDocument();
    await waitFor(() => expect(details).toHaveTextContent('Closed'));
    expect(
      within(statuses)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Mark as New', 'Mark as Processing']);
    expect(screen.getByRole('heading', { level: 2 })).toHaveFocus();
  });

  it('shows a refused status change', async () => {
    stubObjectUrls();
    stubTicket({
      routes: {
        [`POST ${TICKET}/status`]: {
          status: 404,
          body: { message: 'Ticket not found', code: 'TICKET_NOT_FOUND' },
        },
      },
    });
    const { user } = await openOperator(PATH);
    await thread();
    await user.click(screen.getByRole('button', { name: 'Mark as Processing' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Ticket not found');
  });

  it('brings the user’s new messages while it is open, and says so', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubObjectUrls();
    const api = stubTicket();
    await openOperator(PATH);
    const conversation = await thread();
    expect(
      within(conversation).getAllByRole('article', { name: /^Message from Bob/ }),
    ).toHaveLength(1);
    api.state.messages = [
      ...api.state.messages,
      ticketMessage({ id: 300, body: 'Still nothing.', created_at: new Date().toISOString() }),
    ];
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await waitFor(() =>
      expect(
        within(conversation).getAllByRole('article', { name: /^Message from Bob/ }),
      ).toHaveLength(2),
    );
    expect(conversation).toHaveTextContent('Still nothing.');
    expect(screen.getByRole('status', { name: '' })).toHaveTextContent(
      'A new message from the user has arrived',
    );
    expect(api.callsTo('GET', TICKET).length).toBeGreaterThanOrEqual(2);
  });

  it('says when there is no such ticket', async () => {
    stubOperatorApi({
      [`GET ${TICKET}`]: {
        status: 404,
        body: { message: 'Ticket not found', code: 'TICKET_NOT_FOUND' },
      },
    });
    await openOperator(PATH);
    expect(
      await screen.findByText('There is no ticket with this number.', {}, { timeout: 5000 }),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: '← All tickets' })).toHaveAttribute(
      'href',
      '/operator/support',
    );
  });

  it('speaks Russian', async () => {
    stubObjectUrls();
    stubTicket({ user: { ...adminUser, language: 'ru' } });
    await openOperator(PATH, { language: 'ru' });
    const conversation = await screen.findByRole(
      'region',
      { name: 'Переписка' },
      { timeout: 5000 },
    );
    expect(
      within(conversation).getByRole('article', { name: /^Внутренняя заметка, Olga/ }),
    ).toHaveTextContent('Внутренняя заметка пользователь её не видит');
    expect(conversation).toHaveTextContent('Olga сменил(а) статус: В работе');
    expect(screen.getByRole('button', { name: 'Взять себе' })).toBeVisible();
    expect(screen.getByRole('textbox', { name: 'Ответ' })).toHaveAccessibleDescription(
      'Осталось 8000 символов',
    );
  });
});
