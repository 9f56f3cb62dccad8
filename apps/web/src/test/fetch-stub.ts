import { vi } from 'vitest';

/** One answer of the stub: a status and a JSON body (or a thrown network failure). */
export type Reply = { status?: number; body?: unknown } | 'network-error';
export type Handler = Reply | ((call: StubCall) => Reply | Promise<Reply>);

export interface StubCall {
  method: string;
  /** The path under /api, e.g. /user/auth */
  path: string;
  /** The query string's parameters. */
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
  /** Sent to outlive the page (RequestInit.keepalive). */
  keepalive: boolean;
}

/**
 * Replaces the global fetch for a test. `routes` maps "METHOD /path" (the path under /api) to a
 * reply or a function of the call; anything else answers 404 in the API's error shape.
 */
export function stubFetch(routes: Record<string, Handler> = {}) {
  const calls: StubCall[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const text = await request.clone().text();
    const call: StubCall = {
      method: request.method,
      path: url.pathname.replace(/^\/api/, ''),
      query: url.searchParams,
      headers: request.headers,
      body: text ? (JSON.parse(text) as unknown) : undefined,
      keepalive: request.keepalive,
    };
    calls.push(call);
    const handler = routes[`${call.method} ${call.path}`] ?? {
      status: 404,
      body: { message: 'Not found', code: 'NOT_FOUND' },
    };
    const reply = typeof handler === 'function' ? await handler(call) : handler;
    if (reply === 'network-error') throw new TypeError('Failed to fetch');
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchStub);
  return {
    calls,
    callsTo: (method: string, path: string) =>
      calls.filter((c) => c.method === method && c.path === path),
  };
}

export interface SentRequest {
  method: string;
  url: URL;
  headers: Headers;
}

/**
 * stubFetch, and every request also kept with its whole URL (the stub keeps the path only), for
 * the query strings; `raw` answers "METHOD /path" with a Response of its own (a file).
 */
export function stubFetchKeepingRequests(
  routes: Record<string, Handler>,
  raw: Record<string, (request: Request) => Response> = {},
) {
  const api = stubFetch(routes);
  const stubbed = globalThis.fetch;
  const requests: SentRequest[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    requests.push({ method: request.method, url, headers: request.headers });
    const answer = raw[`${request.method} ${url.pathname.replace(/^\/api/, '')}`];
    return answer ? answer(request) : stubbed(request);
  });
  return {
    ...api,
    requests,
    /** The query parameters of each request to `path` (under /api), in order. */
    queries: (method: string, path: string) =>
      requests
        .filter((r) => r.method === method && r.url.pathname === `/api${path}`)
        .map((r) => r.url.searchParams),
  };
}

/** A promise the test resolves when it wants (to hold a call in flight). */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
