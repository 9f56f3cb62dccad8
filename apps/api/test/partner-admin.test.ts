import { describe, expect, it } from 'vitest';
import { billing } from '../src/db/billing.ts';
import { partnerRewards } from '../src/db/partner-rewards.ts';
import { referrals } from '../src/db/referrals.ts';
import { inTransaction } from '../src/db/transaction.ts';
import { createAccessTokens } from '../src/modules/auth/access-token.ts';
import { fund, quickUser, useTestApp } from './helpers.ts';
import { charge, DAY, expectStatus, TEST_REFUND } from './vps-fixtures.ts';

const t = useTestApp();

type User = Awaited<ReturnType<typeof quickUser>>;

/** quickUser, its token signed on the test clock (the hold's step moves it days ahead). */
async function newUser(fields: { name?: string; role?: 'user' | 'admin' } = {}): Promise<User> {
  const made = await quickUser(t, fields);
  const tokens = createAccessTokens(t.config.jwtSecret, 365 * 86_400, t.clock.now);
  return { ...made, token: (await tokens.sign(made.id)).token };
}

const attach = (referral: User, referrer: User) =>
  inTransaction(t.app.db, (tx) => referrals.attach(tx, referral.id, referrer.id));
const grant = (chargeId: number) =>
  inTransaction(t.app.db, (tx) => partnerRewards.grant(tx, chargeId, t.clock.now()));
const summaryOf = (id: number | string, who: { token: string }) =>
  t.api.get(`/api/admin/partner/users/${id}`, { token: who.token });
const person = (user: User) => ({ id: user.id, email: user.email, name: user.name });

describe('GET /api/admin/partner/users/:id', () => {
  it('is for operators only: 401 without a token, 403 for a user, 404 for no such user', async () => {
    const operator = await newUser({ role: 'admin' });
    const user = await newUser();
    expect((await t.api.get(`/api/admin/partner/users/${user.id}`)).status).toBe(401);
    const refused = await summaryOf(user.id, user);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'FORBIDDEN' });
    for (const id of ['999999999', '0', 'abc', '9007199254740992']) {
      const missing = await summaryOf(id, operator);
      expect(missing.status, id).toBe(404);
      expect(missing.body).toMatchObject({ code: 'NOT_FOUND', message: 'Not found' });
    }
  });

  it("answers a user who is no one's partner with zeros and no rewards", async () => {
    const operator = await newUser({ role: 'admin' });
    const user = await newUser({ name: 'Lone Trader' });
    const res = await summaryOf(user.id, operator);
    expectStatus(res, 200);
    const { rows } = await t.sql.query('select referral_code from users where id = $1', [user.id]);
    expect(res.body).toEqual({
      user: person(user),
      referral_code: rows[0].referral_code,
      link: `${t.config.publicUrl}/signup?ref=${rows[0].referral_code}`,
      referrer: null,
      active_referrals: [0, 0, 0],
      balances: { available: 0, pending: 0 },
      hold_days: t.config.partner.holdDays,
      levels: [1, 2, 3].map((level, i) => ({
        level,
        rewardForLevel: [10, 5, 2][i],
        userCount: 0,
        rewardCount: 0,
        rewardSum: 0,
      })),
      rewards: [],
    });
  });

  it('shows the referrer, balances, levels and the latest rewards as they are granted, released and cancelled', async () => {
    const operator = await newUser({ role: 'admin' });
    const top = await newUser({ name: 'Top' });
    const partner = await newUser({ name: 'Partner' });
    const payer = await newUser({ name: 'Payer' });
    expect(await attach(partner, top)).toBe(true);
    expect(await attach(payer, partner)).toBe(true);
    await fund(t, payer.id, 100_000);
    await fund(t, partner.id, 1_250, 'balance_partner');

    // $19.99 x 10 % = 199.9 cents -> $1.99, pending for the hold
    const first = await charge(t, payer.id, 1_999);
    expect(await grant(first)).toBe(2);
    const granted = await summaryOf(partner.id, operator);
    expectStatus(granted, 200);
    expect(granted.body).toMatchObject({
      user: person(partner),
      referrer: person(top),
      balances: { available: 12.5, pending: 1.99 },
      levels: [
        { level: 1, rewardForLevel: 10, userCount: 1, rewardCount: 19.99, rewardSum: 1.99 },
        { level: 2, rewardForLevel: 5, userCount: 0, rewardCount: 0, rewardSum: 0 },
        { level: 3, rewardForLevel: 2, userCount: 0, rewardCount: 0, rewardSum: 0 },
      ],
    });
    const [reward] = granted.body.rewards;
    expect(granted.body.rewards).toHaveLength(1);
    expect(reward).toEqual({
      id: expect.any(Number),
      charge_id: first,
      level: 1,
      from_user: person(payer),
      base: 19.99,
      percent: 10,
      amount: 1.99,
      status: 'pending',
      created_at: expect.any(String),
      // due when the hold ends
      available_at: new Date(
        Date.parse(reward.created_at) + t.config.partner.holdDays * DAY,
      ).toISOString(),
    });
    // the top partner sees the same charge on level 2: $19.99 x 5 % = 99.95 cents -> $0.99
    const topSummary = await summaryOf(top.id, operator);
    expect(topSummary.body.referrer).toBeNull();
    expect(topSummary.body.rewards).toEqual([
      expect.objectContaining({ charge_id: first, level: 2, amount: 0.99, status: 'pending' }),
    ]);
    expect(topSummary.body.levels[1]).toMatchObject({ userCount: 1, rewardSum: 0.99 });

    // past the hold the job moves it into the partner balance
    t.clock.advance(t.config.partner.holdDays * DAY + 60_000);
    expect(await t.app.partnerJobs.release()).toBeGreaterThanOrEqual(2);
    const released = await summaryOf(partner.id, operator);
    expect(released.body.balances).toEqual({ available: 14.49, pending: 0 });
    const { rows } = await t.sql.query('select settled_at from partner_rewards where id = $1', [
      reward.id,
    ]);
    expect(released.body.rewards).toEqual([
      {
        ...reward,
        status: 'available',
        available_at: new Date(rows[0].settled_at).toISOString(),
      },
    ]);

    // a later charge refunded during its hold: listed first, cancelled, with no available date
    const second = await charge(t, payer.id, 5_000);
    await grant(second);
    expect(
      await inTransaction(t.app.db, (tx) => billing.refund(tx, second, TEST_REFUND, null)),
    ).toBe(true);
    const third = await charge(t, payer.id, 3_000);
    await grant(third);
    const latest = await summaryOf(partner.id, operator);
    expect(
      latest.body.rewards.map((r: { charge_id: number; status: string; available_at: unknown }) => [
        r.charge_id,
        r.status,
        r.available_at === null,
      ]),
    ).toEqual([
      [third, 'pending', false],
      [second, 'cancelled', true],
      [first, 'available', false],
    ]);
    expect(latest.body.balances).toEqual({ available: 14.49, pending: 3 });
    expect(latest.body.levels[0]).toMatchObject({ rewardCount: 49.99, rewardSum: 4.99 });
  });

  it('lists the latest 20 rewards, newest first', async () => {
    const operator = await newUser({ role: 'admin' });
    const partner = await newUser();
    const payer = await newUser();
    await attach(payer, partner);
    await fund(t, payer.id, 100_000);
    const charges: number[] = [];
    for (let i = 0; i < 22; i += 1) {
      const id = await charge(t, payer.id, 100 + i);
      await grant(id);
      charges.push(id);
      t.clock.advance(1_000);
    }
    const res = await summaryOf(partner.id, operator);
    expectStatus(res, 200);
    expect(res.body.rewards.map((r: { charge_id: number }) => r.charge_id)).toEqual(
      charges.slice(2).reverse(),
    );
    expect(res.body.levels[0]).toMatchObject({ userCount: 1 });
  });
});

describe('GET /api/admin/partner/users/:id/network', () => {
  const networkOf = (id: number | string, who: { token: string }, query = '') =>
    t.api.get(`/api/admin/partner/users/${id}/network${query ? `?${query}` : ''}`, {
      token: who.token,
    });
  const idsAndLevels = (body: { data: Array<{ id: number; level: number }> }) =>
    body.data.map((node) => [node.id, node.level]);

  /** top <- a <- b <- c, and top's later referral `second`: a and b have paid. */
  async function network() {
    const top = await newUser({ name: 'Top' });
    const a = await newUser({ name: 'Alpha Level1' });
    const b = await newUser({ name: 'Beta Level2' });
    const c = await newUser({ name: 'Gamma Level3' });
    const second = await newUser({ name: 'Second Level1' });
    expect(await attach(a, top)).toBe(true);
    expect(await attach(b, a)).toBe(true);
    expect(await attach(c, b)).toBe(true);
    expect(await attach(second, top)).toBe(true);
    await fund(t, a.id, 10_000);
    await fund(t, b.id, 10_000);
    // a pays $10: top earns 10 % ($1); b pays $20: a earns 10 % ($2), top 5 % ($1)
    expect(await grant(await charge(t, a.id, 1_000))).toBe(1);
    expect(await grant(await charge(t, b.id, 2_000))).toBe(2);
    return { top, a, b, c, second };
  }

  it('is for operators only: 401 without a token, 403 for a user, 404 for no such user', async () => {
    const operator = await newUser({ role: 'admin' });
    const user = await newUser();
    expect((await t.api.get(`/api/admin/partner/users/${user.id}/network`)).status).toBe(401);
    // a user may not read even their own network here (theirs is /user/partner_network/, masked)
    for (const id of [user.id, 999_999_999]) {
      const refused = await networkOf(id, user);
      expect(refused.status, String(id)).toBe(403);
      expect(refused.body).toMatchObject({ code: 'FORBIDDEN' });
    }
    for (const id of ['999999999', '0', '-1', 'abc', '9007199254740992']) {
      const missing = await networkOf(id, operator);
      expect(missing.status, id).toBe(404);
      expect(missing.body).toMatchObject({ code: 'NOT_FOUND', message: 'Not found' });
    }
    // searched or paged, an unknown user is still not there
    expect((await networkOf(999_999_999, operator, 'search=x&page=2')).status).toBe(404);
  });

  it('refuses bad paging and an overlong search with 422', async () => {
    const operator = await newUser({ role: 'admin' });
    const user = await newUser();
    for (const query of [
      'page=0',
      'page=-1',
      'page=1.5',
      'page=abc',
      'page=100001',
      'per_page=0',
      'per_page=101',
      'per_page=1000',
      `search=${'x'.repeat(101)}`,
    ]) {
      const res = await networkOf(user.id, operator, query);
      expect(res.status, query).toBe(422);
      expect(res.body, query).toMatchObject({
        code: expect.any(String),
        message: expect.any(String),
      });
    }
  });

  it("lists the first-level referrals only, newest first, e-mails unmasked, with this partner's rewards", async () => {
    const operator = await newUser({ role: 'admin' });
    const { top, a, b, c, second } = await network();

    const res = await networkOf(top.id, operator);
    expectStatus(res, 200);
    expect(res.body).toEqual({
      data: [
        {
          id: second.id,
          email: second.email,
          registered_at: expect.any(String),
          level: 1,
          active: false,
          referrals: 0,
          turnover: 0,
          rewards: 0,
        },
        {
          id: a.id,
          email: a.email,
          registered_at: expect.any(String),
          level: 1,
          active: false,
          referrals: 1,
          // what a paid, and top's reward from a's payment alone (not the $1 from b's)
          turnover: 10,
          rewards: 1,
        },
      ],
      meta: { page: 1, per_page: 20, total: 2 },
    });
    const { rows } = await t.sql.query('select created_at from users where id = $1', [a.id]);
    expect(res.body.data[1].registered_at).toBe(new Date(rows[0].created_at).toISOString());
    // neither level 2 nor level 3 is among them
    const ids = res.body.data.map((node: { id: number }) => node.id);
    expect(ids).not.toContain(b.id);
    expect(ids).not.toContain(c.id);

    // a's page: b, with what a earned from b (10 % of $20)
    const ofA = await networkOf(a.id, operator);
    expect(ofA.body.data).toEqual([
      expect.objectContaining({
        id: b.id,
        email: b.email,
        level: 1,
        referrals: 1,
        turnover: 20,
        rewards: 2,
      }),
    ]);
    // b's: c, who has no referrals of their own
    const ofB = await networkOf(b.id, operator);
    expect(ofB.body.data).toEqual([
      expect.objectContaining({ id: c.id, email: c.email, level: 1, referrals: 0, rewards: 0 }),
    ]);

    // the partner's own view of the same network stays masked
    const own = await t.api.get('/api/user/partner_network/', { token: top.token });
    expectStatus(own, 200);
    expect(own.body.data.map((node: { email: string }) => node.email)).toEqual([
      `${second.email[0]}***@example.com`,
      `${a.email[0]}***@example.com`,
    ]);
  });

  it('answers a user with no referrals with an empty page, not 404', async () => {
    const operator = await newUser({ role: 'admin' });
    const lone = await newUser();
    const res = await networkOf(lone.id, operator);
    expectStatus(res, 200);
    expect(res.body).toEqual({ data: [], meta: { page: 1, per_page: 20, total: 0 } });
    const searched = await networkOf(lone.id, operator, 'search=nobody');
    expect(searched.body).toEqual({ data: [], meta: { page: 1, per_page: 20, total: 0 } });
  });

  it('searches all three levels by e-mail or name, and nobody outside the network', async () => {
    const operator = await newUser({ role: 'admin' });
    const { top, a, b, c, second } = await network();
    const stranger = await newUser({ name: 'Gamma Level3 Stranger' });

    const byEmail = await networkOf(top.id, operator, `search=${encodeURIComponent(c.email)}`);
    expectStatus(byEmail, 200);
    expect(byEmail.body).toEqual({
      data: [expect.objectContaining({ id: c.id, email: c.email, level: 3, referrals: 0 })],
      meta: { page: 1, per_page: 20, total: 1 },
    });
    const byLevel2Email = await networkOf(
      top.id,
      operator,
      `search=${encodeURIComponent(b.email)}`,
    );
    expect(byLevel2Email.body.data).toEqual([
      expect.objectContaining({
        id: b.id,
        email: b.email,
        level: 2,
        referrals: 1,
        turnover: 20,
        // top's level-2 reward from b's payment: 5 % of $20
        rewards: 1,
      }),
    ]);
    // by name, any case: the stranger of the same name is not top's
    const byName = await networkOf(top.id, operator, 'search=gamma%20level3');
    expect(idsAndLevels(byName.body)).toEqual([[c.id, 3]]);
    const stray = await networkOf(top.id, operator, `search=${encodeURIComponent(stranger.email)}`);
    expect(stray.body).toEqual({ data: [], meta: { page: 1, per_page: 20, total: 0 } });
    // a part every address has: all three levels, newest first
    const all = await networkOf(top.id, operator, 'search=%40example.com');
    expect(idsAndLevels(all.body)).toEqual([
      [second.id, 1],
      [c.id, 3],
      [b.id, 2],
      [a.id, 1],
    ]);
    expect(all.body.meta.total).toBe(4);
    // LIKE's wildcards are plain characters
    const percent = await networkOf(top.id, operator, 'search=%25');
    expect(percent.body).toEqual({ data: [], meta: { page: 1, per_page: 20, total: 0 } });
    // an empty search (or blanks) is no search: level 1 only
    const blank = await networkOf(top.id, operator, 'search=%20%20');
    expect(idsAndLevels(blank.body)).toEqual([
      [second.id, 1],
      [a.id, 1],
    ]);
  });

  it('pages: the meta, the next page, and a page past the end that still tells the total', async () => {
    const operator = await newUser({ role: 'admin' });
    const { top, a, b, c, second } = await network();

    const first = await networkOf(top.id, operator, 'per_page=1');
    expectStatus(first, 200);
    expect(first.body.meta).toEqual({ page: 1, per_page: 1, total: 2 });
    expect(idsAndLevels(first.body)).toEqual([[second.id, 1]]);
    const next = await networkOf(top.id, operator, 'per_page=1&page=2');
    expect(next.body.meta).toEqual({ page: 2, per_page: 1, total: 2 });
    expect(idsAndLevels(next.body)).toEqual([[a.id, 1]]);
    const past = await networkOf(top.id, operator, 'per_page=1&page=3');
    expectStatus(past, 200);
    expect(past.body).toEqual({ data: [], meta: { page: 3, per_page: 1, total: 2 } });
    const farPast = await networkOf(top.id, operator, 'page=100000');
    expect(farPast.body).toEqual({ data: [], meta: { page: 100000, per_page: 20, total: 2 } });

    // a search is paged the same way
    const searched = await networkOf(top.id, operator, 'search=%40example.com&per_page=3&page=2');
    expect(searched.body).toEqual({
      data: [expect.objectContaining({ id: a.id, level: 1 })],
      meta: { page: 2, per_page: 3, total: 4 },
    });
    const searchedPast = await networkOf(
      top.id,
      operator,
      'search=%40example.com&per_page=3&page=3',
    );
    expect(searchedPast.body).toEqual({ data: [], meta: { page: 3, per_page: 3, total: 4 } });
    expect([b.id, c.id]).not.toContain(searched.body.data[0].id);
  });
});
