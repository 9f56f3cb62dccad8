import { describe, expect, it } from 'vitest';
import { fund, postKeyed, quickUser, useTestApp } from './helpers.ts';
import { DEALS, handComputedHistory, publisherOf, send } from './monitoring-fixtures.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('the maintenance tick', () => {
  const t = useTestApp();
  const tick = () => t.app.monitoringJobs.tick();
  const NOTHING = {
    warned3d: 0,
    warned1d: 0,
    deletedAccounts: 0,
    thinnedPoints: 0,
    thinnedPings: 0,
    deletedViews: 0,
  };

  async function paidPlan(endsInMs: number) {
    const user = await quickUser(t);
    await fund(t, user.id, 10_000);
    const res = await postKeyed(
      t,
      '/api/user/monitoring/subscriptions',
      { accounts: 1, months: 1 },
      user,
    );
    const id = res.body.subscription.id as number;
    await t.sql.query('update monitoring_subscriptions set ends_at = $2 where id = $1', [
      id,
      new Date(t.clock.now().getTime() + endsInMs),
    ]);
    return { user, id };
  }

  it('mails 3 days and 1 day before a paid subscription ends, once each, in the user’s language', async () => {
    const { user, id } = await paidPlan(3 * DAY - HOUR);
    expect(await tick()).toEqual({ ...NOTHING, warned3d: 1 });
    expect(await tick()).toEqual(NOTHING);
    await t.smtp.next(user.email, 0);
    const first = t.smtp.to(user.email)[0]!;
    expect(first.subject).toMatch(
      new RegExp(`^TradeHost: monitoring subscription #${id} ends on `),
    );
    expect(first.text).toContain('ends in 3 days');
    expect(first.text).toContain('kept for 90 days');
    expect(first.text).toContain('http://localhost:5173/online-monitoring');

    t.clock.advance(2 * DAY);
    try {
      expect(await tick()).toEqual({ ...NOTHING, warned1d: 1 });
      expect(await tick()).toEqual(NOTHING);
      await t.smtp.next(user.email, 1);
      expect(t.smtp.to(user.email)[1]!.text).toContain('ends in 1 day');
    } finally {
      t.clock.advance(-2 * DAY);
    }

    const ru = await paidPlan(5 * HOUR);
    await t.sql.query(`update users set language = 'ru' where id = $1`, [ru.user.id]);
    expect(await tick()).toEqual({ ...NOTHING, warned1d: 1 });
    await t.smtp.next(ru.user.email, 0);
    expect(t.smtp.to(ru.user.email)[0]!.text).toContain('заканчивается через 1 день');
    expect(t.smtp.to(ru.user.email)).toHaveLength(1);
  });

  it('deletes the accounts of subscriptions ended over 90 days ago, with their data', async () => {
    const old = await paidPlan(-91 * DAY);
    const recent = await paidPlan(-89 * DAY);
    const add = (who: { user: { token: string }; id: number }, login: number) =>
      t.api.post(
        '/api/user/monitoring/accounts',
        { subscription_id: who.id, login, platform: 'MT5', name: 'A', email: 'a@example.com' },
        { token: who.user.token },
      );
    // added while running, then ended
    await t.sql.query(
      "update monitoring_subscriptions set ends_at = now() + interval '1 day' where id in ($1, $2)",
      [old.id, recent.id],
    );
    const gone = (await add(old, 30_001)).body.account;
    const kept = (await add(recent, 30_002)).body.account;
    await t.sql.query(
      `insert into monitoring_equity (account_id, at, balance, equity, equity_low, equity_high, margin, credit)
       values ($1, now(), 1, 1, 1, 1, 0, 0), ($2, now(), 1, 1, 1, 1, 0, 0)`,
      [gone.id, kept.id],
    );
    await t.sql.query('update monitoring_subscriptions set ends_at = $2 where id = $1', [
      old.id,
      new Date(t.clock.now().getTime() - 91 * DAY),
    ]);
    await t.sql.query('update monitoring_subscriptions set ends_at = $2 where id = $1', [
      recent.id,
      new Date(t.clock.now().getTime() - 89 * DAY),
    ]);
    expect(await tick()).toEqual({ ...NOTHING, deletedAccounts: 1 });
    const { rows } = await t.sql.query(
      'select account_id from monitoring_equity where account_id in ($1, $2)',
      [gone.id, kept.id],
    );
    expect(rows.map((r) => Number(r.account_id))).toEqual([kept.id]);
    expect(
      (await t.sql.query('select id from monitoring_subscriptions where id = $1', [old.id])).rows,
    ).toHaveLength(1);
  });

  it('folds minute points older than 30 days into one an hour, keeping its extremes', async () => {
    const { account } = await publisherOf(t, 30_101);
    const hour = new Date(Math.floor((t.clock.now().getTime() - 31 * DAY) / HOUR) * HOUR);
    const minute = (m: number) => new Date(hour.getTime() + m * 60_000);
    const recent = new Date(Math.floor(t.clock.now().getTime() / 60_000) * 60_000 - 5 * 60_000);
    await t.sql.query(
      `insert into monitoring_equity (account_id, at, balance, equity, equity_low, equity_high, margin, credit) values
       ($1, $2, 100, 101, 99, 102, 10, 0), ($1, $3, 100, 97, 90, 103, 30, 0),
       ($1, $4, 110, 111, 108, 112, 20, 5), ($1, $5, 120, 121, 120, 122, 0, 0)`,
      [account.id, minute(0), minute(7), minute(59), recent],
    );
    expect(await tick()).toEqual({ ...NOTHING, thinnedPoints: 1 });
    const { rows } = await t.sql.query(
      `select at, balance, equity, equity_low, equity_high, margin, credit from monitoring_equity
       where account_id = $1 order by at`,
      [account.id],
    );
    expect(rows).toEqual([
      {
        at: hour,
        balance: 110,
        equity: 111,
        equity_low: 90,
        equity_high: 112,
        margin: 30,
        credit: 5,
      },
      {
        at: recent,
        balance: 120,
        equity: 121,
        equity_low: 120,
        equity_high: 122,
        margin: 0,
        credit: 0,
      },
    ]);
    expect(await tick()).toEqual(NOTHING);
  });

  it('folds an hour’s points of each cash-flow segment apart, each at its last snapshot’s time', async () => {
    const { account } = await publisherOf(t, 30_102);
    const hour = new Date(Math.floor((t.clock.now().getTime() - 31 * DAY) / HOUR) * HOUR);
    const at = (minutes: number, seconds = 0) =>
      new Date(hour.getTime() + minutes * 60_000 + seconds * 1000);
    // before a deposit in minute 10 (segment 0): 1,000; after it (segment 1): 2,000
    await t.sql.query(
      `insert into monitoring_equity (account_id, at, segment, last_at, balance, equity, equity_low,
         equity_high, margin, credit) values
       ($1, $2, 0, $3, 1000, 1000, 990, 1005, 0, 0), ($1, $4, 0, $5, 1000, 998, 995, 1001, 0, 0),
       ($1, $4, 1, $6, 2000, 2001, 1999, 2003, 0, 0), ($1, $7, 1, $8, 2000, 2010, 2000, 2012, 0, 0)`,
      [account.id, at(0), at(0, 50), at(10), at(10, 20), at(10, 40), at(30), at(30, 55)],
    );
    expect(await tick()).toEqual({ ...NOTHING, thinnedPoints: 2 });
    const { rows } = await t.sql.query(
      `select at, segment, last_at, balance, equity, equity_low, equity_high from monitoring_equity
       where account_id = $1 order by at, segment`,
      [account.id],
    );
    expect(rows).toEqual([
      {
        at: hour,
        segment: 0,
        last_at: at(10, 20),
        balance: 1000,
        equity: 998,
        equity_low: 990,
        equity_high: 1005,
      },
      {
        at: hour,
        segment: 1,
        last_at: at(30, 55),
        balance: 2000,
        equity: 2010,
        equity_low: 1999,
        equity_high: 2012,
      },
    ]);
  });

  it('folds ping points older than 30 days into one an hour: its mean, its latest server and place', async () => {
    const { account, user } = await publisherOf(t, 30_103);
    const hour = new Date(Math.floor((t.clock.now().getTime() - 31 * DAY) / HOUR) * HOUR);
    const minute = (m: number) => new Date(hour.getTime() + m * 60_000);
    const recent = new Date(Math.floor(t.clock.now().getTime() / 60_000) * 60_000 - 5 * 60_000);
    await t.sql.query(
      `insert into monitoring_pings (account_id, at, ping_ms, server, location, user_id) values
       ($1, $2, 10, 'Old-Live', null, $6), ($1, $3, 21, 'Old-Live', null, $6),
       ($1, $4, 30, 'New-Live', 'London (LD4)', $6), ($1, $5, 99, 'New-Live', 'London (LD4)', $6)`,
      [account.id, minute(0), minute(7), minute(59), recent, user.id],
    );
    expect(await tick()).toEqual({ ...NOTHING, thinnedPings: 1 });
    const { rows } = await t.sql.query(
      'select at, ping_ms, server, location from monitoring_pings where account_id = $1 order by at',
      [account.id],
    );
    // (10 + 21 + 30) / 3 = 20.33: 20
    expect(rows).toEqual([
      { at: hour, ping_ms: 20, server: 'New-Live', location: 'London (LD4)' },
      { at: recent, ping_ms: 99, server: 'New-Live', location: 'London (LD4)' },
    ]);
    expect(await tick()).toEqual(NOTHING);
  });

  it('forgets the visitors of days before yesterday', async () => {
    const { account } = await publisherOf(t, 30_201);
    const day = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString().slice(0, 10);
    await t.sql.query(
      `insert into monitoring_views (account_id, day, visitor) values ($1, $2, 'a'), ($1, $3, 'b')`,
      [account.id, day(-3 * DAY), day(-DAY)],
    );
    expect(await tick()).toEqual({ ...NOTHING, deletedViews: 1 });
  });
});

describe('the statistics job on pg-boss', () => {
  const t = useTestApp({ env: { JOBS_ENABLED: 'true' } });

  it('new deals have their figures stored within seconds, without anyone reading them', async () => {
    const { key, account } = await publisherOf(t, 30_301);
    await send(t, DEALS, key, { login: 30_301, deals: handComputedHistory() });
    const deadline = Date.now() + 20_000;
    let stored: { trades: number; gain: number } | undefined;
    while (!stored && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const { rows } = await t.sql.query(
        'select trades, gain from monitoring_statistics where account_id = $1',
        [account.id],
      );
      stored = rows[0];
    }
    expect(stored?.trades).toBe(3);
    expect(stored?.gain).toBeCloseTo(0.032885, 10);
  });
});
