import type { LiveEvent } from '@tradehost/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startLiveClient, type LiveState } from './live-client';

/** A response whose body the test writes to, as the API's stream would arrive. */
function streamResponse() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    response: new Response(body, {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
    }),
    write: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
    /** What a real fetch's body does when its request is aborted. */
    fail: (reason: unknown) => controller.error(reason),
  };
}

const until = async (check: () => boolean) => {
  await vi.waitFor(() => {
    if (!check()) throw new Error('not yet');
  });
};

describe('the live-updates client', () => {
  const stops: (() => void)[] = [];
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
  });

  function start(fetch: typeof globalThis.fetch, token: () => string | null = () => 'tok-1') {
    const events: LiveEvent[] = [];
    const states: LiveState[] = [];
    stops.push(
      startLiveClient({
        url: 'http://localhost/api/user/events',
        token,
        fetch,
        backoffMs: [5, 10, 20],
        onEvent: (event) => events.push(event),
        onState: (state) => states.push(state),
      }),
    );
    return { events, states };
  }

  it('ends its stream when the page is left (pagehide), and opens another after', async () => {
    const first = streamResponse();
    const second = streamResponse();
    const fetch = vi
      .fn<typeof globalThis.fetch>()
      .mockResolvedValueOnce(first.response)
      .mockResolvedValueOnce(second.response);
    const { states } = start(fetch);
    await until(() => states.includes('open'));
    const signal = fetch.mock.calls[0]![1]!.signal!;
    signal.addEventListener('abort', () => first.fail(signal.reason));
    expect(signal.aborted).toBe(false);
    window.dispatchEvent(new Event('pagehide'));
    expect(signal.aborted).toBe(true);
    await until(() => states.includes('down'));
    await until(() => fetch.mock.calls.length === 2);
  });

  it('sends the token in the Authorization header (never in the URL) and passes the events on', async () => {
    const stream = streamResponse();
    const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValue(stream.response);
    const { events, states } = start(fetch);
    await until(() => states.includes('open'));
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('http://localhost/api/user/events');
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer tok-1');
    // long-lived: behind the page's own requests, and not one a page load waits for
    expect(init?.priority).toBe('low');
    stream.write('retry: 3000\n: connected\n\nevent: balance\ndata: {"balance":12.5}\n\n');
    stream.write(': heartbeat\n\nevent: unknown\ndata: {}\n\nevent: ticket\ndata: not json\n\n');
    stream.write('event: server\ndata: {"id":4,"status":"active","power":"stopped"}\n\n');
    await until(() => events.length === 2);
    expect(events).toEqual([
      { event: 'balance', data: { balance: 12.5 } },
      { event: 'server', data: { id: 4, status: 'active', power: 'stopped' } },
    ]);
    expect(states).toEqual(['connecting', 'open']);
  });

  it('goes down when the stream drops and opens again after a pause, with the current token', async () => {
    const first = streamResponse();
    const second = streamResponse();
    let token = 'tok-1';
    const fetch = vi
      .fn<typeof globalThis.fetch>()
      .mockResolvedValueOnce(first.response)
      .mockRejectedValueOnce(new TypeError('offline'))
      .mockResolvedValueOnce(new Response('{"code":"UNAUTHORIZED"}', { status: 401 }))
      .mockResolvedValueOnce(second.response);
    const { events, states } = start(fetch, () => token);
    await until(() => states.includes('open'));
    token = 'tok-2';
    first.end();
    await until(() => fetch.mock.calls.length === 4 && states.at(-1) === 'open');
    expect(states).toEqual(['connecting', 'open', 'down', 'open']);
    expect(new Headers(fetch.mock.calls[3]![1]?.headers).get('authorization')).toBe('Bearer tok-2');
    second.write('event: monitoring\ndata: {"account_id":3}\n\n');
    await until(() => events.length === 1);
    expect(events[0]).toEqual({ event: 'monitoring', data: { account_id: 3 } });
  });

  it('waits longer after each failure (backoff) and does not connect without a token', async () => {
    const times: number[] = [];
    const fetch = vi.fn<typeof globalThis.fetch>(async () => {
      times.push(Date.now());
      return new Response('', { status: 503 });
    });
    let token: string | null = null;
    const { states } = start(fetch, () => token);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(fetch).not.toHaveBeenCalled();
    expect(states).toEqual(['connecting', 'down']);
    token = 'tok';
    await until(() => fetch.mock.calls.length >= 4);
    const gaps = times.slice(1).map((at, i) => at - times[i]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(15);
    expect(gaps[1]).toBeGreaterThanOrEqual(15);
  });

  it('stops: no more attempts, the stream is aborted', async () => {
    const stream = streamResponse();
    const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValue(stream.response);
    const { states } = start(fetch);
    await until(() => states.includes('open'));
    const signal = fetch.mock.calls[0]![1]?.signal;
    stops.pop()!();
    expect(signal?.aborted).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
