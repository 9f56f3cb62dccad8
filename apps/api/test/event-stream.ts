import { get, type IncomingMessage } from 'node:http';

/** The live updates' stream (GET /api/user/events, server-sent events). */
export const EVENTS = '/api/user/events';

export interface Received {
  event: string;
  data: unknown;
}

/** A console tab's stream: what it has received, parsed as the browser would. */
export interface Stream {
  status: number;
  contentType: string | null;
  events: Received[];
  /** The raw text received so far (comments included). */
  text: () => string;
  /** True once the server has ended the stream. */
  ended: () => boolean;
  /** The next event named `name` not yet taken (waits for it). */
  next(name: string, timeoutMs?: number): Promise<unknown>;
  close(): void;
}

/** Opens the stream at `baseUrl` (an instance, or a proxy in front of some) with a bearer token. */
export async function openEventStream(baseUrl: string, token: string | null): Promise<Stream> {
  // node:http with a connection of its own (no keep-alive pool): closing it ends that connection
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const request = get(`${baseUrl}${EVENTS}`, {
      agent: false,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    request.on('response', resolve).on('error', reject);
  });
  const events: Received[] = [];
  let raw = '';
  let buffer = '';
  const waiters = new Set<() => void>();
  response.setEncoding('utf8');
  response.on('error', () => {});
  let ended = false;
  response.on('end', () => {
    ended = true;
  });
  response.on('data', (value: string) => {
    raw += value;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
      const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
      if (event && data !== undefined && response.statusCode === 200)
        events.push({ event, data: JSON.parse(data) });
    }
    for (const wake of [...waiters]) wake();
  });
  const taken = new Set<Received>();
  return {
    status: response.statusCode ?? 0,
    contentType: response.headers['content-type'] ?? null,
    events,
    text: () => raw,
    ended: () => ended,
    async next(name, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find((e) => e.event === name && !taken.has(e));
        if (found) {
          taken.add(found);
          return found.data;
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no '${name}' event within ${timeoutMs} ms: ${raw}`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
    },
    close: () => response.destroy(),
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds (subscriptions end asynchronously after a client leaves). */
export async function eventually(check: () => boolean, timeoutMs = 3000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('the condition did not hold in time');
    await pause(20);
  }
}
