/**
 * Test helpers of the profile page: the page signed in on a memory router, its API stubbed at the
 * global fetch (the avatar upload, a multipart body, answered raw), and fixtures.
 */
import {
  type FactorsResponse,
  type PasskeyItem,
  SECURITY_EVENTS_PER_PAGE,
  SESSIONS_PER_PAGE,
  type SecurityEvent,
  type SecurityEventsResponse,
  type User,
  type UserSession,
  type UserSessionsResponse,
} from '@tradehost/contracts';
import { vi } from 'vitest';
import { stubFetch, type Handler, type StubCall } from '../../test/fetch-stub';
import { testUser } from '../../test/fixtures';
import { renderSignedInPage, type RenderPageOptions } from '../../test/render';
import { Component as ProfilePage } from './pages/profile-page';

export { deferred, type Handler } from '../../test/fetch-stub';

export const USER: User = { ...testUser, name: 'Alice Trader', email: 'alice@example.com' };
export const AVATAR_PATH = '/api/user/avatar/AAAAAAAAAAAAAAAAAAAAAA.webp';

export function session(overrides: Partial<UserSession> = {}): UserSession {
  return {
    id: '6f1c1a1e-0000-4000-8000-000000000001',
    browser: 'Chrome',
    os: 'Windows',
    created_at: '2026-11-20T08:00:00.000Z',
    last_used_at: '2026-11-23T10:30:00.000Z',
    current: true,
    ...overrides,
  };
}

export const SESSIONS: UserSession[] = [
  session(),
  session({
    id: '6f1c1a1e-0000-4000-8000-000000000002',
    browser: 'Safari',
    os: 'iOS',
    current: false,
    last_used_at: '2026-11-22T19:00:00.000Z',
  }),
  session({ id: '6f1c1a1e-0000-4000-8000-000000000003', browser: null, os: null, current: false }),
];

/**
 * GET /user/sessions as the API answers it: the page the call asks for (SESSIONS_PER_PAGE a
 * page) of `list` (already in the API's order), the counts of all of them.
 */
export const sessionsAnswer =
  (list: () => UserSession[]) =>
  (call: StubCall): { body: UserSessionsResponse } => {
    const page = Number(call.query.get('page') ?? 1);
    const all = list();
    return {
      body: {
        data: all.slice((page - 1) * SESSIONS_PER_PAGE, page * SESSIONS_PER_PAGE),
        meta: { page, per_page: SESSIONS_PER_PAGE, total: all.length },
        others: all.filter((s) => !s.current).length,
      },
    };
  };

export function securityEvent(overrides: Partial<SecurityEvent> = {}): SecurityEvent {
  return {
    id: 1,
    kind: 'sign_in',
    at: '2026-11-23T10:30:00.000Z',
    ip: '203.0.113.7',
    browser: 'Chrome',
    os: 'Windows',
    current_session: true,
    detail: {},
    ...overrides,
  };
}

/** The account's activity, newest first, as the API lists it. */
export const ACTIVITY: SecurityEvent[] = [
  securityEvent({
    id: 3,
    kind: 'sign_in_failed',
    at: '2026-11-24T03:12:00.000Z',
    ip: '198.51.100.23',
    browser: null,
    os: 'Linux',
    current_session: false,
  }),
  securityEvent({ id: 2, kind: 'password_changed', at: '2026-11-23T11:00:00.000Z' }),
  securityEvent(),
];

/** GET /user/activity as the API answers it: the page asked for of `list`. */
export const activityAnswer =
  (list: () => SecurityEvent[]) =>
  (call: StubCall): { body: SecurityEventsResponse } => {
    const page = Number(call.query.get('page') ?? 1);
    const all = list();
    return {
      body: {
        data: all.slice((page - 1) * SECURITY_EVENTS_PER_PAGE, page * SECURITY_EVENTS_PER_PAGE),
        meta: { page, per_page: SECURITY_EVENTS_PER_PAGE, total: all.length },
      },
    };
  };

/** The second factor of an account that has none (GET /user/factors). */
export const NO_FACTORS: FactorsResponse = {
  totp: { enabled: false, since: null },
  passkeys: [],
  recovery_codes: { left: 0, created_at: null },
};

export function passkeyItem(overrides: Partial<PasskeyItem> = {}): PasskeyItem {
  return {
    id: 7,
    name: 'Work laptop',
    created_at: '2026-11-21T09:00:00.000Z',
    last_used_at: null,
    ...overrides,
  };
}

/** The chat-bot section's status when no bot is configured (its own tests: chat-bot-section.test.tsx). */
const TELEGRAM_OFF = {
  enabled: false,
  account: { linked: false, title: null, linked_at: null, bot_link: null },
  monitoring: { linked: false, title: null, linked_at: null, bot_link: null },
};

type Reply = { status?: number; body?: unknown };

/**
 * The profile's API for `user.current` (the user stub answers whatever it is when asked, so a
 * test changes it as the server would); `routes` replace. An avatar upload is answered by
 * `onUpload` with the file the form carried. (jsdom's FormData does not survive the Request that
 * RTK Query builds, so the file is taken where the component appends it.)
 */
export function stubProfileApi(
  routes: Record<string, Handler> = {},
  options: { user?: { current: User }; onUpload?: (file: File) => Reply | Promise<Reply> } = {},
) {
  const user = options.user ?? { current: USER };
  const api = stubFetch({
    'GET /user/auth': () => ({ body: user.current }),
    'GET /front/permissions': { body: { partner: true, monitoring: true } },
    'GET /user/alert': { body: { alert: null } },
    'GET /user/sessions': sessionsAnswer(() => SESSIONS),
    'GET /user/activity': activityAnswer(() => ACTIVITY),
    'GET /user/telegram': { body: TELEGRAM_OFF },
    'GET /user/factors': { body: NO_FACTORS },
    ...routes,
  });
  const uploads: File[] = [];
  const appended: unknown[] = [];
  const JsdomFormData = globalThis.FormData;
  vi.stubGlobal(
    'FormData',
    class extends JsdomFormData {
      override append(name: string, value: string | Blob, filename?: string) {
        if (name === 'file') appended.push(value);
        if (filename === undefined) super.append(name, value as string);
        else super.append(name, value as Blob, filename);
      }
    },
  );
  const stubbed = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    if (request.method !== 'POST' || new URL(request.url).pathname !== '/api/user/avatar')
      return stubbed(request);
    const file = appended.at(-1) as File;
    uploads.push(file);
    const reply = options.onUpload
      ? await options.onUpload(file)
      : { status: 500, body: { message: 'no upload expected', code: 'INTERNAL' } };
    return new Response(JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  return { ...api, uploads, user };
}

/** The profile page, signed in. */
export function renderProfile(options: RenderPageOptions = {}) {
  return renderSignedInPage(
    [{ path: '/profile', Component: ProfilePage }],
    '/profile',
    'profile-test-token',
    options,
  );
}

/** jsdom has no object URLs: a fake one per file, for the preview. */
export function stubObjectUrls() {
  const create = vi.fn((file: Blob) => `blob:preview-${(file as File).name}`);
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
