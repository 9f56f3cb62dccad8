import {
  INGEST_DEALS_MAX,
  type IngestDeal,
  type IngestHello,
  type IngestHelloResponse,
  type IngestSnapshot,
} from '@tradehost/contracts';

/**
 * The publisher's side of the ingestion protocol, as the Expert Advisors speak it: Bearer
 * activation key, JSON, deals in batches of at most INGEST_DEALS_MAX after the server's
 * last_ticket. Server errors (5xx, a dropped connection) are retried with backoff, a 429 after
 * its Retry-After; any other 4xx is final and its message is what the terminal would show.
 * A one-shot client for the CLI, the demo, the bench and the journeys: how the Expert Advisor
 * 1.2 lives with refusals over days (retried slowly, batches set aside) is expert-advisor.ts.
 */

export class PublisherRefused extends Error {
  readonly status: number;
  readonly code: string | undefined;
  constructor(status: number, code: string | undefined, message: string) {
    super(message);
    this.name = 'PublisherRefused';
    this.status = status;
    this.code = code;
  }
}

export interface PublisherOptions {
  /** The server's origin, e.g. http://localhost:8080 */
  url: string;
  key: string;
  /** Pauses before retrying a server error (ms); the last one repeats. */
  backoffMs?: readonly number[];
  /** Attempts per call before giving up (server errors only). */
  attempts?: number;
  sleep?: (ms: number) => Promise<void>;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createPublisher(options: PublisherOptions) {
  const backoff = options.backoffMs ?? [1000, 2000, 5000, 15_000, 60_000];
  const attempts = options.attempts ?? 8;
  const sleep = options.sleep ?? pause;
  const origin = options.url.replace(/\/+$/, '');

  async function call<T>(path: string, body: unknown): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      let response: Response | undefined;
      try {
        response = await fetch(`${origin}/api/ingest/v1/${path}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${options.key.trim()}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify(body),
        });
      } catch (error) {
        if (attempt >= attempts) throw error;
      }
      if (response?.ok) return (await response.json()) as T;
      if (response && response.status < 500 && response.status !== 429) {
        const refusal = (await response.json().catch(() => ({}))) as {
          code?: string;
          message?: string;
        };
        throw new PublisherRefused(
          response.status,
          refusal.code,
          refusal.message ?? `HTTP ${response.status}`,
        );
      }
      if (attempt >= attempts)
        throw new Error(`${path}: the server answered ${response?.status} ${attempts} times`);
      const retryAfter = Number(response?.headers.get('retry-after'));
      await sleep(
        response?.status === 429 && retryAfter > 0
          ? retryAfter * 1000
          : backoff[Math.min(attempt - 1, backoff.length - 1)]!,
      );
    }
  }

  return {
    hello: (hello: IngestHello) => call<IngestHelloResponse>('hello', hello),

    /** Sends the deals after `lastTicket` (all when null), oldest first, in full batches. */
    async deals(login: number, deals: readonly IngestDeal[], lastTicket: number | null = null) {
      const due = deals.filter((d) => lastTicket === null || d.ticket > lastTicket);
      let accepted = 0;
      let duplicate = 0;
      for (let i = 0; i < due.length; i += INGEST_DEALS_MAX) {
        const answer = await call<{ accepted: number; duplicate: number }>('deals', {
          login,
          deals: due.slice(i, i + INGEST_DEALS_MAX),
        });
        accepted += answer.accepted;
        duplicate += answer.duplicate;
      }
      return { accepted, duplicate, sent: due.length };
    },

    snapshot: (snapshot: IngestSnapshot) => call<{ stored: boolean }>('snapshot', snapshot),
  };
}

export type Publisher = ReturnType<typeof createPublisher>;
