import { afterAll, describe, expect, it } from 'vitest';
import {
  balancesOf,
  ledgerInvariants,
  postKeyed,
  quickUser,
  refusal,
  useTestApp,
  type Json,
} from './helpers.ts';
import {
  centsOf,
  CRYPTO_REQUEST,
  CRYPTO_REQUESTS,
  cryptoRequest,
  newTxid,
  PAYER_WALLET,
  reportCrypto,
} from './crypto-helpers.ts';

// no CRYPTO_EXPLORER: the operators check the TXIDs by hand, against the requests' amounts
const t = useTestApp();

afterAll(async () => {
  expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
});

const CONFIRM = (id: number) => `/api/admin/payments/${id}/confirm`;
const REJECT = (id: number) => `/api/admin/payments/${id}/reject`;
const QUEUE = '/api/admin/payments';

async function rowOf(id: number) {
  const { rows } = await t.sql.query<Json>(
    'select status, amount_cents, pay_amount, txid, wallet, expires_at, chain from payments where id = $1',
    [id],
  );
  return rows[0];
}

async function moneyState() {
  const { rows } = await t.sql.query<Record<string, string>>(
    `select (select count(*) from ledger_entries) as entries,
            (select coalesce(jsonb_agg(jsonb_build_array(id, status, txid) order by id), '[]')
               from payments) as payments`,
  );
  return rows[0];
}

describe('a crypto top-up request', () => {
  it('fixes an amount of its own: the dollars and 1-99 cents, in USDT too, for 24 hours', async () => {
    const user = await quickUser(t);
    const started = Date.now();
    const body = await cryptoRequest(t, user, '150.5');
    expect(body).toMatchObject({
      message: 'Send exactly this amount to the address within 24 hours',
      code: 'CRYPTO_REQUESTED',
      address: t.config.payments.cryptoWallets.find((w) => w.id === 'USDT-TRC20')!.address,
      payment_uri: null,
      payment: {
        method: 'crypto',
        status: 'processing',
        network: 'USDT-TRC20',
        wallet: null,
        txid: null,
        pay_asset: 'USDT',
      },
    });
    const cents = centsOf(body.payment.amount);
    expect(cents).toBeGreaterThanOrEqual(15_051);
    expect(cents).toBeLessThanOrEqual(15_149);
    expect(body.payment.pay_amount).toBe((cents / 100).toFixed(2));
    const expires = Date.parse(body.payment.expires_at);
    expect(expires - started).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(expires - started).toBeLessThan(24 * 3600_000 + 60_000);
    expect(body.wallet_qr_url.startsWith('data:image/svg+xml;base64,')).toBe(true);
    // nothing moves: the balance waits for the payment
    expect(await balancesOf(t, user.id)).toEqual({ balance: 0, partner: 0 });

    // the reader finds it again until it is reported or expires
    const open = await t.api.get(CRYPTO_REQUESTS, { token: user.token });
    expect(open.status).toBe(200);
    expect(open.body.data.map((x: Json) => x.payment.id)).toEqual([body.payment.id]);
    const other = await quickUser(t);
    expect((await t.api.get(CRYPTO_REQUESTS, { token: other.token })).body.data).toEqual([]);
  });

  it('fixes only dollars for BTC while no explorer gives a price (the operator converts)', async () => {
    const user = await quickUser(t);
    const body = await cryptoRequest(t, user, 40, 'btc');
    expect(body.payment).toMatchObject({ network: 'BTC', pay_amount: null, pay_asset: null });
    expect(body.payment_uri).toBeNull();
    expect(body.address).toBe(t.config.payments.cryptoWallets.find((w) => w.id === 'BTC')!.address);
  });

  it('gives every open request of a network its own amount, however many come at once', async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => quickUser(t)));
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        postKeyed(t, CRYPTO_REQUEST, { network: 'USDT-TRC20', amount: '77' }, users[i % 6]!),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(60).fill(201));
    const amounts = answers.map((a) => centsOf(a.body.payment.amount));
    expect(new Set(amounts).size).toBe(60);
    for (const cents of amounts) expect(cents >= 7_701 && cents <= 7_799).toBe(true);
    // the same dollars on another network are another matter
    const btc = await cryptoRequest(t, users[0]!, '77', 'BTC');
    expect(centsOf(btc.payment.amount)).toBeGreaterThan(7_700);
  });

  it('refuses a request when all 99 amounts of its dollars are open, until one is free', async () => {
    const user = await quickUser(t);
    const answers = await Promise.all(
      Array.from({ length: 105 }, () =>
        postKeyed(t, CRYPTO_REQUEST, { network: 'USDT-TRC20', amount: '33' }, user),
      ),
    );
    const made = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    expect(made).toHaveLength(99);
    expect(new Set(made.map((a) => a.body.payment.amount)).size).toBe(99);
    expect(refused).toHaveLength(6);
    for (const res of refused)
      expect(res.body).toEqual(
        refusal('CRYPTO_AMOUNTS_BUSY', {
          amount: [
            'Too many top-ups of this amount are open on this network. Try a slightly different amount',
          ],
        }),
      );
    // one expires: its amount is free again
    const freed = made[0]!.body.payment;
    await t.sql.query(
      `update payments set expires_at = now() - interval '1 second' where id = $1`,
      [freed.id],
    );
    expect((await t.app.balanceJobs.checkCrypto()).expired).toBeGreaterThanOrEqual(1);
    expect((await rowOf(freed.id)).status).toBe('not_paid');
    const again = await cryptoRequest(t, user, '33');
    expect(again.payment.amount).toBe(freed.amount);
  });

  it('keeps the limits of the method and refuses an unknown network', async () => {
    const user = await quickUser(t);
    for (const [body, code] of [
      [{ network: 'USDT-TRC20', amount: '19.99' }, 'AMOUNT_BELOW_MINIMUM'],
      [{ network: 'USDT-TRC20', amount: '1.234' }, 'AMOUNT_INVALID'],
      [{ network: 'DOGE', amount: '50' }, 'NETWORK_UNKNOWN'],
    ] as const) {
      const res = await postKeyed(t, CRYPTO_REQUEST, body, user);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe(code);
    }
  });
});

describe('reporting the payment of a request', () => {
  it('puts it Under review with the TXID as the payments keep it: lower case, no 0x', async () => {
    const user = await quickUser(t);
    const request = await cryptoRequest(t, user, '60');
    const hex = newTxid();
    const res = await reportCrypto(
      t,
      user,
      request.payment.id,
      `0X${hex.toUpperCase()}`,
      ` ${PAYER_WALLET} `,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      message: 'The payment has been sent for review',
      code: 'CRYPTO_SUBMITTED',
      payment: {
        id: request.payment.id,
        status: 'under_review',
        amount: request.payment.amount,
        pay_amount: request.payment.pay_amount,
        wallet: PAYER_WALLET,
        txid: hex,
      },
    });
    expect(await rowOf(request.payment.id)).toMatchObject({ txid: hex, chain: null });
    expect(await balancesOf(t, user.id)).toEqual({ balance: 0, partner: 0 });
    expect((await t.api.get(CRYPTO_REQUESTS, { token: user.token })).body.data).toEqual([]);
  });

  it('refuses a TXID reported before, in any case and with or without 0x, on anyone’s request', async () => {
    const [user, other] = [await quickUser(t), await quickUser(t)];
    const hex = newTxid();
    const first = await cryptoRequest(t, user, '25');
    expect((await reportCrypto(t, user, first.payment.id, hex)).status).toBe(201);
    const before = await moneyState();
    for (const [who, again] of [
      [user, hex],
      [user, `0x${hex}`],
      [other, hex.toUpperCase()],
      [other, `0X${hex.toUpperCase()}`],
    ] as const) {
      const request = await cryptoRequest(t, who, '25');
      const res = await reportCrypto(t, who, request.payment.id, again);
      expect(res.status, again).toBe(422);
      expect(res.body).toEqual({
        code: 'TXID_TAKEN',
        message: 'The transaction id has already been taken',
        errors: { txid: ['This txid is already in use.'] },
      });
      expect((await rowOf(request.payment.id)).status).toBe('processing');
    }
    expect(await moneyState()).toMatchObject({ entries: before!.entries });
  });

  it('lets the real payer report a TXID someone else claimed once the operator rejects that claim', async () => {
    const [payer, watcher] = [await quickUser(t), await quickUser(t)];
    const admin = await quickUser(t, { role: 'admin' });
    const paid = await cryptoRequest(t, payer, '80');
    const decoy = await cryptoRequest(t, watcher, '80');
    // the payer's amount is not the watcher's: the operator can tell the two apart
    expect(decoy.payment.amount).not.toBe(paid.payment.amount);
    const hex = newTxid();
    // the watcher saw the payment on the chain and reports it first, copied as 0x + capitals
    expect(
      (await reportCrypto(t, watcher, decoy.payment.id, `0x${hex.toUpperCase()}`)).status,
    ).toBe(201);
    expect((await reportCrypto(t, payer, paid.payment.id, hex)).body.code).toBe('TXID_TAKEN');

    const queue = await t.api.get(`${QUEUE}?status=under_review&method=crypto&per_page=100`, {
      token: admin.token,
    });
    const claim = queue.body.data.find((p: Json) => p.id === decoy.payment.id);
    expect(claim).toMatchObject({
      pay_amount: decoy.payment.pay_amount,
      pay_asset: 'USDT',
      txid: hex,
    });
    expect(claim.chain ?? null).toBeNull();
    const rejected = await postKeyed(
      t,
      REJECT(decoy.payment.id),
      { reason: 'The transaction pays another amount' },
      admin,
    );
    expect(rejected.status).toBe(200);

    const res = await reportCrypto(t, payer, paid.payment.id, hex);
    expect(res.status).toBe(201);
    expect((await postKeyed(t, CONFIRM(paid.payment.id), undefined, admin)).status).toBe(200);
    expect(await balancesOf(t, payer.id)).toEqual({
      balance: centsOf(paid.payment.amount),
      partner: 0,
    });
    expect(await balancesOf(t, watcher.id)).toEqual({ balance: 0, partner: 0 });
  });

  it('refuses another user’s request, an expired one and one already reported', async () => {
    const [user, other] = [await quickUser(t), await quickUser(t)];
    const request = await cryptoRequest(t, user, '45');
    const foreign = await reportCrypto(t, other, request.payment.id);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(refusal('NOT_FOUND'));
    expect((await reportCrypto(t, user, 987654321)).status).toBe(404);

    expect((await reportCrypto(t, user, request.payment.id)).status).toBe(201);
    const twice = await reportCrypto(t, user, request.payment.id);
    expect(twice.status).toBe(422);
    expect(twice.body.code).toBe('CRYPTO_REQUEST_REPORTED');

    const late = await cryptoRequest(t, user, '45');
    await t.sql.query(
      `update payments set expires_at = now() - interval '1 second' where id = $1`,
      [late.payment.id],
    );
    const expired = await reportCrypto(t, user, late.payment.id);
    expect(expired.status).toBe(422);
    expect(expired.body).toEqual(
      refusal('CRYPTO_REQUEST_EXPIRED', {
        payment_id: [
          'This top-up request has expired. If you have already paid, contact support with the TXID',
        ],
      }),
    );
    await t.app.balanceJobs.checkCrypto();
    expect((await rowOf(late.payment.id)).status).toBe('not_paid');
    expect((await reportCrypto(t, user, late.payment.id)).body.code).toBe('CRYPTO_REQUEST_EXPIRED');
  });

  it('leaves reported payments to the operator when no explorer reads the network', async () => {
    const user = await quickUser(t);
    const request = await cryptoRequest(t, user, '52');
    expect((await reportCrypto(t, user, request.payment.id)).status).toBe(201);
    const report = await t.app.balanceJobs.checkCrypto();
    expect(report).toMatchObject({ checked: 0, credited: [], rejected: [], unavailable: 0 });
    expect((await rowOf(request.payment.id)).status).toBe('under_review');
  });
});
