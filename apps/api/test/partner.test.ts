import { randomUUID } from 'node:crypto';
import { ERROR_MESSAGES, rentalPrice, type ErrorCode } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { billing } from '../src/db/billing.ts';
import { partnerRewards } from '../src/db/partner-rewards.ts';
import { referrals } from '../src/db/referrals.ts';
import { inTransaction } from '../src/db/transaction.ts';
import { createAccessTokens } from '../src/modules/auth/access-token.ts';
import {
  balancesOf,
  createVerifiedUser,
  fund,
  ledgerInvariants,
  memosOf,
  postKeyed,
  quickUser,
  signupBody,
  useTestApp,
} from './helpers.ts';
import {
  charge,
  DAY,
  expectStatus,
  injectFault,
  paidOrder,
  rateNamed,
  seedServer,
  TEST_REFUND,
  useRate,
} from './vps-fixtures.ts';

const t = useTestApp();
const pro = useRate(t, 'Pro');
const trader = () => rateNamed(t, 'Trader');

type User = Awaited<ReturnType<typeof quickUser>>;

/** quickUser, its token (of the same sign-in) signed on the test clock (the hold's tests move it days ahead). */
async function newUser(fields: { name?: string } = {}): Promise<User> {
  const made = await quickUser(t, fields);
  const tokens = createAccessTokens(t.config.jwtSecret, 365 * 86_400, t.clock.now);
  return { ...made, token: (await tokens.sign(made.id, made.sessionId)).token };
}

/** A chain of users, each the referrer of the next: [top, level-1 of top, ...]. */
async function chain(length: number): Promise<User[]> {
  const users: User[] = [];
  for (let i = 0; i < length; i += 1) {
    const user = await newUser({ name: `Chain ${i}` });
    if (i > 0) {
      const attached = await inTransaction(t.app.db, (tx) =>
        referrals.attach(tx, user.id, users[i - 1]!.id),
      );
      expect(attached).toBe(true);
    }
    users.push(user);
  }
  return users;
}

async function rewardsOf(chargeId: number) {
  const { rows } = await t.sql.query(
    `select partner_id, referral_id, level, base_cents, percent_bp, amount_cents, status
     from partner_rewards where charge_id = $1 order by level`,
    [chargeId],
  );
  return rows.map((row) => ({
    partner: Number(row.partner_id),
    referral: Number(row.referral_id),
    level: row.level,
    base: Number(row.base_cents),
    percent: row.percent_bp / 100,
    amount: Number(row.amount_cents),
    status: row.status,
  }));
}

async function levelsRow(partnerId: number) {
  const { rows } = await t.sql.query(
    `select level, users, rewards, turnover_cents, reward_cents from partner_levels
     where partner_id = $1 order by level`,
    [partnerId],
  );
  return rows.map((row) => [
    row.level,
    row.users,
    row.rewards,
    Number(row.turnover_cents),
    Number(row.reward_cents),
  ]);
}

const get = (who: { token: string }, path: string) => t.api.get(path, { token: who.token });
const grant = (chargeId: number) =>
  inTransaction(t.app.db, (tx) => partnerRewards.grant(tx, chargeId, t.clock.now()));

async function runQueued(serverId: number) {
  const { rows } = await t.sql.query(
    `select id from vps_operations where server_id = $1 and status = 'queued' order by id`,
    [serverId],
  );
  for (const row of rows) await t.app.vpsJobs.runner.run(Number(row.id));
}

describe('attribution', () => {
  it('sign-up with partner codes fixes three levels of referrers and counts them', async () => {
    const top = await createVerifiedUser(t);
    const codeOf = async (email: string) =>
      (await t.sql.query('select id, referral_code from users where email = $1', [email])).rows[0];
    const emails = [top.email];
    for (let i = 0; i < 4; i += 1) {
      const referrer = await codeOf(emails.at(-1)!);
      const next = signupBody({ partner_code: referrer.referral_code.toLowerCase() });
      expectStatus(await t.api.post('/api/user/auth/create', next), 201);
      emails.push(String(next.email));
    }
    const ids = await Promise.all(emails.map(async (email) => Number((await codeOf(email)).id)));
    const { rows } = await t.sql.query(
      'select referrer_id, referrer2_id, referrer3_id from users where id = $1',
      [ids[4]],
    );
    expect(rows[0]).toEqual({
      referrer_id: String(ids[3]),
      referrer2_id: String(ids[2]),
      referrer3_id: String(ids[1]),
    });
    // the top partner: one referral on each level; the fourth below is beyond the programme
    expect(await levelsRow(ids[0]!)).toEqual([
      [1, 1, 0, 0, 0],
      [2, 1, 0, 0, 0],
      [3, 1, 0, 0, 0],
    ]);
  });

  it('attaching a user who has referrals moves them under the new referrer too', async () => {
    const [p] = await chain(1);
    const [x, y, z] = await chain(3); // x has y (level 1) and z (level 2)
    const attached = await inTransaction(t.app.db, (tx) => referrals.attach(tx, x!.id, p!.id));
    expect(attached).toBe(true);
    const { rows } = await t.sql.query(
      'select id, referrer_id, referrer2_id, referrer3_id from users where id = any($1) order by id',
      [[y!.id, z!.id]],
    );
    expect(rows.map((r) => [r.referrer_id, r.referrer2_id, r.referrer3_id].map(Number))).toEqual([
      [x!.id, p!.id, 0],
      [y!.id, x!.id, p!.id],
    ]);
    expect(await levelsRow(p!.id)).toEqual([
      [1, 1, 0, 0, 0],
      [2, 1, 0, 0, 0],
      [3, 1, 0, 0, 0],
    ]);
  });

  it('refuses a second referrer, oneself, and a referrer from among one’s own referrals', async () => {
    const [a, b, c, d] = await chain(4);
    const other = await newUser();
    const attach = (user: User, referrer: User) =>
      inTransaction(t.app.db, (tx) => referrals.attach(tx, user.id, referrer.id));
    expect(await attach(b!, other)).toBe(false); // b has a referrer
    expect(await attach(a!, a!)).toBe(false);
    expect(await attach(a!, d!)).toBe(false); // d is a's level-3 referral
    expect(await attach(a!, c!)).toBe(false);
    const { rows } = await t.sql.query('select referrer_id from users where id = $1', [a!.id]);
    expect(rows[0].referrer_id).toBeNull();
  });
});

describe('rewards', () => {
  it('a charge gives levels 1-3 their percentage in whole cents rounded down, once', async () => {
    const [top, l3, l2, l1, payer] = await chain(5);
    await fund(t, payer!.id, 10_000);
    const chargeId = await charge(t, payer!.id, 1_999);
    expect(await grant(chargeId)).toBe(3);
    expect(await grant(chargeId)).toBe(0); // a retry adds nothing
    // 1,999 x 10 % = 199.9 -> 199; x 5 % = 99.95 -> 99; x 2 % = 39.98 -> 39
    expect(await rewardsOf(chargeId)).toEqual([
      {
        partner: l1!.id,
        referral: payer!.id,
        level: 1,
        base: 1999,
        percent: 10,
        amount: 199,
        status: 'pending',
      },
      {
        partner: l2!.id,
        referral: payer!.id,
        level: 2,
        base: 1999,
        percent: 5,
        amount: 99,
        status: 'pending',
      },
      {
        partner: l3!.id,
        referral: payer!.id,
        level: 3,
        base: 1999,
        percent: 2,
        amount: 39,
        status: 'pending',
      },
    ]);
    expect(await levelsRow(l2!.id)).toEqual([
      [1, 1, 0, 0, 0],
      [2, 1, 1, 1999, 99],
    ]);
    expect(await levelsRow(top!.id)).toEqual([
      [1, 1, 0, 0, 0],
      [2, 1, 0, 0, 0],
      [3, 1, 0, 0, 0],
    ]);
    // pending: not in anyone's partner balance yet
    expect((await balancesOf(t, l1!.id)).partner).toBe(0);
  });

  it('nothing for a payer without referrers, a reward under a cent, or an operator credit', async () => {
    const [, payer] = await chain(2);
    const alone = await newUser();
    await fund(t, alone.id, 1_000);
    await fund(t, payer!.id, 1_000); // an adjustment: not a charge
    expect(await grant(await charge(t, alone.id, 500))).toBe(0);
    // 9 cents x 10 % = 0.9 cent: no reward
    expect(await grant(await charge(t, payer!.id, 9))).toBe(0);
    expect(
      await inTransaction(t.app.db, (tx) => partnerRewards.grant(tx, null, t.clock.now())),
    ).toBe(0);
    const { rows } = await t.sql.query(
      'select count(*)::int as n from partner_rewards where referral_id = any($1)',
      [[alone.id, payer!.id]],
    );
    expect(rows[0].n).toBe(0);
  });

  it('a VPS order rewards once its server is created; a failed create never does', async () => {
    const [partner, payer] = await chain(2);
    await fund(t, payer!.id, 100_000);
    const ordered = await paidOrder(t, payer!);
    const serverId = ordered.server.id;
    const { rows } = await t.sql.query('select charge_id from vps_servers where id = $1', [
      serverId,
    ]);
    const chargeId = Number(rows[0].charge_id);
    expect(await rewardsOf(chargeId)).toEqual([]);
    await runQueued(serverId);
    const rewards = await rewardsOf(chargeId);
    expect(rewards).toHaveLength(1);
    expect(rewards[0]).toMatchObject({ partner: partner!.id, level: 1, status: 'pending' });
    expect(rewards[0]!.amount).toBe(Math.floor(rewards[0]!.base / 10));

    // a renewal is final when paid
    const renewed = await postKeyed(
      t,
      `/api/user/vps/servers/${serverId}/renew`,
      { months: 1 },
      payer!,
      randomUUID(),
    );
    expectStatus(renewed, 200);
    const { rows: renewals } = await t.sql.query(
      `select count(*)::int as n from partner_rewards where referral_id = $1`,
      [payer!.id],
    );
    expect(renewals[0].n).toBe(2);

    // an upgrade rewards when applied
    const today = t.clock.now().toISOString().slice(0, 10);
    const upgraded = await postKeyed(
      t,
      `/api/user/vps/servers/${serverId}/upgrade`,
      { rate_id: pro.id, date: today },
      payer!,
      randomUUID(),
    );
    expectStatus(upgraded, 202);
    const { rows: upgrade } = await t.sql.query(
      `select charge_id from vps_upgrades where server_id = $1`,
      [serverId],
    );
    const upgradeCharge = Number(upgrade[0].charge_id);
    expect(await rewardsOf(upgradeCharge)).toEqual([]);
    await runQueued(serverId);
    expect(await rewardsOf(upgradeCharge)).toHaveLength(1);

    // a server that cannot be created is refunded, and its charge never rewards
    await injectFault(t, 'createFromTemplate', 'failed', 'storage pool is full');
    const failing = await paidOrder(t, payer!);
    await runQueued(failing.server.id);
    const { rows: failed } = await t.sql.query(
      `select s.status, s.charge_id, c.status as charge from vps_servers s
       join charges c on c.id = s.charge_id where s.id = $1`,
      [failing.server.id],
    );
    expect(failed[0]).toMatchObject({ status: 'failed', charge: 'cancelled' });
    expect(await rewardsOf(Number(failed[0].charge_id))).toEqual([]);
    expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
  });

  it('a monitoring subscription rewards when paid', async () => {
    const [partner, payer] = await chain(2);
    await fund(t, payer!.id, 100_000);
    const res = await postKeyed(
      t,
      '/api/user/monitoring/subscriptions',
      { accounts: 2, months: 1 },
      payer!,
      randomUUID(),
    );
    expectStatus(res, 201);
    const { rows } = await t.sql.query(
      `select r.amount_cents, c.amount_cents as paid from partner_rewards r
       join charges c on c.id = r.charge_id where r.partner_id = $1`,
      [partner!.id],
    );
    expect(rows).toHaveLength(1);
    expect(Number(rows[0].amount_cents)).toBe(Math.floor(Number(rows[0].paid) / 10));
  });
});

describe('the hold', () => {
  async function pendingReward() {
    const [partner, payer] = await chain(2);
    await fund(t, payer!.id, 10_000);
    const chargeId = await charge(t, payer!.id, 5_000);
    await grant(chargeId);
    return { partner: partner!, payer: payer!, chargeId };
  }

  it('keeps a reward pending for PARTNER_HOLD_DAYS, then the job moves it into the partner balance', async () => {
    const { partner, chargeId } = await pendingReward();
    t.clock.advance(t.config.partner.holdDays * DAY - 60_000);
    await t.app.partnerJobs.release();
    expect((await rewardsOf(chargeId))[0]!.status).toBe('pending');
    expect((await balancesOf(t, partner.id)).partner).toBe(0);

    t.clock.advance(2 * 60_000);
    expect(await t.app.partnerJobs.release()).toBeGreaterThanOrEqual(1);
    expect((await rewardsOf(chargeId))[0]!.status).toBe('available');
    expect((await balancesOf(t, partner.id)).partner).toBe(500);
    const { rows } = await t.sql.query(
      `select t.kind, e.account, e.amount_cents from partner_rewards r
       join ledger_transactions t on t.id = r.ledger_transaction_id
       join ledger_entries e on e.transaction_id = t.id
       where r.charge_id = $1 order by e.amount_cents`,
      [chargeId],
    );
    expect(rows.map((r) => [r.kind, r.account, Number(r.amount_cents)])).toEqual([
      ['reward', 'partner_rewards', -500],
      ['reward', 'balance_partner', 500],
    ]);
    expect((await memosOf(t, partner.id))[0]).toEqual({
      kind: 'reward',
      memo: null,
      memo_code: 'partner_reward',
      memo_params: { level: 1, charge_id: chargeId },
    });
    // released once: a second run moves nothing more
    await t.app.partnerJobs.release();
    expect((await balancesOf(t, partner.id)).partner).toBe(500);
    expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
  });

  it('a refund during the hold cancels the rewards and takes them off the totals', async () => {
    const { partner, payer, chargeId } = await pendingReward();
    const refunded = await inTransaction(t.app.db, (tx) =>
      billing.refund(tx, chargeId, TEST_REFUND, null),
    );
    expect(refunded).toBe(true);
    expect((await rewardsOf(chargeId))[0]!.status).toBe('cancelled');
    expect(await levelsRow(partner.id)).toEqual([[1, 1, 0, 0, 0]]);
    t.clock.advance((t.config.partner.holdDays + 1) * DAY);
    await t.app.partnerJobs.release();
    expect((await balancesOf(t, partner.id)).partner).toBe(0);
    expect((await balancesOf(t, payer.id)).balance).toBe(10_000);
    const info = await get(partner, '/api/user/partner_info');
    expect(info.body.balances).toEqual({ available: 0, pending: 0 });
  });
});

describe('GET /api/user/partner_info and /api/user/partner/levels', () => {
  it('answers the code, link, active referrals per level, balances and levels', async () => {
    const [top, l2, l1, payer] = await chain(4);
    await fund(t, payer!.id, 100_000);
    expectStatus(
      await postKeyed(
        t,
        '/api/user/monitoring/subscriptions',
        { accounts: 1, months: 1 },
        payer!,
        randomUUID(),
      ),
      201,
    );
    const info = await get(top!, '/api/user/partner_info');
    expectStatus(info, 200);
    const { rows } = await t.sql.query('select referral_code from users where id = $1', [top!.id]);
    const code = rows[0].referral_code;
    expect(info.body).toEqual({
      referral_code: code,
      link: `${t.config.publicUrl}/signup?ref=${code}`,
      link_qr_url: expect.stringMatching(/^data:image\/svg\+xml;base64,/),
      level_1_referral_active_count: 0,
      level_2_referral_active_count: 0,
      level_3_referral_active_count: 1,
      partnerMinWithdrawal: 10,
      balances: { available: 0, pending: expect.any(Number) },
      hold_days: 14,
      reward_percents: [10, 5, 2],
    });
    expect(info.body.balances.pending).toBeGreaterThan(0);
    const qr = Buffer.from(info.body.link_qr_url.split(',')[1], 'base64').toString();
    expect(qr).toMatch(/^<svg[^>]*viewBox/);
    const l1Info = await get(l1!, '/api/user/partner_info');
    expect(l1Info.body.level_1_referral_active_count).toBe(1);
    expect((await get(l2!, '/api/user/partner_info')).body.level_2_referral_active_count).toBe(1);

    const levels = await get(l1!, '/api/user/partner/levels');
    expectStatus(levels, 200);
    const paid = Number(
      (await t.sql.query('select amount_cents from charges where user_id = $1', [payer!.id]))
        .rows[0].amount_cents,
    );
    expect(levels.body.data).toEqual([
      {
        level: 1,
        rewardForLevel: 10,
        userCount: 1,
        rewardCount: paid / 100,
        rewardSum: Math.floor(paid / 10) / 100,
      },
      { level: 2, rewardForLevel: 5, userCount: 0, rewardCount: 0, rewardSum: 0 },
      { level: 3, rewardForLevel: 2, userCount: 0, rewardCount: 0, rewardSum: 0 },
    ]);
  });

  it('is for signed-in users only', async () => {
    expect((await t.api.get('/api/user/partner_info')).status).toBe(401);
    expect((await t.api.get('/api/user/partner/levels')).status).toBe(401);
    expect((await t.api.post('/api/user/partner/infodata', {})).status).toBe(401);
    expect((await t.api.get('/api/user/partner_network/')).status).toBe(401);
  });
});

describe('POST /api/user/partner/infodata', () => {
  it('counts clicks once per visitor a day, registrations, paying clients and rewards by day', async () => {
    const partner = await newUser();
    const { rows } = await t.sql.query('select referral_code from users where id = $1', [
      partner.id,
    ]);
    const code = rows[0].referral_code;
    const click = (agent: string, token?: string) =>
      t.api.post(
        '/api/clicks/create',
        { referral_code: code },
        { headers: { 'user-agent': agent }, ...(token ? { token } : {}) },
      );
    expectStatus(await click('Browser A'), 201);
    expectStatus(await click('Browser A'), 201); // the same visitor that day
    expectStatus(await click('Browser B'), 201);
    expectStatus(await click('Browser C', partner.token), 201); // the owner: not counted
    const referral = await newUser();
    await inTransaction(t.app.db, (tx) => referrals.attach(tx, referral.id, partner.id));
    await t.sql.query('update users set created_at = $2 where id = $1', [
      referral.id,
      t.clock.now(),
    ]);
    await fund(t, referral.id, 10_000);
    await grant(await charge(t, referral.id, 2_500));

    const today = t.clock.now().toISOString().slice(0, 10);
    const res = await t.api.post('/api/user/partner/infodata', {}, { token: partner.token });
    expectStatus(res, 200);
    expect(res.body).toEqual({
      rewardData: [{ date: today, amount: 2.5 }],
      conversionData: [{ date: today, clicks: 2, registrations: 1, paying_clients: 1 }],
      stats: {
        clicks: 2,
        registrations: 1,
        paying_clients: 1,
        conversion: 0.5,
        turnover: 25,
        rewards_pending: 2.5,
        rewards_available: 0,
      },
    });
    const { rows: stored } = await t.sql.query(
      'select * from partner_clicks where partner_id = $1',
      [partner.id],
    );
    expect(stored).toHaveLength(2);
    expect(JSON.stringify(stored)).not.toContain('127.0.0.1');

    // a period before today holds nothing
    const before = await t.api.post(
      '/api/user/partner/infodata',
      { to: new Date(Date.parse(today) - DAY).toISOString() },
      { token: partner.token },
    );
    expect(before.body.stats).toMatchObject({ clicks: 0, registrations: 0, turnover: 0 });
  });

  it('refuses a period that ends before it starts, or a bad date', async () => {
    const partner = await newUser();
    const now = t.clock.now().toISOString();
    for (const body of [{ from: now, to: now }, { from: 'yesterday' }]) {
      const res = await t.api.post('/api/user/partner/infodata', body, { token: partner.token });
      expect(res.status).toBe(422);
    }
  });
});

describe('GET /api/user/partner_network/', () => {
  it('pages the tree a level at a time, masks e-mails, and stops at level 3', async () => {
    const [top, a, b, c] = await chain(4);
    const second = await newUser();
    await inTransaction(t.app.db, (tx) => referrals.attach(tx, second.id, top!.id));
    await fund(t, a!.id, 10_000);
    await grant(await charge(t, a!.id, 1_000));

    const page = await get(top!, '/api/user/partner_network/?per_page=1');
    expectStatus(page, 200);
    expect(page.body.meta).toEqual({ page: 1, per_page: 1, total: 2 });
    expect(page.body.data).toHaveLength(1);
    expect(page.body.data[0].id).toBe(second.id); // newest first
    const next = await get(top!, '/api/user/partner_network/?per_page=1&page=2');
    expect(next.body.meta.total).toBe(2);
    // past the last page: no rows, the total still told
    const past = await get(top!, '/api/user/partner_network/?per_page=1&page=3');
    expect(past.body).toEqual({ data: [], meta: { page: 3, per_page: 1, total: 2 } });
    const node = next.body.data[0];
    expect(node).toEqual({
      id: a!.id,
      email: `${a!.email[0]}***@example.com`,
      registered_at: expect.any(String),
      level: 1,
      active: false,
      referrals: 1,
      turnover: 10,
      rewards: 1,
    });
    const level2 = await get(top!, `/api/user/partner_network/?parent_id=${a!.id}`);
    expect(level2.body.data.map((n: { id: number; level: number }) => [n.id, n.level])).toEqual([
      [b!.id, 2],
    ]);
    const level3 = await get(top!, `/api/user/partner_network/?parent_id=${b!.id}`);
    expect(level3.body.data).toEqual([
      expect.objectContaining({ id: c!.id, level: 3, referrals: 0 }),
    ]);
    // below level 3, and someone else's referrals: not the partner's to see
    expect((await get(top!, `/api/user/partner_network/?parent_id=${c!.id}`)).status).toBe(404);
    const stranger = await newUser();
    expect((await get(top!, `/api/user/partner_network/?parent_id=${stranger.id}`)).status).toBe(
      404,
    );

    const found = await get(
      top!,
      `/api/user/partner_network/?search=${encodeURIComponent(c!.email.slice(0, 12))}`,
    );
    expect(found.body.data).toEqual([expect.objectContaining({ id: c!.id, level: 3 })]);
    expect(found.body.meta.total).toBe(1);
    const none = await get(top!, '/api/user/partner_network/?search=%25');
    expect(none.body).toEqual({ data: [], meta: { page: 1, per_page: 20, total: 0 } });
  });

  it('refuses a bad page or parent', async () => {
    const partner = await newUser();
    for (const query of ['page=0', 'per_page=1000', 'parent_id=abc', 'parent_id=-1']) {
      const res = await get(partner, `/api/user/partner_network/?${query}`);
      expect(res.status, query).toBe(422);
    }
  });
});

describe('withdrawals', () => {
  const TRC20 = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
  const request = (who: User, body: Record<string, unknown>, key: string | null = randomUUID()) =>
    postKeyed(t, '/api/user/partner/createwithdrawal', body, who, key);
  const emailOf = async (who: User) =>
    (await t.sql.query('select email from users where id = $1', [who.id])).rows[0].email as string;

  async function partnerWith(cents: number) {
    const partner = await newUser();
    await fund(t, partner.id, cents, 'balance_partner');
    return partner;
  }

  it('lists the methods with their minimums, the balance and no open request', async () => {
    const partner = await partnerWith(5_000);
    const res = await get(partner, '/api/user/partner/payments');
    expectStatus(res, 200);
    expect(res.body).toEqual({
      data: [
        { id: 'USDT-TRC20', name: 'USDT (TRC-20)', minimum: 20, wallet_example: TRC20 },
        {
          id: 'BTC',
          name: 'Bitcoin',
          minimum: 50,
          wallet_example: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
        },
        { id: 'PAYEER', name: 'Payeer', minimum: 10, wallet_example: 'P1000000' },
      ],
      available: 50,
      open: null,
    });
  });

  it('reserves the amount, shows the open request and its due day, and mails the partner', async () => {
    const partner = await partnerWith(5_000);
    const key = randomUUID();
    const body = { method: 'USDT-TRC20', wallet: ` ${TRC20} `, amount: '30.50' };
    const res = await request(partner, body, key);
    expectStatus(res, 201);
    expect(res.body).toMatchObject({
      withdrawal: { amount: 30.5, method: 'USDT-TRC20', wallet: TRC20, status: 'received' },
      available: 19.5,
      message: 'The withdrawal request has been received',
    });
    const created = new Date(res.body.withdrawal.created_at);
    const due = new Date(res.body.withdrawal.due_at);
    const weekdays = (() => {
      let n = 0;
      for (let d = new Date(created); d < due; d.setUTCDate(d.getUTCDate() + 1)) {
        const next = new Date(d);
        next.setUTCDate(next.getUTCDate() + 1);
        if (next <= due && next.getUTCDay() !== 0 && next.getUTCDay() !== 6) n += 1;
      }
      return n;
    })();
    expect(weekdays).toBe(5);
    expect((await balancesOf(t, partner.id)).partner).toBe(1_950);
    const payments = await get(partner, '/api/user/partner/payments');
    expect(payments.body.open).toMatchObject({ id: res.body.withdrawal.id, status: 'received' });
    const mail = await t.smtp.next(await emailOf(partner), 0);
    expect(mail.subject).toBe('TradeHost: withdrawal request received');
    expect(mail.text).toContain('$30.50');
    // the fourth history of Balance operations shows it
    const history = await get(partner, '/api/user/balance/history/withdrawals');
    expect(history.body.data).toEqual([expect.objectContaining({ id: res.body.withdrawal.id })]);
    // a retry with the same key gets the same answer, moves nothing more and mails no more
    const replay = await request(partner, body, key);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(res.body);
    expect((await balancesOf(t, partner.id)).partner).toBe(1_950);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(t.smtp.to(await emailOf(partner))).toHaveLength(1);
    expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
  });

  it('refuses each bad request with its reason and changes nothing', async () => {
    const partner = await partnerWith(3_000);
    const cases: Array<[Record<string, unknown>, number, ErrorCode, string]> = [
      [{ wallet: TRC20, amount: 25 }, 422, 'WITHDRAWAL_METHOD_INVALID', 'method'],
      [{ method: 'PayPal', wallet: TRC20, amount: 25 }, 422, 'WITHDRAWAL_METHOD_INVALID', 'method'],
      [{ method: 'USDT-TRC20', amount: 25 }, 422, 'WALLET_REQUIRED', 'wallet'],
      [{ method: 'USDT-TRC20', wallet: '  ', amount: 25 }, 422, 'WALLET_REQUIRED', 'wallet'],
      [{ method: 'USDT-TRC20', wallet: 'P1000000', amount: 25 }, 422, 'WALLET_INVALID', 'wallet'],
      [{ method: 'BTC', wallet: TRC20, amount: 60 }, 422, 'WALLET_INVALID', 'wallet'],
      [{ method: 'USDT-TRC20', wallet: TRC20 }, 422, 'AMOUNT_INVALID', 'amount'],
      [{ method: 'USDT-TRC20', wallet: TRC20, amount: '-5' }, 422, 'AMOUNT_INVALID', 'amount'],
      [
        { method: 'USDT-TRC20', wallet: TRC20, amount: 19.99 },
        422,
        'AMOUNT_BELOW_MINIMUM',
        'amount',
      ],
      [
        { method: 'USDT-TRC20', wallet: TRC20, amount: 30.01 },
        422,
        'INSUFFICIENT_FUNDS_WITHDRAWAL',
        'amount',
      ],
    ];
    for (const [body, status, code, field] of cases) {
      const res = await request(partner, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      // the field's own message, in the answer's errors
      expect(res.body.errors?.[field], JSON.stringify(body)).toEqual([ERROR_MESSAGES[code]]);
    }
    expect(
      (await request(partner, { method: 'PAYEER', wallet: 'P1000000', amount: 10 }, null)).status,
    ).toBe(400);
    expect((await balancesOf(t, partner.id)).partner).toBe(3_000);
    const { rows } = await t.sql.query(
      'select count(*)::int as n from withdrawals where user_id = $1',
      [partner.id],
    );
    expect(rows[0].n).toBe(0);
  });

  it('allows one open request: of two at once exactly one wins, the other gets 409', async () => {
    const partner = await partnerWith(10_000);
    const body = { method: 'PAYEER', wallet: 'P1000000', amount: 40 };
    const results = await Promise.all([request(partner, body), request(partner, body)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const refused = results.find((r) => r.status === 409)!;
    expect(refused.body).toMatchObject({
      code: 'WITHDRAWAL_OPEN',
      message: 'A new request is possible only after the previous one is processed',
    });
    expect((await balancesOf(t, partner.id)).partner).toBe(6_000);
    expect((await request(partner, { ...body, amount: 10 })).status).toBe(409);
  });

  it('an operator pays one out with a reference, or cancels one with a reason that returns the money', async () => {
    const admin = await quickUser(t, { role: 'admin' });
    const adminTokens = createAccessTokens(t.config.jwtSecret, 365 * 86_400, t.clock.now);
    const operator = { ...admin, token: (await adminTokens.sign(admin.id)).token };
    const paidPartner = await partnerWith(5_000);
    const cancelledPartner = await partnerWith(5_000);
    const first = await request(paidPartner, { method: 'PAYEER', wallet: 'P1000001', amount: 20 });
    const second = await request(cancelledPartner, {
      method: 'PAYEER',
      wallet: 'P1000002',
      amount: 25,
    });
    const [a, b] = [first.body.withdrawal.id, second.body.withdrawal.id];

    // a user is not an operator
    expect(
      (
        await t.api.post(
          `/api/admin/partner/withdrawals/${a}/pay`,
          { reference: 'x' },
          { token: paidPartner.token },
        )
      ).status,
    ).toBe(403);

    const queue = await get(operator, '/api/admin/partner/withdrawals');
    expectStatus(queue, 200);
    const ids = queue.body.data.map((w: { id: number }) => w.id);
    expect(ids.indexOf(a)).toBeLessThan(ids.indexOf(b)); // oldest first
    expect(queue.body.data.find((w: { id: number }) => w.id === a)).toMatchObject({
      status: 'received',
      overdue: false,
      user: { id: paidPartner.id },
    });

    const review = await t.api.post(`/api/admin/partner/withdrawals/${a}/review`, undefined, {
      token: operator.token,
    });
    expectStatus(review, 200);
    expect(review.body.withdrawal).toMatchObject({ status: 'under_review' });

    const noReference = await t.api.post(
      `/api/admin/partner/withdrawals/${a}/pay`,
      { reference: ' ' },
      { token: operator.token },
    );
    expect(noReference.status).toBe(422);
    const paid = await t.api.post(
      `/api/admin/partner/withdrawals/${a}/pay`,
      { reference: 'PAYEER-778899' },
      { token: operator.token },
    );
    expectStatus(paid, 200);
    expect(paid.body.withdrawal).toMatchObject({
      status: 'paid_out',
      payout_reference: 'PAYEER-778899',
      processed_by: { id: admin.id },
    });
    const again = await t.api.post(
      `/api/admin/partner/withdrawals/${a}/reject`,
      { reason: 'late' },
      { token: operator.token },
    );
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('WITHDRAWAL_PROCESSED');
    expect((await balancesOf(t, paidPartner.id)).partner).toBe(3_000);
    const paidMail = await t.smtp.next(await emailOf(paidPartner), 1);
    expect(paidMail.subject).toBe('TradeHost: withdrawal paid out');
    expect(paidMail.text).toContain('PAYEER-778899');

    const noReason = await t.api.post(
      `/api/admin/partner/withdrawals/${b}/reject`,
      {},
      { token: operator.token },
    );
    expect(noReason.status).toBe(422);
    const cancelled = await t.api.post(
      `/api/admin/partner/withdrawals/${b}/reject`,
      { reason: 'The wallet is not yours' },
      { token: operator.token },
    );
    expectStatus(cancelled, 200);
    expect(cancelled.body.withdrawal).toMatchObject({
      status: 'cancelled',
      reason: 'The wallet is not yours',
    });
    expect((await balancesOf(t, cancelledPartner.id)).partner).toBe(5_000);
    // the request took the amount with its method, the cancellation gave it back naming it
    expect((await memosOf(t, cancelledPartner.id)).slice(0, 2)).toEqual([
      {
        kind: 'refund',
        memo: null,
        memo_code: 'partner_withdrawal_cancelled',
        memo_params: { withdrawal_id: b },
      },
      {
        kind: 'withdrawal',
        memo: null,
        memo_code: 'partner_withdrawal',
        memo_params: { method: 'PAYEER' },
      },
    ]);
    const cancelMail = await t.smtp.next(await emailOf(cancelledPartner), 1);
    expect(cancelMail.text).toContain('The wallet is not yours');
    // processed: a new request may follow
    expect(
      (await request(cancelledPartner, { method: 'PAYEER', wallet: 'P1000002', amount: 10 }))
        .status,
    ).toBe(201);

    const { rows: audit } = await t.sql.query(
      `select action from audit_log where subject_type = 'withdrawal' and subject_id = any($1) order by id`,
      [[String(a), String(b)]],
    );
    expect(audit.map((r) => r.action)).toEqual([
      'partner.withdrawal_request',
      'partner.withdrawal_request',
      'partner.withdrawal_review',
      'partner.withdrawal_paid',
      'partner.withdrawal_cancelled',
    ]);
    expect(
      (
        await t.api.post(
          '/api/admin/partner/withdrawals/999999/pay',
          { reference: 'x' },
          { token: operator.token },
        )
      ).status,
    ).toBe(404);
    expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
  });
});

describe('partner promocodes', () => {
  const create = (who: User, body: Record<string, unknown>) =>
    t.api.post('/api/user/balance/promocode', body, { token: who.token });
  const uniqueName = () => `P${randomUUID().replace(/-/g, '').slice(0, 12)}`;

  it('offers the discounts of the partner’s tier, which grows with active referrals', async () => {
    const partner = await newUser();
    const res = await get(partner, '/api/user/balance/available_discount');
    expectStatus(res, 200);
    expect(res.body).toEqual({
      available_discounts: [5],
      active_referrals: 0,
      tiers: [
        { active_referrals: 0, discount: 5 },
        { active_referrals: 5, discount: 10 },
        { active_referrals: 20, discount: 15 },
      ],
      next_tier: { active_referrals: 5, discount: 10 },
    });
    // five referrals with an Active paid server (a trial one does not count)
    for (let i = 0; i < 6; i += 1) {
      const referral = await newUser();
      await inTransaction(t.app.db, (tx) => referrals.attach(tx, referral.id, partner.id));
      await seedServer(t, {
        userId: referral.id,
        paidUntil: new Date(t.clock.now().getTime() + 20 * DAY),
        isTrial: i === 5,
      });
    }
    const grown = await get(partner, '/api/user/balance/available_discount');
    expect(grown.body).toMatchObject({
      available_discounts: [5, 10],
      active_referrals: 5,
      next_tier: { active_referrals: 20, discount: 15 },
    });
    expectStatus(await create(partner, { name: uniqueName(), discount: 10 }), 201);
  });

  it('creates, lists and deletes a promocode; refuses bad names, taken names, other discounts', async () => {
    const partner = await newUser();
    const name = uniqueName();
    const created = await create(partner, { name: ` ${name} `, discount: 5 });
    expectStatus(created, 201);
    expect(created.body).toMatchObject({
      promocode: { name, discount: 5, times_used: 0 },
      message: 'The promocode has been created',
    });
    const cases: Array<[Record<string, unknown>, string, ErrorCode]> = [
      [{ name: 'ab', discount: 5 }, 'name', 'PROMOCODE_NAME_INVALID'],
      [{ name: 'AB-123', discount: 5 }, 'name', 'PROMOCODE_NAME_INVALID'],
      [{ discount: 5 }, 'name', 'PROMOCODE_NAME_INVALID'],
      [{ name: name.toLowerCase(), discount: 5 }, 'name', 'PROMOCODE_TAKEN'],
      [{ name: uniqueName(), discount: 10 }, 'discount', 'DISCOUNT_NOT_AVAILABLE'],
      [{ name: uniqueName(), discount: 'five' }, 'discount', 'DISCOUNT_NOT_AVAILABLE'],
    ];
    for (const [body, field, code] of cases) {
      const res = await create(partner, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors?.[field], JSON.stringify(body)).toEqual([ERROR_MESSAGES[code]]);
    }
    const list = await get(partner, '/api/user/balance/promocodes');
    expect(list.body.data).toEqual([expect.objectContaining({ name, discount: 5 })]);

    const id = created.body.promocode.id;
    const other = await newUser();
    const foreign = await t.api.request('DELETE', `/api/user/balance/promocode/${id}`, {
      token: other.token,
    });
    expect(foreign.status).toBe(404);
    const removed = await t.api.request('DELETE', `/api/user/balance/promocode/${id}`, {
      token: partner.token,
    });
    expectStatus(removed, 200);
    expect(removed.body.message).toBe('The promocode has been deleted');
    expect(
      (await t.api.request('DELETE', `/api/user/balance/promocode/${id}`, { token: partner.token }))
        .status,
    ).toBe(404);
    expect((await get(partner, '/api/user/balance/promocodes')).body.data).toEqual([]);
    // deleted: it stops working, and its row stays
    const buyer = await newUser();
    await fund(t, buyer.id, 100_000);
    const refused = await postKeyed(
      t,
      '/api/user/vps/order',
      { rate_id: (await trader()).id, months: 1, source: 'search', promocode: name },
      buyer,
      randomUUID(),
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.promocode).toEqual([ERROR_MESSAGES.PROMOCODE_NOT_FOUND]);
    const { rows } = await t.sql.query('select deleted_at from promocodes where id = $1', [id]);
    expect(rows[0].deleted_at).not.toBeNull();
  });

  it('holds at most 20 at once', async () => {
    const partner = await newUser();
    for (let i = 0; i < 20; i += 1)
      expectStatus(await create(partner, { name: uniqueName(), discount: 5 }), 201);
    const over = await create(partner, { name: uniqueName(), discount: 5 });
    expect(over.status).toBe(422);
    expect(over.body.code).toBe('PROMOCODES_LIMIT');
  });

  it('gives its discount on a first order and makes a user without a referrer the partner’s referral', async () => {
    const partner = await newUser();
    const name = uniqueName();
    expectStatus(await create(partner, { name, discount: 5 }), 201);
    const rate = await trader();
    const orderWith = (who: User, promocode: string) =>
      postKeyed(
        t,
        '/api/user/vps/order',
        { rate_id: rate.id, months: 1, source: 'search', promocode },
        who,
        randomUUID(),
      );
    const referrerOf = async (who: User) =>
      (await t.sql.query('select referrer_id from users where id = $1', [who.id])).rows[0]
        .referrer_id;

    // the owner cannot use it
    await fund(t, partner.id, 100_000);
    const own = await orderWith(partner, name);
    expect(own.status).toBe(422);
    expect(own.body.errors?.promocode).toEqual([ERROR_MESSAGES.PROMOCODE_OWN]);
    const check = await get(partner, `/api/user/vps/promocode?code=${name}`);
    expect(check.status).toBe(422);

    // a new user: discount, and the partner becomes their referrer
    const buyer = await newUser();
    await fund(t, buyer.id, 100_000);
    const ordered = await orderWith(buyer, name.toLowerCase());
    expectStatus(ordered, 201);
    const { rows: period } = await t.sql.query(
      'select coalesce(max(discount_percent), 0) as p from vps_period_discounts where months = 1',
    );
    const price = rentalPrice({
      monthlyCents: rate.monthlyPriceCents,
      months: 1,
      periodDiscountPercent: Number(period[0].p),
      promoDiscountPercent: 5,
    });
    expect(price.promoDiscountCents).toBeGreaterThan(0);
    expect(ordered.body.charged).toBe(price.totalCents / 100);
    expect(Number(await referrerOf(buyer))).toBe(partner.id);
    expect((await get(partner, '/api/user/balance/promocodes')).body.data[0].times_used).toBe(1);

    // a user who has paid before keeps having no referrer; one with a referrer keeps theirs
    const regular = await newUser();
    await fund(t, regular.id, 100_000);
    await charge(t, regular.id, 100);
    expectStatus(await orderWith(regular, name), 201);
    expect(await referrerOf(regular)).toBeNull();
    const [otherPartner, referred] = await chain(2);
    await fund(t, referred!.id, 100_000);
    expectStatus(await orderWith(referred!, name), 201);
    expect(Number(await referrerOf(referred!))).toBe(otherPartner!.id);
    expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
  });
});

describe('the operator’s settings', () => {
  it('changes the percentages and tiers (granted rewards keep theirs), refuses bad ones, audits', async () => {
    const admin = await quickUser(t, { role: 'admin' });
    const tokens = createAccessTokens(t.config.jwtSecret, 365 * 86_400, t.clock.now);
    const operator = { ...admin, token: (await tokens.sign(admin.id)).token };
    const put = (body: unknown, who: { token: string } = operator) =>
      t.api.request('PUT', '/api/admin/partner/settings', { body, token: who.token });
    const before = await get(operator, '/api/admin/partner/settings');
    expectStatus(before, 200);
    const seeded = {
      reward_percents: [10, 5, 2],
      discount_tiers: [
        { active_referrals: 0, discount: 5 },
        { active_referrals: 5, discount: 10 },
        { active_referrals: 20, discount: 15 },
      ],
    };
    expect(before.body).toEqual(seeded);

    const [partner, payer] = await chain(2);
    await fund(t, payer!.id, 10_000);
    const earlier = await charge(t, payer!.id, 1_000);
    await grant(earlier);

    const user = await newUser();
    expect((await put(seeded, user)).status).toBe(403);
    const bad: Array<[unknown, string]> = [
      [{ ...seeded, reward_percents: [10, 5] }, 'reward_percents'],
      [{ ...seeded, reward_percents: [10, 5, 60] }, 'reward_percents'],
      [{ ...seeded, reward_percents: [10.125, 5, 2] }, 'reward_percents'],
      [{ ...seeded, discount_tiers: [] }, 'discount_tiers'],
      [{ ...seeded, discount_tiers: [{ active_referrals: 1, discount: 5 }] }, 'discount_tiers'],
      [
        {
          ...seeded,
          discount_tiers: [
            { active_referrals: 0, discount: 10 },
            { active_referrals: 5, discount: 5 },
          ],
        },
        'discount_tiers',
      ],
      [{ ...seeded, discount_tiers: [{ active_referrals: 0, discount: 95 }] }, 'discount_tiers'],
      // beyond the column's 32-bit integer: refused, not a 500
      [
        {
          ...seeded,
          discount_tiers: [
            { active_referrals: 0, discount: 5 },
            { active_referrals: 3_000_000_000, discount: 10 },
          ],
        },
        'discount_tiers',
      ],
    ];
    for (const [body, field] of bad) {
      const res = await put(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.body.errors ?? {}).some((key) => key.startsWith(field))).toBe(true);
    }
    expect((await get(operator, '/api/admin/partner/settings')).body).toEqual(seeded);

    const changed = {
      reward_percents: [12.5, 4, 0],
      discount_tiers: [
        { active_referrals: 0, discount: 3 },
        { active_referrals: 10, discount: 12 },
      ],
    };
    try {
      const res = await put(changed);
      expectStatus(res, 200);
      expect(res.body).toEqual(changed);
      const later = await charge(t, payer!.id, 1_000);
      await grant(later);
      // 1,000 x 12.5 % = 125 now; the earlier reward keeps its 10 %
      expect((await rewardsOf(earlier))[0]).toMatchObject({ percent: 10, amount: 100 });
      expect((await rewardsOf(later))[0]).toMatchObject({ percent: 12.5, amount: 125 });
      const discounts = await get(partner!, '/api/user/balance/available_discount');
      expect(discounts.body).toMatchObject({
        available_discounts: [3],
        next_tier: { active_referrals: 10, discount: 12 },
      });
      const { rows } = await t.sql.query(
        `select details from audit_log where action = 'partner.settings' order by id desc limit 1`,
      );
      expect(rows[0].details).toEqual({ before: seeded, after: changed });
    } finally {
      expectStatus(await put(seeded), 200);
    }
  });
});
