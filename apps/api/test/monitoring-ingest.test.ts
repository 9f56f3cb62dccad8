import { describe, expect, it } from 'vitest';
import { fund, postKeyed, quickUser, refusal, useTestApp } from './helpers.ts';
import {
  at,
  deal,
  DEALS,
  handComputedHistory,
  hello,
  HELLO,
  publisherOf,
  send,
  snapshot,
  SNAPSHOT,
} from './monitoring-fixtures.ts';

describe('the ingestion protocol', () => {
  const t = useTestApp();

  it('hello: the account, where to start, and how often to send snapshots', async () => {
    const { key, account } = await publisherOf(t);
    const res = await send(t, HELLO, key, hello());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      account_id: account.id,
      monitoring_id: account.monitoring_id,
      last_ticket: null,
      snapshot_every_sec: 10,
      full_resync: true,
    });
    const { rows } = await t.sql.query(
      'select server, company, currency, leverage, ea_version from monitoring_accounts where id = $1',
      [account.id],
    );
    expect(rows[0]).toEqual({
      server: 'Broker-Live',
      company: 'Broker Ltd',
      currency: 'USD',
      leverage: 500,
      ea_version: '1.0.0',
    });
  });

  it('refuses an unknown key (401), an account not added (404 naming it), and another subscription’s account (409)', async () => {
    const { key } = await publisherOf(t, 7001);
    expect(await send(t, HELLO, 'mk_not-a-key-at-all', hello())).toMatchObject({
      status: 401,
      body: refusal('MONITORING_KEY_UNKNOWN'),
    });
    expect(await t.api.post(HELLO, hello())).toMatchObject({ status: 401 });
    const missing = await send(t, HELLO, key, hello({ login: 7002 }));
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('MONITORING_LOGIN_NOT_ADDED');
    expect(missing.body.message).toContain('7002');

    // the same login on the same server, reported under someone else's key
    expect((await send(t, HELLO, key, hello({ login: 7001 }))).status).toBe(200);
    const other = await publisherOf(t, 7001);
    expect(await send(t, HELLO, other.key, hello({ login: 7001 }))).toMatchObject({
      status: 409,
      body: refusal('MONITORING_LOGIN_ELSEWHERE'),
    });
    // on another server it is another account
    expect(
      (await send(t, HELLO, other.key, hello({ login: 7001, server: 'Broker-Demo' }))).status,
    ).toBe(200);
  });

  it('deals: stored once per ticket, counted as accepted or duplicate', async () => {
    const { key, account } = await publisherOf(t, 8001);
    const batch = [
      deal(1),
      deal(2, {
        type: 'buy',
        entry: 'in',
        symbol: 'EURUSD',
        digits: 5,
        volume: 0.1,
        price: 1.1,
        profit: 0,
        equity_before: null,
      }),
      deal(3, { profit: -200 }),
    ];
    expect((await send(t, DEALS, key, { login: 8001, deals: batch })).body).toEqual({
      accepted: 3,
      duplicate: 0,
    });
    expect((await send(t, DEALS, key, { login: 8001, deals: batch })).body).toEqual({
      accepted: 0,
      duplicate: 3,
    });
    expect(
      (await send(t, DEALS, key, { login: 8001, deals: [deal(3), deal(4), deal(4)] })).body,
    ).toEqual({ accepted: 1, duplicate: 2 });
    const { rows } = await t.sql.query(
      'select ticket, type, profit from monitoring_deals where account_id = $1 order by ticket',
      [account.id],
    );
    expect(rows.map((r) => [Number(r.ticket), r.type, r.profit])).toEqual([
      [1, 'balance', 1000],
      [2, 'buy', 0],
      [3, 'balance', -200],
      [4, 'balance', 1000],
    ]);
    const again = await send(t, HELLO, key, hello({ login: 8001 }));
    expect(again.body).toMatchObject({ last_ticket: 4, full_resync: false });
  });

  it('a malformed batch is refused whole: nothing stored', async () => {
    const { key, account } = await publisherOf(t, 8101);
    for (const deals of [
      [deal(1), deal(2, { type: 'rebate' })],
      [deal(1), deal(2, { magic: '1.5' })],
      [deal(1), deal(2, { magic: '9223372036854775808' })],
      [deal(1), deal(2, { time: '2026-01-05 09:00' })],
      Array.from({ length: 501 }, (_, i) => deal(i + 1)),
    ]) {
      const res = await send(t, DEALS, key, { login: 8101, deals });
      expect(res.status).toBe(422);
    }
    const { rows } = await t.sql.query(
      'select count(*)::int as n from monitoring_deals where account_id = $1',
      [account.id],
    );
    expect(rows[0].n).toBe(0);
    // 500 deals fit in one call
    const full = Array.from({ length: 500 }, (_, i) => deal(i + 1, { comment: 'x'.repeat(64) }));
    expect((await send(t, DEALS, key, { login: 8101, deals: full })).body.accepted).toBe(500);
    // MT5's 64-bit magic number, sent as digits, is stored whole
    const magic = '-9223372036854775808';
    expect((await send(t, DEALS, key, { login: 8101, deals: [deal(501, { magic })] })).status).toBe(
      200,
    );
    const stored = await t.sql.query(
      'select magic::text from monitoring_deals where account_id = $1 and ticket = 501',
      [account.id],
    );
    expect(stored.rows[0].magic).toBe(magic);
  });

  it('excursions (1.4): kept on the closing deals, as sent; an older publisher’s deals and positions without them; bad ones refused whole', async () => {
    const { key, account } = await publisherOf(t, 8201);
    const side = (ticket: number, fields: Record<string, unknown>) =>
      deal(ticket, {
        position_id: 70,
        symbol: 'EURUSD',
        digits: 5,
        volume: 1,
        price: 1.1,
        profit: 0,
        comment: '',
        equity_before: null,
        ...fields,
      });
    const excursions = { mae: -30.25, mfe: 50, mae_points: -30.3, mfe_points: 50 };
    for (const [what, bad] of [
      ['an adverse one above 0', { ...excursions, mae: 0.01 }],
      ['a favourable one below 0', { ...excursions, mfe_points: -1 }],
      ['some without the others', { mae: -1, mfe: 1 }],
      ['one as text', { ...excursions, mfe: '50' }],
    ] as const) {
      const res = await send(t, DEALS, key, {
        login: 8201,
        deals: [deal(1), side(3, { type: 'sell', entry: 'out', ...bad })],
      });
      expect(res.status, what).toBe(422);
    }
    const none = await t.sql.query(
      'select count(*)::int as n from monitoring_deals where account_id = $1',
      [account.id],
    );
    expect(none.rows[0].n).toBe(0);

    const res = await send(t, DEALS, key, {
      login: 8201,
      deals: [
        // a deposit and an opening deal telling some: not kept (none belong to them)
        deal(1, { ...excursions }),
        side(2, { type: 'buy', entry: 'in', ...excursions }),
        side(3, { type: 'sell', entry: 'out', price: 1.1002, profit: 20, ...excursions }),
        // what a 1.3 sends: nothing of them; and explicit nulls
        side(4, { position_id: 71, type: 'buy', entry: 'in' }),
        side(5, { position_id: 71, type: 'sell', entry: 'out', price: 1.1001, profit: 10 }),
        side(6, { position_id: 72, type: 'buy', entry: 'out_by', mae: null, mfe: null }),
      ],
    });
    expect(res.body).toEqual({ accepted: 6, duplicate: 0 });
    const { rows } = await t.sql.query(
      `select ticket, mae, mfe, mae_points, mfe_points from monitoring_deals
       where account_id = $1 order by ticket`,
      [account.id],
    );
    expect(rows.map((r) => [Number(r.ticket), r.mae, r.mfe, r.mae_points, r.mfe_points])).toEqual([
      [1, null, null, null, null],
      [2, null, null, null, null],
      [3, -30.25, 50, -30.3, 50],
      [4, null, null, null, null],
      [5, null, null, null, null],
      [6, null, null, null, null],
    ]);
    // a resent closing deal changes nothing, whatever it says now
    await send(t, DEALS, key, {
      login: 8201,
      deals: [side(3, { type: 'sell', entry: 'out', ...excursions, mae: -99 })],
    });
    const again = await t.sql.query(
      'select mae from monitoring_deals where account_id = $1 and ticket = 3',
      [account.id],
    );
    expect(again.rows[0].mae).toBe(-30.25);

    // a snapshot's positions keep theirs; an older publisher's have none
    await send(t, HELLO, key, hello({ login: 8201 }));
    const position = {
      symbol: 'EURUSD',
      type: 'buy',
      volume: 1,
      open_time: at(1),
      open_price: 1.1,
      current_price: 1.1002,
      sl: 0,
      tp: 0,
      profit: 20,
      swap: 0,
    };
    const snap = await send(
      t,
      SNAPSHOT,
      key,
      snapshot({
        login: 8201,
        positions: [
          { ...position, ticket: 80, ...excursions },
          { ...position, ticket: 81 },
        ],
      }),
    );
    expect(snap.status).toBe(200);
    const stored = await t.sql.query('select positions from monitoring_accounts where id = $1', [
      account.id,
    ]);
    expect(stored.rows[0].positions).toEqual([
      { ...position, ticket: 80, ...excursions },
      { ...position, ticket: 81 },
    ]);
    const refused = await send(
      t,
      SNAPSHOT,
      key,
      snapshot({
        login: 8201,
        positions: [{ ...position, ticket: 82, mae: 1, mfe: 1, mae_points: 0, mfe_points: 0 }],
      }),
    );
    expect(refused.status).toBe(422);
  });

  it('snapshots: the account now, and one equity point a minute with its low and high', async () => {
    const { key, account } = await publisherOf(t, 8201);
    await send(t, SNAPSHOT, key, snapshot({ login: 8201 }));
    await send(
      t,
      SNAPSHOT,
      key,
      snapshot({
        login: 8201,
        time: '2026-01-05T10:00:50.000Z',
        equity: 995,
        equity_low: 970,
        equity_high: 996,
      }),
    );
    await send(
      t,
      SNAPSHOT,
      key,
      snapshot({ login: 8201, time: '2026-01-05T10:01:00.000Z', equity: 1005 }),
    );
    const { rows } = await t.sql.query(
      'select at, equity, equity_low, equity_high from monitoring_equity where account_id = $1 order by at',
      [account.id],
    );
    expect(rows.map((r) => [r.at.toISOString(), r.equity, r.equity_low, r.equity_high])).toEqual([
      ['2026-01-05T10:00:00.000Z', 995, 970, 1001],
      ['2026-01-05T10:01:00.000Z', 1005, 985, 1005],
    ]);
    const now = await t.sql.query(
      'select equity, terminal_connected, last_data_at from monitoring_accounts where id = $1',
      [account.id],
    );
    expect(now.rows[0]).toMatchObject({ equity: 1005, terminal_connected: true });
    expect(now.rows[0].last_data_at).not.toBeNull();
  });

  it('snapshots sent at once are written together; each gets its own answer, one terminal’s in order', async () => {
    const publishers = await Promise.all([8401, 8402, 8403].map((login) => publisherOf(t, login)));
    const [a, b, c] = publishers as [
      (typeof publishers)[0],
      (typeof publishers)[0],
      (typeof publishers)[0],
    ];
    const minute = (m: number, equity: number) => ({
      time: `2026-01-05T10:0${m}:00.000Z`,
      equity,
      equity_low: equity,
      equity_high: equity,
    });
    const answers = await Promise.all([
      send(t, SNAPSHOT, a.key, snapshot({ login: 8401, ...minute(1, 1001) })),
      send(t, SNAPSHOT, b.key, snapshot({ login: 8402, ...minute(1, 2001) })),
      send(t, SNAPSHOT, 'mk_not-a-key-at-all', snapshot({ login: 8401 })),
      send(t, SNAPSHOT, a.key, snapshot({ login: 8401, ...minute(2, 1002) })),
      send(t, SNAPSHOT, c.key, snapshot({ login: 8409 })),
      send(t, SNAPSHOT, a.key, snapshot({ login: 8401, ...minute(3, 1003) })),
      send(t, SNAPSHOT, c.key, snapshot({ login: 8403, ...minute(1, 3001) })),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 401, 200, 404, 200, 200]);
    expect(answers[2]!.body).toMatchObject(refusal('MONITORING_KEY_UNKNOWN'));
    expect(answers[4]!.body.code).toBe('MONITORING_LOGIN_NOT_ADDED');
    expect(answers[4]!.body.message).toContain('8409');

    const { rows } = await t.sql.query(
      `select a.login, a.equity, array_agg(e.equity order by e.at) as minutes
       from monitoring_accounts a join monitoring_equity e on e.account_id = a.id
       where a.id = any($1) group by a.login, a.equity order by a.login`,
      [[a.account.id, b.account.id, c.account.id]],
    );
    // the last of a terminal's snapshots is its account's figure now
    expect(rows.map((r) => [Number(r.login), r.equity, r.minutes])).toEqual([
      [8401, 1003, [1001, 1002, 1003]],
      [8402, 2001, [2001]],
      [8403, 3001, [3001]],
    ]);
  });

  it('snapshots tell the terminal: its ping and trade permissions on the account, a ping point a minute', async () => {
    const { key, account, user } = await publisherOf(t, 8501);
    expect((await send(t, HELLO, key, hello({ login: 8501 }))).status).toBe(200);
    const at = (time: string, fields: Record<string, unknown>) =>
      send(t, SNAPSHOT, key, snapshot({ login: 8501, time: `2026-01-05T${time}.000Z`, ...fields }));
    const allowed = { trade_allowed: true, ea_trade_allowed: true };
    for (const [time, fields] of [
      ['10:00:10', { ping_ms: 30, ...allowed }],
      // the minute has its point: the first one stays
      ['10:00:40', { ping_ms: 45, ...allowed }],
      // none measured yet, then a disconnected terminal's (an old figure): no point of either
      ['10:01:05', { ping_ms: null, ...allowed }],
      ['10:01:20', { ping_ms: 50, ...allowed, terminal_connected: false }],
      ['10:01:30', { ping_ms: 60, trade_allowed: false, ea_trade_allowed: true }],
    ] as const)
      expect((await at(time, fields)).status).toBe(200);
    const listed = async () =>
      (
        await t.api.get(
          `/api/user/monitoring/accounts?monitoring_id=${account.monitoring_id}`,
          user,
        )
      ).body.accounts[0];
    expect(await listed()).toMatchObject({
      ping_ms: 60,
      trade_allowed: false,
      ea_trade_allowed: true,
    });
    // a publisher before 1.3 tells none of it: not known any more
    expect((await at('10:02:10', {})).status).toBe(200);
    expect(await listed()).toMatchObject({
      ping_ms: null,
      trade_allowed: null,
      ea_trade_allowed: null,
    });
    const { rows } = await t.sql.query(
      'select at, ping_ms, server, location, user_id from monitoring_pings where account_id = $1 order by at',
      [account.id],
    );
    const point = (minute: string, ping: number) => ({
      at: new Date(`2026-01-05T10:${minute}:00.000Z`),
      ping_ms: ping,
      server: 'Broker-Live',
      location: null,
      user_id: String(user.id),
    });
    expect(rows).toEqual([point('00', 30), point('01', 60)]);
  });

  it('the account’s ping over a day, a week or a month: each step’s mean and longest', async () => {
    const { account, user } = await publisherOf(t, 8601);
    const MINUTE = 60_000;
    // a 10-minute step's start, 20 minutes ago
    const base = Math.floor(t.clock.now().getTime() / (10 * MINUTE)) * 10 * MINUTE - 20 * MINUTE;
    const points: [number, number][] = [
      [base - 2 * 86_400_000, 90],
      [base, 10],
      [base + 3 * MINUTE, 30],
      [base + 10 * MINUTE, 50],
      [base + 12 * MINUTE, 71],
    ];
    for (const [ms, ping] of points)
      await t.sql.query(
        `insert into monitoring_pings (account_id, at, ping_ms, server, user_id)
         values ($1, $2, $3, 'Broker-Live', $4)`,
        [account.id, new Date(ms), ping, user.id],
      );
    const PING = `/api/user/monitoring/accounts/${account.id}/ping`;
    const iso = (ms: number) => new Date(ms).toISOString();
    const day = await t.api.get(PING, user);
    expect(day.status).toBe(200);
    expect(day.body).toEqual({
      period: 'day',
      step_sec: 60,
      points: points.slice(1).map(([ms, ping]) => ({ time: iso(ms), ping_ms: ping, max_ms: ping })),
    });
    const week = await t.api.get(`${PING}?period=week`, user);
    expect(week.body).toEqual({
      period: 'week',
      step_sec: 600,
      points: [
        { time: iso(base - 2 * 86_400_000), ping_ms: 90, max_ms: 90 },
        { time: iso(base), ping_ms: 20, max_ms: 30 },
        // (50 + 71) / 2 = 60.5, rounded
        { time: iso(base + 10 * MINUTE), ping_ms: 61, max_ms: 71 },
      ],
    });
    expect((await t.api.get(`${PING}?period=month`, user)).body.step_sec).toBe(3600);
    expect(await t.api.get(`${PING}?period=year`, user)).toMatchObject({
      status: 422,
      body: { code: 'PERIOD_INVALID' },
    });
    // another reader's account is not found
    const other = await quickUser(t);
    expect(await t.api.get(PING, other)).toMatchObject({
      status: 404,
      body: refusal('MONITORING_ACCOUNT_NOT_FOUND'),
    });
  });

  it('an ended subscription is 402 with its message; a regenerated key stops the old one', async () => {
    const { key, subscription, user } = await publisherOf(t, 8301);
    const fresh = await t.api.post(
      `/api/user/monitoring/subscriptions/${subscription}/key/regenerate`,
      undefined,
      { token: user.token },
    );
    expect((await send(t, HELLO, key, hello({ login: 8301 }))).status).toBe(401);
    expect((await send(t, HELLO, fresh.body.key, hello({ login: 8301 }))).status).toBe(200);

    const paidUser = await quickUser(t);
    await fund(t, paidUser.id, 1000);
    const paid = await postKeyed(
      t,
      '/api/user/monitoring/subscriptions',
      { accounts: 1, months: 1 },
      paidUser,
    );
    const id = paid.body.subscription.id;
    await t.api.post(
      '/api/user/monitoring/accounts',
      { subscription_id: id, login: 8302, platform: 'MT4', name: 'Old', email: 'r@example.com' },
      { token: paidUser.token },
    );
    const paidKey = (
      await t.api.post(`/api/user/monitoring/subscriptions/${id}/key`, undefined, {
        token: paidUser.token,
      })
    ).body.key;
    await t.sql.query(
      `update monitoring_subscriptions set ends_at = now() - interval '1 second' where id = $1`,
      [id],
    );
    for (const [path, body] of [
      [HELLO, hello({ login: 8302, platform: 'MT4' })],
      [DEALS, { login: 8302, deals: [deal(1)] }],
      [SNAPSHOT, snapshot({ login: 8302 })],
    ] as const)
      expect(await send(t, path, paidKey, body)).toMatchObject({
        status: 402,
        body: refusal('MONITORING_SUBSCRIPTION_ENDED'),
      });
  });
});

describe('statistics from what the publisher sent', () => {
  const t = useTestApp();

  it('the owner reads the hand-computed figures of a published history, days in the account’s zone', async () => {
    const { key, user, account } = await publisherOf(t, 8801);
    const history = handComputedHistory();
    // sent in two batches, the second one twice, out of order
    await send(t, DEALS, key, { login: 8801, deals: history.slice(5) });
    await send(t, DEALS, key, { login: 8801, deals: history.slice(0, 6).reverse() });
    await send(t, DEALS, key, { login: 8801, deals: history.slice(5) });
    await send(t, HELLO, key, hello({ login: 8801 }));

    const res = await t.api.get(`/api/user/monitoring/accounts/${account.id}/statistics`, {
      token: user.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.currency).toBe('USD');
    expect(res.body.gain).toBeCloseTo(0.032885, 10);
    expect(res.body.deposits).toBeCloseTo(1500, 10);
    expect(res.body.withdrawals).toBeCloseTo(433.7, 10);
    expect(res.body.profit).toBeCloseTo(-16.3, 10);
    expect(res.body.max_drawdown).toBeCloseTo(0.1, 10);
    expect(res.body.trades).toMatchObject({ count: 3, wins: 2, losses: 1 });
    expect(res.body.trades.profit_factor).toBeCloseTo(143 / 159.3, 12);
    expect(res.body.trades.average_length_sec).toBe(6 * 3600);
    expect(res.body.monthly).toHaveLength(1);
    expect(res.body.daily.map((d: { period: string }) => d.period)).toContain('2026-01-06');

    // the picker's range narrows the tables
    const week = await t.api.get(
      `/api/user/monitoring/accounts/${account.id}/statistics?from=${at(2, 0)}&to=${at(3, 23)}`,
      { token: user.token },
    );
    expect(week.body.daily.map((d: { period: string }) => d.period)).toEqual([
      '2026-01-07',
      '2026-01-08',
    ]);
    // someone else's account is not found; a bad period is 422
    const stranger = await quickUser(t);
    expect(
      await t.api.get(`/api/user/monitoring/accounts/${account.id}/statistics`, {
        token: stranger.token,
      }),
    ).toMatchObject({ status: 404, body: refusal('MONITORING_ACCOUNT_NOT_FOUND') });
    expect(
      (
        await t.api.get(`/api/user/monitoring/accounts/${account.id}/statistics?from=yesterday`, {
          token: user.token,
        })
      ).status,
    ).toBe(422);
  });
});

describe('the ingestion rate limit', () => {
  const t = useTestApp({ env: { INGEST_RATE_LIMIT_MAX: '3' } });

  it('a burst per key, then 429 with Retry-After; another key is not held back', async () => {
    const first = await publisherOf(t, 9001);
    const second = await publisherOf(t, 9002);
    const statuses = [];
    for (let i = 0; i < 4; i += 1)
      statuses.push((await send(t, SNAPSHOT, first.key, snapshot({ login: 9001 }))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await send(t, SNAPSHOT, first.key, snapshot({ login: 9001 }));
    expect(limited).toMatchObject({ status: 429, body: refusal('TOO_MANY_REQUESTS') });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await send(t, SNAPSHOT, second.key, snapshot({ login: 9002 }))).status).toBe(200);
  });
});
