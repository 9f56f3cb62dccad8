import { describe, expect, it } from 'vitest';
import { RECIPIENT_MISSES_PER_HOUR } from '../src/modules/balance/recipient-lookups.ts';
import { balancesOf, fund, postKeyed, quickUser, useTestApp } from './helpers.ts';

/**
 * Issue 41: a transfer's preview and a transfer to an unknown e-mail tell whether an e-mail has
 * an account (SPEC's "E-mail does not exist"); each user may name only so many unknown
 * recipients an hour, after which every lookup of theirs pauses.
 */

const t = useTestApp();

const PREVIEW = '/api/user/balance/transfer/preview';
const TRANSFER = '/api/user/balance/transfer';

describe('unknown recipients, per user', () => {
  it('pauses a user who names too many unknown e-mails: known ones are refused too, money stays, others go on', async () => {
    const prober = await quickUser(t);
    const known = await quickUser(t, { name: 'Known Person' });
    const bystander = await quickUser(t);
    await fund(t, prober.id, 10_000);
    await fund(t, bystander.id, 10_000);

    // the limit's misses answer as SPEC says, by preview and by transfer alike
    for (let i = 0; i < RECIPIENT_MISSES_PER_HOUR; i += 1) {
      const res =
        i % 2 === 0
          ? await t.api.post(
              PREVIEW,
              { email: `nobody-${i}@example.com`, amount: 5 },
              { token: prober.token },
            )
          : await postKeyed(t, TRANSFER, { email: `nobody-${i}@example.com`, amount: 5 }, prober);
      expect(res.body.code).toBe('RECIPIENT_NOT_FOUND');
    }
    // the next unknown one pauses the user
    const past = await t.api.post(
      PREVIEW,
      { email: 'nobody-more@example.com', amount: 5 },
      { token: prober.token },
    );
    expect(past).toMatchObject({ status: 429, body: { code: 'TOO_MANY_REQUESTS' } });
    expect(Number(past.headers.get('retry-after'))).toBeGreaterThan(0);

    // now a known recipient tells nothing either, and no money moves
    const preview = await t.api.post(
      PREVIEW,
      { email: known.email, amount: 5 },
      { token: prober.token },
    );
    expect(preview.status).toBe(429);
    expect(preview.text).not.toContain('Known Person');
    const transfer = await postKeyed(t, TRANSFER, { email: known.email, amount: 5 }, prober);
    expect(transfer.status).toBe(429);
    expect(await balancesOf(t, prober.id)).toMatchObject({ balance: 10_000 });
    expect(await balancesOf(t, known.id)).toMatchObject({ balance: 0 });

    // another user is not paused
    const theirs = await postKeyed(t, TRANSFER, { email: known.email, amount: 5 }, bystander);
    expect(theirs.status).toBe(201);
  });

  it('does not count known recipients: a busy sender is never paused', async () => {
    const sender = await quickUser(t);
    const recipient = await quickUser(t);
    await fund(t, sender.id, 100_000);
    for (let i = 0; i < RECIPIENT_MISSES_PER_HOUR + 5; i += 1) {
      const res = await t.api.post(
        PREVIEW,
        { email: recipient.email, amount: 1 },
        { token: sender.token },
      );
      expect(res.status).toBe(200);
    }
  });
});
