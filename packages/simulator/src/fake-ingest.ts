import {
  ingestDealsSchema,
  ingestHelloSchema,
  ingestSnapshotSchema,
  type IngestDeal,
  type IngestSnapshot,
} from '@tradehost/contracts';
import type { HttpAnswer, Transport } from './expert-advisor.ts';

/**
 * The ingestion API as the simulator's unit tests need it, in memory: the real schemas and
 * refusals (401 unknown key, 402 ended, 404 not added, 413 over the body limit, 422 invalid),
 * the deals kept once per ticket, the snapshots in order. `failNext` scripts answers for the
 * next calls (a 503, a 429 with Retry-After, a 413).
 */
export interface FakeIngestOptions {
  key: string;
  login: number;
  account?: 'added' | 'later';
  subscription?: 'running' | 'ended';
  /** The snapshot route's body limit (bytes); the deals route takes 512 KiB. */
  snapshotLimit?: number;
}

export function createFakeIngest(options: FakeIngestOptions) {
  const state = {
    key: options.key,
    added: options.account !== 'later',
    ended: options.subscription === 'ended',
    snapshotLimit: options.snapshotLimit ?? 1024 * 1024,
  };
  const deals = new Map<number, IngestDeal>();
  const snapshots: IngestSnapshot[] = [];
  const scripted: Array<{ path: string; answer: HttpAnswer }> = [];
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const refusal = (status: number, code: string, message: string) =>
    json(status, { code, message });

  const transport: Transport = async (url, request) => {
    const match = /^https?:\/\/[^/]+\/api\/ingest\/v1\/(hello|deals|snapshot)$/.exec(url);
    if (!match) return refusal(404, 'NOT_FOUND', 'Not found');
    const path = match[1]!;
    const at = scripted.findIndex((s) => s.path === path || s.path === '*');
    if (at >= 0) return scripted.splice(at, 1)[0]!.answer;
    const limit =
      path === 'deals' ? 512 * 1024 : path === 'snapshot' ? state.snapshotLimit : 65_536;
    if (Buffer.byteLength(request.body) > limit)
      return refusal(413, 'PAYLOAD_TOO_LARGE', 'Request body is too large');
    if (request.headers.authorization !== `Bearer ${state.key}`)
      return refusal(401, 'MONITORING_KEY_UNKNOWN', 'Unknown activation key');
    const body = JSON.parse(request.body) as unknown;
    const schema =
      path === 'hello'
        ? ingestHelloSchema
        : path === 'deals'
          ? ingestDealsSchema
          : ingestSnapshotSchema;
    const parsed = schema.safeParse(body);
    if (!parsed.success) return refusal(422, 'VALIDATION', 'Validation failed');
    if (state.ended)
      return refusal(
        402,
        'MONITORING_SUBSCRIPTION_ENDED',
        'The subscription has ended: renew it to continue',
      );
    const login = (body as { login: number }).login;
    if (!state.added || login !== options.login)
      return refusal(
        404,
        'MONITORING_LOGIN_NOT_ADDED',
        `Account ${login} is not added to this subscription: add it in the console first`,
      );
    if (path === 'hello') {
      const last = deals.size === 0 ? null : Math.max(...deals.keys());
      return json(200, {
        account_id: 1,
        monitoring_id: 'fake',
        last_ticket: last,
        snapshot_every_sec: 10,
        full_resync: last === null,
      });
    }
    if (path === 'deals') {
      let accepted = 0;
      for (const deal of (parsed.data as { deals: IngestDeal[] }).deals)
        if (!deals.has(deal.ticket)) {
          deals.set(deal.ticket, deal);
          accepted += 1;
        }
      const sent = (parsed.data as { deals: IngestDeal[] }).deals.length;
      return json(200, { accepted, duplicate: sent - accepted });
    }
    snapshots.push(parsed.data as IngestSnapshot);
    return json(200, { stored: true });
  };

  return {
    transport,
    state,
    /** The deals stored, by time then ticket. */
    deals: () =>
      [...deals.values()].sort((a, b) => a.time.localeCompare(b.time) || a.ticket - b.ticket),
    snapshots: snapshots as readonly IngestSnapshot[],
    /** The next call to `path` ('*': any) gets this answer. */
    failNext(
      path: string,
      status: number,
      headers: Record<string, string> = {},
      body: unknown = {},
    ) {
      scripted.push({ path, answer: json(status, body, headers) });
    },
  };
}
