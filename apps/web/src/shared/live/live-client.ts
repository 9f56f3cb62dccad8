import { isLiveEventName, type LiveEvent } from '@tradehost/contracts';
import { createSseParser } from './sse-parser';

/** `connecting` until the first stream opens, `open` while one is, `down` between attempts. */
export type LiveState = 'connecting' | 'open' | 'down';

export interface LiveClientOptions {
  /** The live updates' address (`/api/user/events`). */
  url: string;
  /** The current access token (it may change between attempts: refreshed), or null when none. */
  token: () => string | null;
  onEvent: (event: LiveEvent) => void;
  /** Each change of the state; `open` after a drop means updates may have been missed. */
  onState: (state: LiveState) => void;
  /** The stream was refused with 401: the token may have expired (the next attempt takes the current one). */
  onUnauthorized?: () => void;
  fetch?: typeof fetch;
  /** Pauses before the attempts after a failure, the last one repeated. */
  backoffMs?: readonly number[];
  /** A stream silent this long (no heartbeat) is taken for dead and opened again. */
  silenceMs?: number;
  /** How the client waits (tests pass fake timers' setTimeout). */
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

export const BACKOFF_MS = [1_000, 2_000, 5_000, 10_000, 30_000] as const;
/** Two heartbeats of the API (25 s) and some. */
export const SILENCE_MS = 60_000;

/**
 * One live-updates connection (GET /api/user/events read with fetch, so the bearer token goes in
 * the Authorization header, never in the URL): events go to `onEvent`; when the stream cannot
 * open or drops, it tries again with a growing pause (BACKOFF_MS, reset once a stream opens).
 * Returns the function that stops it.
 */
export function startLiveClient(options: LiveClientOptions): () => void {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const backoff = options.backoffMs ?? BACKOFF_MS;
  const silenceMs = options.silenceMs ?? SILENCE_MS;
  const setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as number));
  let stopped = false;
  let failures = 0;
  let state: LiveState | undefined;
  let abort: AbortController | undefined;
  let retryTimer: unknown;

  const setState = (next: LiveState) => {
    if (state === next) return;
    state = next;
    options.onState(next);
  };

  function later() {
    if (stopped) return;
    setState('down');
    const pause = backoff[Math.min(failures, backoff.length - 1)] ?? 30_000;
    failures += 1;
    retryTimer = setTimer(() => void attempt(), pause);
  }

  async function attempt() {
    if (stopped) return;
    const token = options.token();
    if (!token) return later();
    abort = new AbortController();
    const controller = abort;
    let silence: unknown;
    const watch = () => {
      if (silence !== undefined) clearTimer(silence);
      silence = setTimer(() => controller.abort(), silenceMs);
    };
    try {
      const response = await doFetch(options.url, {
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        signal: controller.signal,
        cache: 'no-store',
        // a stream that stays open, for later changes: the page's own data goes first, and tools
        // that wait for a page's critical requests (Lighthouse) do not wait on it
        priority: 'low',
      });
      if (!response.ok || !response.body) {
        // 401 (a token just expired: the next attempt takes the refreshed one), 429, 503
        void response.body?.cancel().catch(() => {});
        if (response.status === 401) options.onUnauthorized?.();
        return later();
      }
      failures = 0;
      setState('open');
      watch();
      const parser = createSseParser(({ event, data }) => {
        if (!isLiveEventName(event)) return;
        let parsed: unknown;
        try {
          parsed = JSON.parse(data);
        } catch {
          return;
        }
        if (parsed && typeof parsed === 'object')
          options.onEvent({ event, data: parsed } as LiveEvent);
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        watch();
        parser.push(value);
      }
    } catch {
      // offline, aborted (stopped, or silent too long): tried again below unless stopped
    } finally {
      if (silence !== undefined) clearTimer(silence);
    }
    later();
  }

  // a page being left ends its stream at once (a low-priority request left open can hold up the
  // tab's closing); a page restored from the back-forward cache opens it again through later()
  const leave = () => abort?.abort();
  globalThis.addEventListener?.('pagehide', leave);
  setState('connecting');
  void attempt();
  return () => {
    stopped = true;
    globalThis.removeEventListener?.('pagehide', leave);
    if (retryTimer !== undefined) clearTimer(retryTimer);
    abort?.abort();
  };
}
