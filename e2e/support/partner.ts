import { randomUUID } from 'node:crypto';
import { expect, type APIRequestContext } from '@playwright/test';
import { createVerifiedUser, uniqueEmail } from './app.ts';
import { ApiSession, apiCli, makeOperator, sql, topUpByCard } from './money.ts';

/**
 * The referral's purchase the partner programme rewards: a card top-up, then a Max server for
 * three months ($210.90) paid from the balance, waited for until it is created (the charge is
 * final then, and the rewards are granted in that transaction). The partner's first-level
 * reward is 10 % of it: $21.09.
 */
export async function referralBuysServer(request: APIRequestContext, email: string) {
  await topUpByCard(request, email, '250.00');
  const api = new ApiSession(request, email);
  const { rates } = await api.json<{ rates: { id: number; name: string }[] }>(
    'GET',
    '/api/user/vps/rates',
    200,
  );
  const max = rates.find((rate) => rate.name === 'Max');
  expect(max, 'the Max rate').toBeDefined();
  const { server } = await api.json<{ server: { id: number } }>(
    'POST',
    '/api/user/vps/order',
    201,
    {
      data: { rate_id: max!.id, months: 3, source: 'forum' },
      idempotencyKey: randomUUID(),
    },
  );
  await expect
    .poll(
      async () =>
        (
          await api.json<{ server: { status: string } }>(
            'GET',
            `/api/user/vps/servers/${server.id}`,
            200,
          )
        ).server.status,
      { message: `server ${server.id} is created`, timeout: 30_000 },
    )
    .toBe('active');
  return server.id;
}

/**
 * The hold passes: the partner's pending rewards are moved PARTNER_HOLD_DAYS + 1 days into the
 * past (as if granted then), and the scheduled release runs now (`jobs send partner-rewards`,
 * the documented command) instead of at its next five-minute tick. The server's worker does the
 * release through the ledger.
 */
export async function holdPasses(partnerEmail: string): Promise<void> {
  const moved = await sql(
    `update partner_rewards set created_at = created_at - interval '15 days'
      where status = 'pending' and partner_id = (select id from users where email = $1)`,
    [partnerEmail],
  );
  expect(moved, 'pending rewards moved back').toBeGreaterThan(0);
  expect(await apiCli('jobs.ts', ['send', 'partner-rewards'])).toMatch(/partner-rewards/);
}

/**
 * A partner (an operator too) with a referral, a promocode and $30 on the partner balance, put
 * there by another operator, the cashier (billing; none acts on their own account); the
 * journeys' own API session of theirs, and their id.
 */
export async function partnerWithBalance(request: APIRequestContext) {
  const partner = await createVerifiedUser(request, { name: 'Pia Partner' });
  await makeOperator(partner.email);
  const cashier = await createVerifiedUser(request, {
    name: 'Cass Cashier',
    email: uniqueEmail('cashier'),
  });
  await makeOperator(cashier.email, ['billing']);
  const api = new ApiSession(request, partner.email);
  const { referral_code } = await api.json<{ referral_code: string }>(
    'GET',
    '/api/user/partner_info',
    200,
  );
  await createVerifiedUser(request, {
    name: 'Rolf Referral',
    email: uniqueEmail('referral'),
    partner_code: referral_code,
  });
  const promocode = `AXE${randomUUID().slice(0, 8).toUpperCase()}`;
  await api.json('POST', '/api/user/balance/promocode', 201, {
    data: { name: promocode, discount: 5 },
  });
  const { id } = await api.json<{ id: number }>('GET', '/api/user/auth', 200);
  await new ApiSession(request, cashier.email).json(
    'POST',
    `/api/admin/users/${id}/adjustments`,
    201,
    {
      data: { account: 'balance_partner', amount: '30', reason: 'Rewards of the old programme' },
      idempotencyKey: randomUUID(),
    },
  );
  return { partner, api, id, promocode, cashier };
}
