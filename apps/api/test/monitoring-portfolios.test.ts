import { describe, expect, it } from 'vitest';
import { fieldRefusal, quickUser, refusal, useTestApp, type Json } from './helpers.ts';
import {
  at,
  deal,
  DEALS,
  FREE,
  hello,
  HELLO,
  paidSubscription,
  send,
  tradeDeal,
} from './monitoring-fixtures.ts';

const t = useTestApp();
const PORTFOLIOS = '/api/user/monitoring/portfolios';
const PORTFOLIO = (id: number) => `${PORTFOLIOS}/${id}`;
const PUBLIC = (monitoringId: string) => `/api/monitoring/portfolios/${monitoringId}`;

type Who = { id: number; token: string };

/** A trader with a paid plan of 2 accounts and the free plan's 1: the key of each. */
async function trader() {
  const user = await quickUser(t);
  const paid = (await paidSubscription(t, user)).id as number;
  const free = (await t.api.post(FREE, undefined, { token: user.token })).body.subscription
    .id as number;
  const keyOf = async (subscription: number) =>
    (
      await t.api.post(`/api/user/monitoring/subscriptions/${subscription}/key`, undefined, {
        token: user.token,
      })
    ).body.key as string;
  return { user, paid, free, keys: { [paid]: await keyOf(paid), [free]: await keyOf(free) } };
}

/**
 * An account of the trader's in `subscription` whose publisher has sent a hello in `currency` and
 * `deals`, its figures stored by the statistics job.
 */
async function published(
  who: Awaited<ReturnType<typeof trader>>,
  subscription: number,
  login: number,
  name: string,
  currency: string,
  deals: Json[],
) {
  const added = await t.api.post(
    '/api/user/monitoring/accounts',
    { subscription_id: subscription, login, platform: 'MT5', name, email: 'p@example.com' },
    { token: who.user.token },
  );
  expect(added.status, added.text).toBe(201);
  const key = who.keys[subscription]!;
  expect((await send(t, HELLO, key, hello({ login, currency }))).status).toBe(200);
  expect((await send(t, DEALS, key, { login, deals })).status).toBe(200);
  return added.body.account as { id: number; monitoring_id: string };
}

/** A deposit (or withdrawal) and a closed trade with its result, on the days given. */
const cash = (ticket: number, day: number, amount: number) =>
  deal(ticket, { time: at(day), profit: amount, equity_before: null });
const trade = (ticket: number, day: number, result: number) => [
  tradeDeal(ticket, {
    position_id: ticket,
    time: at(day, 9),
    type: 'buy',
    entry: 'in',
    symbol: 'EURUSD',
    digits: 5,
    volume: 1,
    price: 1.1,
  }),
  tradeDeal(ticket + 1, {
    position_id: ticket,
    time: at(day, 15),
    type: 'sell',
    entry: 'out',
    symbol: 'EURUSD',
    digits: 5,
    volume: 1,
    price: 1.1 + result / 100_000,
    profit: result,
  }),
];

/**
 * A (USD): 1,000 deposited, +100 on day 1. B (USD): 3,000 deposited, -300 on day 2, then 1,000
 * more on day 3. C (EUR, the free plan): 1,000 deposited, +50 on day 4.
 */
async function threeAccounts(logins: [number, number, number]) {
  const who = await trader();
  const a = await published(who, who.paid, logins[0], 'Alpha', 'USD', [
    cash(1, 0, 1000),
    ...trade(10, 1, 100),
  ]);
  const b = await published(who, who.paid, logins[1], 'Beta', 'USD', [
    cash(1, 0, 3000),
    ...trade(20, 2, -300),
    cash(30, 3, 1000),
  ]);
  const c = await published(who, who.free, logins[2], 'Gamma', 'EUR', [
    cash(1, 0, 1000),
    ...trade(40, 4, 50),
  ]);
  return { who, a, b, c };
}

const recompute = async (...ids: number[]) => {
  for (const id of ids) expect(await t.app.monitoringJobs.recompute(id)).toBe(true);
};

const create = (who: Who, body: unknown) => t.api.post(PORTFOLIOS, body, { token: who.token });
const patch = (who: Who, id: number, body: unknown) =>
  t.api.request('PATCH', PORTFOLIO(id), { body, token: who.token });
const remove = (who: Who, id: number) =>
  t.api.request('DELETE', PORTFOLIO(id), { token: who.token });
const list = async (who: Who) =>
  (await t.api.get(PORTFOLIOS, { token: who.token })).body.portfolios as Json[];

/** By value: +10 % on 1,000 of 4,000 (+2.5 %), then -10 % on 3,000 of 4,100. */
const BY_VALUE = 1.025 * (1 - (0.1 * 3000) / 4100) - 1;

describe('a portfolio of published accounts', () => {
  it('combines their stored charts: the gain weighed by value, a deposit moving nothing, the equity summed', async () => {
    const { who, a, b } = await threeAccounts([45_001, 45_002, 45_003]);
    const made = await create(who.user, { name: ' Both ', account_ids: [b.id, a.id] });
    expect(made.status, made.text).toBe(201);
    // no figures stored yet: no points, nothing computed per request
    expect(made.body.portfolio).toMatchObject({
      name: 'Both',
      is_public: false,
      hide_money: false,
      views: 0,
      account_ids: [a.id, b.id],
      figures: { gain: 0, max_drawdown: 0, since: null, accounts: 2 },
    });
    expect(made.body.points).toEqual([]);
    expect(made.body.accounts.map((r: Json) => [r.name, r.gain])).toEqual([
      ['Alpha', null],
      ['Beta', null],
    ]);

    await recompute(a.id, b.id);
    const id = made.body.portfolio.id as number;
    const got = await t.api.get(PORTFOLIO(id), { token: who.user.token });
    expect(got.status).toBe(200);
    const { figures } = got.body.portfolio;
    // 1.025 x 3,800 / 4,100 - 1 = -5 %: the summed value's fall, the deposit of day 3 left out
    expect(BY_VALUE).toBeCloseTo(-0.05, 12);
    expect(figures).toMatchObject({
      weighting: 'value',
      currency: 'USD',
      balance: 4800,
      equity: 4800,
      since: at(0),
      accounts: 2,
    });
    expect(figures.gain).toBeCloseTo(BY_VALUE, 10);
    expect(figures.max_drawdown).toBeCloseTo(1 - 0.95 / 1.025, 10);
    const points = got.body.points as Json[];
    expect(points[0]).toMatchObject({ time: at(0), gain: 0, balance: 4000, drawdown: 0 });
    expect(points.at(-1)!.gain).toBeCloseTo(BY_VALUE, 10);
    expect(points.find((p) => p.time === at(3))).toMatchObject({ balance: 4800 });
    // each account's own figures, as its page shows them, and its share of the value
    expect(got.body.accounts).toEqual([
      expect.objectContaining({
        id: a.id,
        monitoring_id: a.monitoring_id,
        name: 'Alpha',
        currency: 'USD',
        gain: expect.closeTo(0.1, 10),
        max_drawdown: 0,
        balance: 1100,
        share: expect.closeTo(1100 / 4800, 10),
        since: at(0),
      }),
      expect.objectContaining({
        id: b.id,
        name: 'Beta',
        gain: expect.closeTo(-0.1, 10),
        max_drawdown: expect.closeTo(0.1, 10),
        balance: 3700,
        share: expect.closeTo(3700 / 4800, 10),
      }),
    ]);
    const stored = await t.api.get(`/api/user/monitoring/accounts/${a.id}/statistics`, {
      token: who.user.token,
    });
    expect(got.body.accounts[0].gain).toBe(stored.body.gain);
    // the list has the same figures
    const [listed] = await list(who.user);
    expect(listed).toEqual(got.body.portfolio);
  });

  it('weighs accounts in different currencies equally, says so, and sums no money', async () => {
    const { who, a, c } = await threeAccounts([45_011, 45_012, 45_013]);
    await recompute(a.id, c.id);
    const made = await create(who.user, { name: 'Mixed', account_ids: [a.id, c.id] });
    expect(made.status, made.text).toBe(201);
    const { figures } = made.body.portfolio;
    // +10 % beside 0 (+5 %), then 0 beside +5 % (+2.5 %)
    expect(figures).toMatchObject({ weighting: 'equal', currency: null, balance: null });
    expect(figures.gain).toBeCloseTo(1.05 * 1.025 - 1, 10);
    expect(made.body.points.every((p: Json) => p.balance === null && p.equity === null)).toBe(true);
    expect(made.body.accounts.map((r: Json) => [r.name, r.currency, r.balance, r.share])).toEqual([
      ['Alpha', 'USD', 1100, null],
      ['Gamma', 'EUR', 1050, null],
    ]);
  });

  it('refuses bad input and changes nothing: another’s or an unknown account, 1 or 21 accounts, a bad name', async () => {
    const { who, a, b, c } = await threeAccounts([45_021, 45_022, 45_023]);
    const other = await trader();
    const theirs = await published(other, other.paid, 45_024, 'Theirs', 'USD', [cash(1, 0, 500)]);
    const count = async () =>
      Number(
        (
          await t.sql.query('select count(*) as n from monitoring_portfolios where user_id = $1', [
            who.user.id,
          ])
        ).rows[0]!.n,
      );

    const refused: Array<[unknown, number, Json]> = [
      [
        { name: 'P', account_ids: [a.id, theirs.id] },
        422,
        fieldRefusal('account_ids', 'MONITORING_PORTFOLIO_ACCOUNT_UNKNOWN'),
      ],
      [
        { name: 'P', account_ids: [a.id, 9_000_000_000] },
        422,
        fieldRefusal('account_ids', 'MONITORING_PORTFOLIO_ACCOUNT_UNKNOWN'),
      ],
      [{ name: 'P', account_ids: [a.id] }, 422, { code: 'MONITORING_PORTFOLIO_ACCOUNTS_RANGE' }],
      [
        { name: 'P', account_ids: [a.id, a.id] },
        422,
        { code: 'MONITORING_PORTFOLIO_ACCOUNTS_RANGE' },
      ],
      [
        { name: 'P', account_ids: Array.from({ length: 21 }, (_, i) => a.id + i) },
        422,
        { code: 'MONITORING_PORTFOLIO_ACCOUNTS_RANGE' },
      ],
      [
        { name: '  ', account_ids: [a.id, b.id] },
        422,
        { code: 'MONITORING_PORTFOLIO_NAME_REQUIRED' },
      ],
      [
        { name: 'x'.repeat(61), account_ids: [a.id, b.id] },
        422,
        { code: 'MONITORING_PORTFOLIO_NAME_TOO_LONG' },
      ],
      [{ account_ids: [a.id, b.id] }, 422, { code: 'MONITORING_PORTFOLIO_NAME_REQUIRED' }],
    ];
    for (const [body, status, answer] of refused) {
      const res = await create(who.user, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body, JSON.stringify(body)).toMatchObject(answer);
    }
    expect(await count()).toBe(0);

    // a change with one bad part changes nothing of the rest
    const made = await create(who.user, { name: 'Kept', account_ids: [a.id, b.id] });
    const id = made.body.portfolio.id as number;
    const before = made.body.portfolio;
    for (const body of [
      { name: 'Renamed', is_public: true, account_ids: [a.id, theirs.id] },
      { name: 'Renamed', account_ids: [c.id] },
      { name: '', is_public: true },
      { is_public: 'yes' },
    ]) {
      const res = await patch(who.user, id, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    const after = await t.api.get(PORTFOLIO(id), { token: who.user.token });
    expect(after.body.portfolio).toEqual(before);
    const changed = await patch(who.user, id, {
      name: 'Three',
      account_ids: [a.id, b.id, c.id],
      hide_money: true,
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.portfolio).toMatchObject({
      name: 'Three',
      account_ids: [a.id, b.id, c.id],
      hide_money: true,
      is_public: false,
    });

    // an unknown portfolio
    for (const res of [
      await t.api.get(PORTFOLIO(9_000_000_000), { token: who.user.token }),
      await patch(who.user, 9_000_000_000, { name: 'X' }),
      await remove(who.user, 9_000_000_000),
    ])
      expect(res).toMatchObject({ status: 404, body: refusal('MONITORING_PORTFOLIO_NOT_FOUND') });
  });

  it('keeps 20 portfolios a user at most', async () => {
    const { who, a, b } = await threeAccounts([45_031, 45_032, 45_033]);
    const made = await Promise.all(
      Array.from({ length: 21 }, (_, i) =>
        create(who.user, { name: `P${i}`, account_ids: [a.id, b.id] }),
      ),
    );
    // created at once, one is refused: the count is taken under a lock
    expect(made.filter((r) => r.status === 201)).toHaveLength(20);
    const full = made.find((r) => r.status !== 201)!;
    expect(full).toMatchObject({ status: 409, body: refusal('MONITORING_PORTFOLIOS_FULL') });
    expect(await list(who.user)).toHaveLength(20);
    await remove(who.user, made.find((r) => r.status === 201)!.body.portfolio.id);
    expect((await create(who.user, { name: 'Again', account_ids: [a.id, b.id] })).status).toBe(201);
  });

  it('is its owner’s alone: another user gets 404 and cannot list it or use its accounts', async () => {
    const { who, a, b } = await threeAccounts([45_041, 45_042, 45_043]);
    const made = await create(who.user, { name: 'Mine', account_ids: [a.id, b.id] });
    const { id, monitoring_id: monitoringId } = made.body.portfolio;
    const stranger = await quickUser(t);
    for (const res of [
      await t.api.get(PORTFOLIO(id), { token: stranger.token }),
      await patch(stranger, id, { name: 'Taken', is_public: true }),
      await remove(stranger, id),
    ])
      expect(res).toMatchObject({ status: 404, body: refusal('MONITORING_PORTFOLIO_NOT_FOUND') });
    expect(await list(stranger)).toEqual([]);
    const narrowed = await t.api.get(`${PORTFOLIOS}?monitoring_id=${monitoringId}`, {
      token: stranger.token,
    });
    expect(narrowed.body.portfolios).toEqual([]);
    const own = await t.api.get(`${PORTFOLIOS}?monitoring_id=${monitoringId}`, {
      token: who.user.token,
    });
    expect(own.body.portfolios.map((p: Json) => p.id)).toEqual([id]);
    const theirs = await create(stranger, { name: 'Stolen', account_ids: [a.id, b.id] });
    expect(theirs).toMatchObject({
      status: 422,
      body: fieldRefusal('account_ids', 'MONITORING_PORTFOLIO_ACCOUNT_UNKNOWN'),
    });
    expect((await t.api.get(PORTFOLIO(id), { token: who.user.token })).body.portfolio.name).toBe(
      'Mine',
    );
    expect((await t.api.get(PORTFOLIO(id))).status).toBe(401);
  });
});

describe('the public page of a portfolio', () => {
  it('is 404 in the same words when private or missing; a private account is a row of gain and drawdown only', async () => {
    const { who, a, b } = await threeAccounts([45_051, 45_052, 45_053]);
    await recompute(a.id, b.id);
    const made = await create(who.user, { name: 'Shared', account_ids: [a.id, b.id] });
    const { id, monitoring_id: monitoringId } = made.body.portfolio;
    const missing = await t.api.get(PUBLIC('AAAAAAAAAAAAAAAA'));
    expect(missing).toMatchObject({ status: 404, body: refusal('MONITORING_PUBLIC_NOT_FOUND') });
    expect((await t.api.get(PUBLIC(monitoringId))).body).toEqual(missing.body);
    expect((await t.api.get(PUBLIC('not an id'))).status).toBe(404);
    // an account's public id is no portfolio's
    await t.api.request('PATCH', `/api/user/monitoring/accounts/${a.id}`, {
      body: { is_public: true },
      token: who.user.token,
    });
    expect((await t.api.get(PUBLIC(a.monitoring_id))).body).toEqual(missing.body);

    await patch(who.user, id, { is_public: true });
    const page = await t.api.get(PUBLIC(monitoringId));
    expect(page.status, page.text).toBe(200);
    expect(page.body.portfolio).toMatchObject({
      monitoring_id: monitoringId,
      name: 'Shared',
      shows_money: true,
      figures: { weighting: 'value', currency: 'USD', balance: 4800, accounts: 2 },
    });
    expect(page.body.portfolio.figures.gain).toBeCloseTo(BY_VALUE, 10);
    expect(page.body.portfolio).not.toHaveProperty('id');
    expect(page.body.portfolio).not.toHaveProperty('account_ids');
    const [alpha, beta] = page.body.accounts as Json[];
    // Alpha is public: its name and link; Beta is not: a private account
    expect(alpha).toMatchObject({
      id: null,
      monitoring_id: a.monitoring_id,
      name: 'Alpha',
      is_public: true,
      balance: 1100,
    });
    expect(beta).toEqual({
      id: null,
      monitoring_id: null,
      name: null,
      is_public: false,
      currency: null,
      gain: expect.closeTo(-0.1, 10),
      max_drawdown: expect.closeTo(0.1, 10),
      balance: null,
      equity: null,
      share: null,
      since: null,
    });
    expect(page.text).not.toContain(b.monitoring_id);
    expect(page.text).not.toContain('Beta');
    expect(page.text).not.toContain('3700');

    // money hidden: percentages only
    await patch(who.user, id, { hide_money: true });
    const hidden = await t.api.get(PUBLIC(monitoringId));
    expect(hidden.body.portfolio).toMatchObject({
      shows_money: false,
      figures: { currency: null, balance: null, equity: null },
    });
    expect(hidden.body.points.length).toBeGreaterThan(1);
    expect(hidden.body.points.every((p: Json) => p.balance === null && p.equity === null)).toBe(
      true,
    );
    expect(hidden.body.accounts.every((r: Json) => r.balance === null && r.currency === null)).toBe(
      true,
    );
    expect(hidden.text).not.toMatch(/4800|1100|"USD"/);
    expect(hidden.body.portfolio.figures.gain).toBeCloseTo(BY_VALUE, 10);

    // shared no more, deleted: 404 again
    await patch(who.user, id, { is_public: false });
    expect((await t.api.get(PUBLIC(monitoringId))).body).toEqual(missing.body);
    await patch(who.user, id, { is_public: true });
    expect((await remove(who.user, id)).status).toBe(200);
    expect((await t.api.get(PUBLIC(monitoringId))).body).toEqual(missing.body);
  });

  it('counts a visitor once a day, another browser being another visitor', async () => {
    const { who, a, b } = await threeAccounts([45_061, 45_062, 45_063]);
    const made = await create(who.user, { name: 'Seen', account_ids: [a.id, b.id] });
    const { id, monitoring_id: monitoringId } = made.body.portfolio;
    await patch(who.user, id, { is_public: true });
    const visit = async (agent: string) =>
      (await t.api.get(PUBLIC(monitoringId), { headers: { 'user-agent': agent } })).body.portfolio
        .views as number;
    expect(await visit('Browser A')).toBe(1);
    expect(await visit('Browser A')).toBe(1);
    expect(await visit('Browser B')).toBe(2);
    t.clock.advance(24 * 3600_000);
    expect(await visit('Browser A')).toBe(3);
    t.clock.advance(-24 * 3600_000);
    expect((await t.api.get(PORTFOLIO(id), { token: who.user.token })).body.portfolio.views).toBe(
      3,
    );
  });
});

describe('a portfolio and its accounts', () => {
  it('drops a deleted account, and deleting the portfolio leaves its accounts', async () => {
    const { who, a, b } = await threeAccounts([45_071, 45_072, 45_073]);
    await recompute(a.id, b.id);
    const made = await create(who.user, { name: 'Pair', account_ids: [a.id, b.id] });
    const id = made.body.portfolio.id as number;
    const deleted = await t.api.request('DELETE', `/api/user/monitoring/accounts/${a.id}`, {
      token: who.user.token,
    });
    expect(deleted.status).toBe(200);
    const left = await t.api.get(PORTFOLIO(id), { token: who.user.token });
    expect(left.body.portfolio.account_ids).toEqual([b.id]);
    expect(left.body.accounts.map((r: Json) => r.name)).toEqual(['Beta']);
    // Beta alone: its own gain and balance
    expect(left.body.portfolio.figures.gain).toBeCloseTo(-0.1, 10);
    expect(left.body.portfolio.figures.balance).toBe(3700);

    expect(await remove(who.user, id)).toMatchObject({ status: 200 });
    expect((await t.api.get(PORTFOLIO(id), { token: who.user.token })).status).toBe(404);
    const accounts = await t.api.get('/api/user/monitoring/accounts', { token: who.user.token });
    expect(accounts.body.accounts.map((x: Json) => x.id)).toContain(b.id);
  });
});
