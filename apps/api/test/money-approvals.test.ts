import { describe, expect, it } from 'vitest';
import {
  balancesOf,
  fieldRefusal,
  fund,
  ledgerInvariants,
  operator,
  postKeyed,
  quickUser,
  refusal,
  useTestApp,
  type Json,
  type QuickUser,
} from './helpers.ts';

/*
 * Four eyes on money (issue 42): an adjustment or a partner payout above OPERATOR_APPROVAL_ABOVE
 * ($500 by default) waits for a second operator with the billing role; each operator has a daily
 * limit on adjustments (OPERATOR_DAILY_ADJUST_MAX, $5,000 by default). Real HTTP, the default
 * thresholds (the test app does not set them).
 */

const t = useTestApp();

const ADJUST = (id: number) => `/api/admin/users/${id}/adjustments`;
const APPROVE = (id: number) => `/api/admin/adjustments/${id}/approve`;
const DECLINE = (id: number) => `/api/admin/adjustments/${id}/decline`;
const PAY = (id: number) => `/api/admin/partner/withdrawals/${id}/pay`;
const PAYOUT_APPROVE = (id: number) => `/api/admin/partner/payouts/${id}/approve`;
const PAYOUT_DECLINE = (id: number) => `/api/admin/partner/payouts/${id}/decline`;

const post = (who: QuickUser, path: string, body?: unknown) => postKeyed(t, path, body, who);
const get = (who: QuickUser, path: string) => t.api.get(path, { token: who.token });

async function rowsOf(table: string, where: string, params: unknown[]) {
  return (await t.sql.query(`select * from ${table} where ${where} order by id`, params)).rows;
}

const auditOf = (approvalId: number) =>
  rowsOf('audit_log', "details->>'approval_id' = $1", [String(approvalId)]).then((rows) =>
    rows.map((r: Json) => [r.action, Number(r.actor_id)]),
  );

async function adjustmentLedgerOf(userId: number) {
  const rows = await t.sql.query(
    `select count(*)::int as n from ledger_entries e join ledger_transactions x on x.id = e.transaction_id
     where e.user_id = $1 and x.kind = 'adjustment' and x.memo <> 'test funding'`,
    [userId],
  );
  return rows.rows[0].n as number;
}

describe('an adjustment above OPERATOR_APPROVAL_ABOVE', () => {
  it('up to $500 takes effect at once; above it waits, moves nothing and is listed', async () => {
    const alice = await operator(t, ['billing']);
    const user = await quickUser(t);

    const atThreshold = await post(alice, ADJUST(user.id), { amount: '500', reason: 'Refund' });
    expect(atThreshold.status).toBe(201);
    expect((await balancesOf(t, user.id)).balance).toBe(50_000);

    const asked = await post(alice, ADJUST(user.id), { amount: '500.01', reason: 'Goodwill' });
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({
      code: 'APPROVAL_REQUESTED',
      approval: {
        kind: 'adjustment',
        status: 'pending',
        amount: 500.01,
        account: 'balance',
        reason: 'Goodwill',
        requested_by: { id: alice.id, email: alice.email },
        user: { id: user.id },
        decided_by: null,
        withdrawal_id: null,
      },
    });
    // nothing moved: the balance, the ledger, the user's history
    expect((await balancesOf(t, user.id)).balance).toBe(50_000);
    expect(await adjustmentLedgerOf(user.id)).toBe(1);
    expect(await rowsOf('payments', 'user_id = $1', [user.id])).toHaveLength(1);
    const id = asked.body.approval.id as number;
    expect(await auditOf(id)).toEqual([['balance.adjust_requested', alice.id]]);

    const queue = await get(alice, '/api/admin/approvals');
    expect(queue.status).toBe(200);
    expect(queue.body.data.map((a: Json) => a.id)).toContain(id);
    // a debit is measured by its size too
    const debit = await post(alice, ADJUST(user.id), { amount: '-600', reason: 'Chargeback' });
    expect(debit.status).toBe(202);
    expect((await balancesOf(t, user.id)).balance).toBe(50_000);
  });

  it('takes effect when a second billing operator approves; never by its requester', async () => {
    const alice = await operator(t, ['billing']);
    const bob = await operator(t, ['billing']);
    const support = await operator(t, ['support']);
    const user = await quickUser(t);
    const asked = await post(alice, ADJUST(user.id), { amount: '750', reason: 'Compensation' });
    const id = asked.body.approval.id as number;

    expect(await post(alice, APPROVE(id))).toMatchObject({
      status: 403,
      body: refusal('APPROVAL_OWN_REQUEST'),
    });
    expect(await post(support, APPROVE(id))).toMatchObject({ status: 403 });
    // a billing operator who is the user: not on their own money
    const self = await operator(t, ['billing']);
    const selfAsked = await post(alice, ADJUST(self.id), { amount: '900', reason: 'Bonus' });
    expect(await post(self, APPROVE(selfAsked.body.approval.id))).toMatchObject({
      status: 403,
      body: refusal('OPERATOR_SELF_ACTION'),
    });
    expect((await balancesOf(t, user.id)).balance).toBe(0);
    expect((await balancesOf(t, self.id)).balance).toBe(0);

    const approved = await post(bob, APPROVE(id));
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      code: 'APPROVAL_APPROVED',
      entry: { kind: 'adjustment', account: 'balance', amount: 750, balance_after: 750 },
      approval: { status: 'approved', decided_by: { id: bob.id }, requested_by: { id: alice.id } },
      user: { id: user.id, balance: 750 },
    });
    expect((await balancesOf(t, user.id)).balance).toBe(75_000);
    // shown to the user as a top-up, audited with both operators
    expect(await rowsOf('payments', "user_id = $1 and method = 'adjustment'", [user.id])).toEqual([
      expect.objectContaining({ status: 'paid', reason: 'Compensation' }),
    ]);
    expect(await auditOf(id)).toEqual([
      ['balance.adjust_requested', alice.id],
      ['balance.adjust', bob.id],
    ]);
    const [row] = await rowsOf('money_approvals', 'id = $1', [id]);
    expect(row.ledger_transaction_id).toBe(String(approved.body.entry.transaction_id));

    expect(await post(bob, APPROVE(id))).toMatchObject({
      status: 409,
      body: refusal('APPROVAL_DECIDED'),
    });
    expect(await post(bob, DECLINE(id), { reason: 'late' })).toMatchObject({ status: 409 });
    expect(await ledgerInvariants(t)).toMatchObject({ unbalanced: 0, drift: 0, negative: 0 });
  });

  it('of two approvals at once exactly one takes effect', async () => {
    const alice = await operator(t, ['billing']);
    const approvers = await Promise.all([1, 2, 3].map(() => operator(t, ['billing'])));
    const user = await quickUser(t);
    for (let round = 0; round < 3; round++) {
      const asked = await post(alice, ADJUST(user.id), {
        amount: '1000',
        reason: `Round ${round}`,
      });
      const id = asked.body.approval.id as number;
      const results = await Promise.all(approvers.map((who) => post(who, APPROVE(id))));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
      expect((await balancesOf(t, user.id)).balance).toBe((round + 1) * 100_000);
    }
    expect(await adjustmentLedgerOf(user.id)).toBe(3);
    expect(await ledgerInvariants(t)).toMatchObject({ unbalanced: 0, drift: 0, negative: 0 });
  });

  it('a debit the purse no longer covers stays pending; declined, nothing moves', async () => {
    const alice = await operator(t, ['billing']);
    const bob = await operator(t, ['billing']);
    const user = await quickUser(t);
    await fund(t, user.id, 80_000);
    const asked = await post(alice, ADJUST(user.id), { amount: '-700', reason: 'Chargeback' });
    const id = asked.body.approval.id as number;
    // the user spends in between
    await t.sql.query(
      `with x as (insert into ledger_transactions (kind, memo) values ('adjustment', 'test funding') returning id)
       insert into ledger_entries (transaction_id, user_id, account, amount_cents)
       select id, $1::bigint, 'balance', -20000 from x union all select id, null, 'adjustments', 20000 from x`,
      [user.id],
    );
    expect(await post(bob, APPROVE(id))).toMatchObject({
      status: 422,
      body: fieldRefusal('amount', 'INSUFFICIENT_FUNDS'),
    });
    expect((await rowsOf('money_approvals', 'id = $1', [id]))[0].status).toBe('pending');

    expect(await post(bob, DECLINE(id), { reason: ' ' })).toMatchObject({
      status: 422,
      body: { code: 'REASON_REQUIRED' },
    });
    const declined = await post(bob, DECLINE(id), { reason: 'Already refunded by the bank' });
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({
      code: 'APPROVAL_DECLINED',
      approval: {
        status: 'declined',
        decided_by: { id: bob.id },
        decline_reason: 'Already refunded by the bank',
      },
    });
    expect((await balancesOf(t, user.id)).balance).toBe(60_000);
    expect(await auditOf(id)).toEqual([
      ['balance.adjust_requested', alice.id],
      ['balance.adjust_declined', bob.id],
    ]);

    // the requester may withdraw their own request (declining it), not approve it
    const mine = await post(alice, ADJUST(user.id), { amount: '501', reason: 'Typo' });
    const withdrawn = await post(alice, DECLINE(mine.body.approval.id), { reason: 'Wrong user' });
    expect(withdrawn.body.approval).toMatchObject({
      status: 'declined',
      decided_by: { id: alice.id },
    });
    expect((await balancesOf(t, user.id)).balance).toBe(60_000);
  });

  it('answers 404 for no such request and for a payout asked through the adjustments route', async () => {
    const bob = await operator(t, ['billing']);
    expect(await post(bob, APPROVE(987_654_321))).toMatchObject({ status: 404 });
    expect(await post(bob, DECLINE(987_654_321), { reason: 'x' })).toMatchObject({ status: 404 });
    expect(await post(bob, '/api/admin/adjustments/abc/approve')).toMatchObject({ status: 404 });
  });

  it('holds four eyes in the database too: an approval by its requester is refused', async () => {
    const alice = await operator(t, ['billing']);
    const user = await quickUser(t);
    const asked = await post(alice, ADJUST(user.id), { amount: '999', reason: 'Check' });
    await expect(
      t.sql.query(
        `update money_approvals set status = 'approved', decided_by = requested_by, decided_at = now() where id = $1`,
        [asked.body.approval.id],
      ),
    ).rejects.toMatchObject({ constraint: 'money_approvals_four_eyes_check' });
    await expect(
      t.sql.query(
        `insert into money_approvals (kind, requested_by, user_id, amount_cents, account, reason)
         values ('adjustment', $1, $1, 100000, 'balance', 'mine')`,
        [alice.id],
      ),
    ).rejects.toMatchObject({ constraint: 'money_approvals_four_eyes_check' });
  });
});

describe('the daily limit on adjustments', () => {
  it('counts what an operator adjusted and asked for in 24 hours; a declined request frees its share', async () => {
    const alice = await operator(t, ['billing']);
    const bob = await operator(t, ['billing']);
    const user = await quickUser(t);
    // $5,000 a day: 8 × $500 and a $499 debit at once, and a $501 request waiting
    for (let i = 0; i < 8; i++)
      expect((await post(alice, ADJUST(user.id), { amount: '500', reason: `C${i}` })).status).toBe(
        201,
      );
    expect((await post(alice, ADJUST(user.id), { amount: '-499', reason: 'D' })).status).toBe(201);
    const waiting = await post(alice, ADJUST(user.id), { amount: '501', reason: 'W' });
    expect(waiting.status).toBe(202);
    expect(
      await post(alice, ADJUST(user.id), { amount: '0.01', reason: 'One cent' }),
    ).toMatchObject({ status: 422, body: fieldRefusal('amount', 'ADJUSTMENT_DAILY_LIMIT') });
    const before = await balancesOf(t, user.id);
    // another operator's limit is their own; approving does not count against the approver
    expect((await post(bob, APPROVE(waiting.body.approval.id))).status).toBe(200);
    expect((await post(bob, ADJUST(user.id), { amount: '500', reason: 'B' })).status).toBe(201);
    expect((await balancesOf(t, user.id)).balance).toBe(before.balance + 50_100 + 50_000);

    // a declined request gives its share back
    const carol = await operator(t, ['billing']);
    const big = await post(carol, ADJUST(user.id), { amount: '5000', reason: 'Big' });
    expect(big.status).toBe(202);
    expect((await post(carol, ADJUST(user.id), { amount: '1', reason: 'More' })).status).toBe(422);
    expect((await post(bob, DECLINE(big.body.approval.id), { reason: 'No' })).status).toBe(200);
    expect((await post(carol, ADJUST(user.id), { amount: '1', reason: 'More' })).status).toBe(201);
    // a request above the limit on its own is refused outright
    const dave = await operator(t, ['billing']);
    expect(
      await post(dave, ADJUST(user.id), { amount: '5000.01', reason: 'Too big' }),
    ).toMatchObject({ status: 422, body: { code: 'ADJUSTMENT_DAILY_LIMIT' } });
  });

  it('holds under concurrent adjustments: never past the limit', async () => {
    const alice = await operator(t, ['billing']);
    const user = await quickUser(t);
    const results = await Promise.all(
      Array.from({ length: 14 }, (_, i) =>
        post(alice, ADJUST(user.id), { amount: '400', reason: `Burst ${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(12);
    expect(results.filter((r) => r.status === 422)).toHaveLength(2);
    expect((await balancesOf(t, user.id)).balance).toBe(12 * 40_000);
  });
});

describe('a partner payout above OPERATOR_APPROVAL_ABOVE', () => {
  async function withdrawal(cents: number) {
    const partner = await quickUser(t);
    await fund(t, partner.id, cents, 'balance_partner');
    const res = await postKeyed(
      t,
      '/api/user/partner/createwithdrawal',
      { method: 'PAYEER', wallet: 'P1000077', amount: cents / 100 },
      partner,
    );
    expect(res.status).toBe(201);
    return { partner, id: res.body.withdrawal.id as number };
  }
  const mailsTo = (email: string) => t.smtp.to(email).length;

  it('waits for a second operator, then pays out with the reference asked for', async () => {
    const alice = await operator(t, ['billing']);
    const bob = await operator(t, ['billing']);
    const small = await withdrawal(50_000);
    expect((await post(alice, PAY(small.id), { reference: 'PAYEER-1' })).status).toBe(200);

    const { partner, id } = await withdrawal(60_000);
    const mailsBefore = mailsTo(partner.email);
    const asked = await post(alice, PAY(id), { reference: 'PAYEER-2' });
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({
      code: 'APPROVAL_REQUESTED',
      withdrawal: {
        status: 'under_review',
        approval: {
          kind: 'payout',
          status: 'pending',
          amount: 600,
          reference: 'PAYEER-2',
          withdrawal_id: id,
          requested_by: { id: alice.id },
        },
      },
    });
    const approvalId = asked.body.withdrawal.approval.id as number;
    expect(await post(alice, PAY(id), { reference: 'PAYEER-3' })).toMatchObject({
      status: 409,
      body: refusal('APPROVAL_PENDING'),
    });
    expect(await post(alice, PAYOUT_APPROVE(approvalId))).toMatchObject({
      status: 403,
      body: refusal('APPROVAL_OWN_REQUEST'),
    });
    expect(await post(bob, APPROVE(approvalId))).toMatchObject({ status: 404 });
    expect(mailsTo(partner.email)).toBe(mailsBefore);

    const results = await Promise.all([
      post(bob, PAYOUT_APPROVE(approvalId)),
      post(await operator(t, ['billing']), PAYOUT_APPROVE(approvalId)),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const approved = results.find((r) => r.status === 200)!;
    expect(approved.body).toMatchObject({
      code: 'APPROVAL_APPROVED',
      withdrawal: { status: 'paid_out', approval: { status: 'approved' } },
    });
    const [row] = await rowsOf('withdrawals', 'id = $1', [id]);
    expect(row).toMatchObject({ status: 'paid_out', payout_reference: 'PAYEER-2' });
    await expect.poll(() => mailsTo(partner.email)).toBe(mailsBefore + 1);
    expect((await auditOf(approvalId)).map(([action]) => action)).toEqual([
      'partner.payout_requested',
      'partner.withdrawal_paid',
    ]);
  });

  it('declined, the request stays open to be paid again; cancelling it declines a waiting payout', async () => {
    const alice = await operator(t, ['billing']);
    const bob = await operator(t, ['billing']);
    const { partner, id } = await withdrawal(70_000);
    const first = await post(alice, PAY(id), { reference: 'WRONG-REF' });
    expect(await post(bob, PAYOUT_DECLINE(first.body.withdrawal.approval.id), {})).toMatchObject({
      status: 422,
    });
    const declined = await post(bob, PAYOUT_DECLINE(first.body.withdrawal.approval.id), {
      reason: 'The reference is wrong',
    });
    expect(declined.status).toBe(200);
    expect(declined.body.withdrawal).toMatchObject({
      status: 'under_review',
      approval: { status: 'declined', decline_reason: 'The reference is wrong' },
    });

    const second = await post(alice, PAY(id), { reference: 'RIGHT-REF' });
    expect(second.status).toBe(202);
    const cancelled = await t.api.post(
      `/api/admin/partner/withdrawals/${id}/reject`,
      { reason: 'Wallet closed' },
      { token: bob.token },
    );
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.withdrawal).toMatchObject({
      status: 'cancelled',
      approval: { status: 'declined', decline_reason: 'Wallet closed' },
    });
    expect((await balancesOf(t, partner.id)).partner).toBe(70_000);
    expect(await post(bob, PAYOUT_APPROVE(second.body.withdrawal.approval.id))).toMatchObject({
      status: 409,
    });
    expect(await ledgerInvariants(t)).toMatchObject({ unbalanced: 0, drift: 0, negative: 0 });
  });
});
