import { randomUUID } from 'node:crypto';
import { expect, type APIRequestContext } from '@playwright/test';
import { ApiSession, apiCli, sql, topUpByCard } from './money.ts';

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
