import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  computeStatistics,
  ingestDealsSchema,
  ingestSnapshotSchema,
  statDealOf,
  type IngestDeal,
} from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { generateHistory, random, snapshotAt } from './history.ts';
import { createPublisher, PublisherRefused } from './publisher.ts';

const from = new Date('2026-01-01T00:00:00.000Z');
const to = new Date('2026-07-01T00:00:00.000Z');

describe('the generated history', () => {
  it('is the same for a seed, different for another, and valid for the protocol', () => {
    const a = generateHistory({ seed: 7, platform: 'MT5', from, to });
    const b = generateHistory({ seed: 7, platform: 'MT5', from, to });
    const c = generateHistory({ seed: 8, platform: 'MT5', from, to });
    expect(a).toEqual(b);
    expect(c.deals).not.toEqual(a.deals);
    expect(a.deals.length).toBeGreaterThan(300);
    for (let i = 0; i < a.deals.length; i += 500)
      expect(
        ingestDealsSchema.safeParse({ login: 1, deals: a.deals.slice(i, i + 500) }).success,
      ).toBe(true);
    const tickets = a.deals.map((d) => d.ticket);
    expect(new Set(tickets).size).toBe(tickets.length);
    expect(a.deals.every((d) => d.time >= from.toISOString() && d.time < to.toISOString())).toBe(
      true,
    );
  });

  it('keeps its books: the balance is the sum of its deals, and the statistics see every trade', () => {
    const history = generateHistory({ seed: 11, platform: 'MT5', from, to });
    const money = (d: (typeof history.deals)[number]) => d.profit + d.swap + d.commission + d.fee;
    const total = history.deals
      .filter((d) => d.type !== 'credit')
      .reduce((s, d) => s + money(d), 0);
    expect(history.balance).toBeCloseTo(total, 6);
    const deals = history.deals.map(statDealOf);
    const s = computeStatistics({ deals, snapshots: [], now: to.getTime(), timeZone: 'UTC' });
    const opens = history.deals.filter(
      (d) => d.entry === 'in' && (d.type === 'buy' || d.type === 'sell'),
    );
    expect(s.trades.count).toBe(opens.length);
    expect(s.balance).toBeCloseTo(history.balance, 6);
    expect(s.deposits).toBeGreaterThanOrEqual(10_000);
    // a trader with a slight edge, not a lottery: the gain stays within sane bounds
    expect(s.gain).toBeGreaterThan(-0.9);
    expect(s.gain).toBeLessThan(20);
  });

  it('snapshots are valid for the protocol and carry the balance and credit', () => {
    const history = generateHistory({ seed: 3, platform: 'MT4', from, to });
    const snapshot = snapshotAt(history, 42, to, random(1));
    expect(ingestSnapshotSchema.safeParse(snapshot).success).toBe(true);
    expect(snapshot.balance).toBe(history.balance);
    expect(snapshot.credit).toBe(500);
    expect(snapshot.positions).toHaveLength(1);
    // its position's excursions as publisher 1.4 tells them: beyond where it floats, each way
    const [position] = snapshot.positions;
    expect(position!.mae!).toBeLessThanOrEqual(Math.min(0, position!.profit));
    expect(position!.mfe!).toBeGreaterThanOrEqual(Math.max(0, position!.profit));
  });

  it('closing deals carry their excursions (from `excursionsFrom` on), the walk unchanged by them', () => {
    const plain = generateHistory({ seed: 9, platform: 'MT5', from, to });
    const half = new Date((from.getTime() + to.getTime()) / 2);
    const later = generateHistory({ seed: 9, platform: 'MT5', from, to, excursionsFrom: half });
    const without = ({ mae: _a, mfe: _b, mae_points: _c, mfe_points: _d, ...rest }: IngestDeal) =>
      rest;
    expect(later.deals.map(without)).toEqual(plain.deals.map(without));
    const outs = plain.deals.filter((d) => d.entry === 'out');
    expect(outs.length).toBeGreaterThan(100);
    for (const d of outs) {
      const point = 10 ** -d.digits;
      const open = plain.deals.find((o) => o.position_id === d.position_id && o.entry === 'in')!;
      const move = ((d.price - open.price) * (d.type === 'sell' ? 1 : -1)) / point;
      // the close is within the extremes, in points and in money
      expect(d.mae_points!).toBeLessThanOrEqual(Math.min(0, move) + 1e-6);
      expect(d.mfe_points!).toBeGreaterThanOrEqual(Math.max(0, move) - 1e-6);
      expect(d.mae!).toBeLessThanOrEqual(0);
      expect(d.mfe!).toBeGreaterThanOrEqual(0);
      expect(d.mae!).toBeLessThanOrEqual(Math.min(0, d.profit) + 0.01);
      expect(d.mfe!).toBeGreaterThanOrEqual(Math.max(0, d.profit) - 0.01);
    }
    // an opening deal or a flow carries none; before `excursionsFrom` a closing deal none either
    expect(plain.deals.filter((d) => d.entry !== 'out').every((d) => d.mae === undefined)).toBe(
      true,
    );
    const told = later.deals.filter((d) => d.entry === 'out' && d.mae !== undefined);
    expect(told.length).toBeGreaterThan(0);
    expect(told.length).toBeLessThan(outs.length);
    expect(told.every((d) => d.time >= half.toISOString())).toBe(true);
  });
});

/** A server answering each request from `answers` in turn, recording what it was sent. */
async function scripted(answers: Array<[number, object, Record<string, string>?]>) {
  const seen: Array<{ path: string; auth: string; body: unknown }> = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      seen.push({
        path: req.url ?? '',
        auth: req.headers.authorization ?? '',
        body: JSON.parse(text),
      });
      const [status, body, headers] = answers.shift() ?? [500, {}];
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('the publisher', () => {
  it('retries server errors with backoff and a 429 after its Retry-After, never a 4xx', async () => {
    const server = await scripted([
      [503, {}],
      [429, { code: 'TOO_MANY_REQUESTS' }, { 'retry-after': '7' }],
      [200, { stored: true }],
      [
        402,
        {
          code: 'MONITORING_SUBSCRIPTION_ENDED',
          message: 'The subscription has ended: renew it to continue',
        },
      ],
    ]);
    const pauses: number[] = [];
    const publisher = createPublisher({
      url: server.url,
      key: 'mk_test',
      backoffMs: [100, 200],
      sleep: async (ms) => {
        pauses.push(ms);
      },
    });
    const history = generateHistory({ seed: 1, platform: 'MT5', from, to });
    const snapshot = snapshotAt(history, 1, to, random(1));
    expect(await publisher.snapshot(snapshot)).toEqual({ stored: true });
    expect(pauses).toEqual([100, 7000]);
    const refused = await publisher.snapshot(snapshot).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PublisherRefused);
    expect(refused).toMatchObject({ status: 402, code: 'MONITORING_SUBSCRIPTION_ENDED' });
    expect((refused as Error).message).toBe('The subscription has ended: renew it to continue');
    expect(server.seen).toHaveLength(4);
    expect(
      server.seen.every((r) => r.path === '/api/ingest/v1/snapshot' && r.auth === 'Bearer mk_test'),
    ).toBe(true);
    await server.close();
  });

  it('sends the deals after the last ticket in batches of 500', async () => {
    const history = generateHistory({ seed: 5, platform: 'MT5', from, to, tradesPerDay: 6 });
    expect(history.deals.length).toBeGreaterThan(1000);
    const last = history.deals[99]!.ticket;
    const due = history.deals.length - 100;
    const batches = Math.ceil(due / 500);
    const server = await scripted(
      Array.from(
        { length: batches },
        () => [200, { accepted: 1, duplicate: 0 }] as [number, object],
      ),
    );
    const publisher = createPublisher({ url: server.url, key: 'mk_test' });
    const sent = await publisher.deals(9, history.deals, last);
    expect(sent).toEqual({ accepted: batches, duplicate: 0, sent: due });
    const bodies = server.seen.map(
      (r) => r.body as { login: number; deals: Array<{ ticket: number }> },
    );
    expect(bodies.map((b) => b.deals.length).reduce((a, b) => a + b, 0)).toBe(due);
    expect(bodies.every((b) => b.login === 9 && b.deals.length <= 500)).toBe(true);
    expect(bodies[0]!.deals[0]!.ticket).toBe(history.deals[100]!.ticket);
    await server.close();
  });
});
