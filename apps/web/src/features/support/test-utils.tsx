/**
 * Test helpers of the support pages: the pages signed in on a memory router (src/test/render),
 * the API stubbed at the global fetch (src/test/fetch-stub) with the multipart posts answered
 * from the fields and files the form carried, and fixtures built from the contracts.
 */
import type {
  Attachment,
  Department,
  TicketMessage,
  TicketResponse,
  TicketSummary,
} from '@tradehost/contracts';
import { vi } from 'vitest';
import { stubFetchKeepingRequests, type Handler } from '../../test/fetch-stub';
import { page } from '../../test/fixtures';
import { renderSignedInPage, type RenderPageOptions } from '../../test/render';
import { Component as SupportPage } from './pages/support-page';
import { Component as TicketPage } from './pages/ticket-page';

export { deferred, type Handler } from '../../test/fetch-stub';
export { page } from '../../test/fixtures';
export { searchOf } from '../../test/render';

export const DEPARTMENTS: Department[] = [
  {
    id: 1,
    code: 'technical',
    name_en: 'Technical support',
    name_ru: 'Техническая поддержка',
    position: 1,
    active: true,
  },
  {
    id: 2,
    code: 'billing',
    name_en: 'Billing',
    name_ru: 'Оплата и счета',
    position: 2,
    active: true,
  },
  {
    id: 3,
    code: 'partnership',
    name_en: 'Partnership',
    name_ru: 'Партнёрская программа',
    position: 3,
    active: true,
  },
  {
    id: 4,
    code: 'monitoring',
    name_en: 'Monitoring',
    name_ru: 'Мониторинг',
    position: 4,
    active: true,
  },
];

export function ticket(overrides: Partial<TicketSummary> = {}): TicketSummary {
  return {
    id: 12,
    title: 'The terminal disconnects at night',
    status: 'new',
    department_id: 1,
    created_at: '2026-11-20T08:00:00.000Z',
    updated_at: '2026-11-21T09:30:00.000Z',
    unread: false,
    ...overrides,
  };
}

export function message(overrides: Partial<TicketMessage> = {}): TicketMessage {
  return {
    id: 100,
    kind: 'message',
    author_kind: 'user',
    author_name: 'Alice Trader',
    body: 'MetaTrader loses the connection every night at 3:00.',
    created_at: '2026-11-20T08:00:00.000Z',
    attachments: [],
    ...overrides,
  };
}

export function attachment(overrides: Partial<Attachment> = {}): Attachment {
  return {
    id: 7,
    file_name: 'screenshot.png',
    content_type: 'image/png',
    size_bytes: 245_760,
    has_preview: true,
    width: 1280,
    height: 720,
    ...overrides,
  };
}

export function ticketResponse(
  summary: Partial<TicketSummary> = {},
  messages: TicketMessage[] = [message()],
): TicketResponse {
  return { ticket: ticket(summary), messages };
}

/** What a multipart post carried: its text fields and its files, in order. */
export interface SentForm {
  path: string;
  fields: Record<string, string>;
  files: File[];
}

type Reply = { status?: number; body?: unknown };

/**
 * The support API: the four departments, no tickets, nothing unread; `routes` replace. The
 * multipart posts ("POST /user/support/tickets", "POST /user/support/tickets/12/messages") are
 * answered by `multipart` with the form the page built. (jsdom's FormData does not survive the
 * Request RTK Query makes, so the fields are taken where the page appends them.)
 */
export function stubSupportApi(
  routes: Record<string, Handler> = {},
  multipart: Record<string, (form: SentForm) => Reply | Promise<Reply>> = {},
) {
  const api = stubFetchKeepingRequests({
    'GET /user/support/departments': { body: { data: DEPARTMENTS } },
    'GET /user/support/tickets': { body: page([]) },
    'GET /user/support/unread': { body: { count: 0 } },
    ...routes,
  });
  const built: Omit<SentForm, 'path'>[] = [];
  const JsdomFormData = globalThis.FormData;
  vi.stubGlobal(
    'FormData',
    class extends JsdomFormData {
      private readonly record: Omit<SentForm, 'path'> = { fields: {}, files: [] };
      constructor() {
        super();
        built.push(this.record);
      }
      override append(name: string, value: string | Blob, filename?: string) {
        if (typeof value === 'string') this.record.fields[name] = value;
        else this.record.files.push(value as File);
        if (filename === undefined) super.append(name, value as string);
        else super.append(name, value as Blob, filename);
      }
    },
  );
  const sent: SentForm[] = [];
  const stubbed = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const path = new URL(request.url).pathname.replace(/^\/api/, '');
    const handler = multipart[`${request.method} ${path}`];
    if (!handler) return stubbed(request);
    const form = { path, ...(built.at(-1) ?? { fields: {}, files: [] }) };
    sent.push(form);
    const reply = await handler(form);
    return new Response(JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  return { ...api, sent };
}

const ROUTES = [
  { path: '/support', Component: SupportPage },
  { path: '/support/:ticketId', Component: TicketPage },
];

/** The support pages at `path` (the list, or /support/12), signed in. */
export function renderSupport(path = '/support', options: RenderPageOptions = {}) {
  return renderSignedInPage(ROUTES, path, 'support-test-token', options);
}

/** jsdom has no object URLs: one per Blob, for the thumbnails and the downloads. */
export function stubObjectUrls() {
  let serial = 0;
  const create = vi.fn(() => `blob:support-${++serial}`);
  const revoke = vi.fn();
  vi.stubGlobal(
    'URL',
    class extends URL {
      static override createObjectURL = create;
      static override revokeObjectURL = revoke;
    },
  );
  return { create, revoke };
}

/** A file of `bytes` bytes. */
export const fileOf = (bytes: number, name: string, type: string) =>
  new File([new Uint8Array(bytes)], name, { type });
