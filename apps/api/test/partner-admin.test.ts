import { describe, expect, it } from 'vitest';
import { billing } from '../src/db/billing.ts';
import { partnerRewards } from '../src/db/partner-rewards.ts';
import { referrals } from '../src/db/referrals.ts';
import { inTransaction } from '../src/db/transaction.ts';
import { createAccessTokens } from '../src/modules/auth/access-token.ts';
import { fund, quickUser, useTestApp } from './helpers.ts';
import { charge, DAY, expectStatus } from './vps-fixtures.ts';

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
      await inTransaction(t.app.db, (tx) => billing.refund(tx, second, 'Refund: test', null)),
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
