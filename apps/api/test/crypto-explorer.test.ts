import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeEsplora,
  startFakeTronGrid,
  USDC_CONTRACT,
  randomTronAddress,
  type FakeEsplora,
  type FakeTronGrid,
} from './explorer-fakes.ts';
import {
  balancesOf,
  ledgerInvariants,
  postKeyed,
  quickUser,
  refusal,
  startTestApp,
  type Json,
  type TestApp,
} from './helpers.ts';
import { centsOf, cryptoRequest, newTxid, reportCrypto } from './crypto-helpers.ts';

/**
 * Crypto top-ups with CRYPTO_EXPLORER on: TronGrid for USDT-TRC20 and an Esplora with
 * mempool.space's prices for BTC, both fakes on loopback that speak the real APIs. The app's
 * wallets are the development examples.
 */
const t = {} as TestApp;
let tron: FakeTronGrid;
let btc: FakeEsplora;

beforeAll(async () => {
  tron = await startFakeTronGrid();
  btc = await startFakeEsplora();
  Object.assign(
    t,
    await startTestApp({
      env: {
        CRYPTO_EXPLORER: `USDT-TRC20=${tron.url},BTC=${btc.url}`,
        CRYPTO_CONFIRMATIONS: 'USDT-TRC20=19,BTC=2',
        TRONGRID_API_KEY: 'test-trongrid-key',
      },
    }),
  );
});

afterAll(async () => {
  expect(await ledgerInvariants(t)).toEqual({ unbalanced: 0, sum: 0, drift: 0, negative: 0 });
  await t.close();
  await tron.close();
  await btc.close();
});

const OURS = {
  tron: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
  btc: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
};
const CONFIRM = (id: number) => `/api/admin/payments/${id}/confirm`;

/** The request's amount in USDT's smallest unit (6 decimals), as TronGrid writes a value. */
const usdtUnits = (request: Json) => String(centsOf(request.payment.amount) * 10_000);

async function rowOf(id: number) {
  const { rows } = await t.sql.query<Json>(
    'select status, reason, txid, chain, reviewed_by, ledger_transaction_id from payments where id = $1',
    [id],
  );
  return rows[0];
}

async function auditCount(action: string, id: number) {
  const { rows } = await t.sql.query<{ n: string }>(
    'select count(*) as n from audit_log where action = $1 and subject_id = $2',
    [action, String(id)],
  );
  return Number(rows[0]!.n);
}

/** Ledger entries that credited `userId`'s balance. */
async function creditsOf(userId: number) {
  const { rows } = await t.sql.query<{ n: string }>(
    `select count(*) as n from ledger_entries where user_id = $1 and account = 'balance'`,
    [userId],
  );
  return Number(rows[0]!.n);
}

describe('a report checked on TRON', () => {
  it('is credited at once when the transfer already pays the request exactly and is final', async () => {
    const user = await quickUser(t);
    const request = await cryptoRequest(t, user, '50');
    const txid = newTxid();
    tron.transfer({ txid, to: OURS.tron, value: usdtUnits(request), block: tron.nowBlock - 30 });

    const res = await reportCrypto(t, user, request.payment.id, txid);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      code: 'PAYMENT_CONFIRMED',
      message: 'The payment is confirmed and the balance credited',
      payment: { status: 'paid', txid, amount: request.payment.amount },
    });
    expect(await balancesOf(t, user.id)).toEqual({
      balance: centsOf(request.payment.amount),
      partner: 0,
    });
    expect(await rowOf(request.payment.id)).toMatchObject({
      status: 'paid',
      reviewed_by: null,
      chain: {
        driver: 'trongrid',
        state: 'confirmed',
        to: OURS.tron,
        amount: request.payment.pay_amount,
        confirmations: 31,
        required: 19,
      },
    });
    // audited as the explorer's (no actor), with the depth it was credited at
    const { rows } = await t.sql.query<Json>(
      `select actor_id, details from audit_log where action = 'payment.confirm' and subject_id = $1`,
      [String(request.payment.id)],
    );
    expect(rows).toEqual([
      {
        actor_id: null,
        details: {
          amount: request.payment.amount,
          network: 'USDT-TRC20',
          txid,
          confirmations: 31,
          explorer: 'trongrid',
        },
      },
    ]);
    expect(tron.calls.some((c) => c.headers['tron-pro-api-key'] === 'test-trongrid-key')).toBe(
      true,
    );
  });

  it('refuses a transaction that does not pay the request, and keeps nothing of it', async () => {
    const user = await quickUser(t);
    const request = await cryptoRequest(t, user, '64');
    const exact = usdtUnits(request);
    const cases: [string, Parameters<FakeTronGrid['transfer']>[0], string][] = [
      [
        'amount',
        { txid: newTxid(), to: OURS.tron, value: String(Number(exact) - 10_000) },
        'CRYPTO_TX_WRONG_AMOUNT',
      ],
      [
        'destination',
        { txid: newTxid(), to: randomTronAddress(), value: exact },
        'CRYPTO_TX_WRONG_DESTINATION',
      ],
      [
        'token',
        { txid: newTxid(), to: OURS.tron, value: exact, contract: USDC_CONTRACT },
        'CRYPTO_TX_WRONG_TOKEN',
      ],
      [
        'older',
        { txid: newTxid(), to: OURS.tron, value: exact, timestamp: Date.now() - 3 * 3600_000 },
        'CRYPTO_TX_BEFORE_REQUEST',
      ],
    ];
    for (const [name, transfer, code] of cases) {
      tron.transfer({ ...transfer, block: tron.nowBlock - 40 });
      const res = await reportCrypto(t, user, request.payment.id, transfer.txid);
      expect(res.status, name).toBe(422);
      expect(res.body, name).toEqual(refusal(code as never, { txid: [res.body.message] }));
    }
    expect(await rowOf(request.payment.id)).toMatchObject({ status: 'processing', txid: null });
    expect(await balancesOf(t, user.id)).toEqual({ balance: 0, partner: 0 });
  });

  it('binds a payment to its payer: a watcher reporting it on their own request is refused', async () => {
    const [payer, watcher] = [await quickUser(t), await quickUser(t)];
    const paid = await cryptoRequest(t, payer, '90');
    const decoy = await cryptoRequest(t, watcher, '90');
    const txid = newTxid();
    tron.transfer({ txid, to: OURS.tron, value: usdtUnits(paid), block: tron.nowBlock - 25 });

    const stolen = await reportCrypto(t, watcher, decoy.payment.id, `0x${txid.toUpperCase()}`);
    expect(stolen.status).toBe(422);
    expect(stolen.body.code).toBe('CRYPTO_TX_WRONG_AMOUNT');
    const own = await reportCrypto(t, payer, paid.payment.id, txid);
    expect(own.status).toBe(201);
    expect(own.body.payment.status).toBe('paid');
    expect(await balancesOf(t, watcher.id)).toEqual({ balance: 0, partner: 0 });
  });

  it('waits for an unknown or shallow transaction, then the check credits it once at 19 blocks', async () => {
    const user = await quickUser(t);
    const request = await cryptoRequest(t, user, '70');
    const txid = newTxid();
    const res = await reportCrypto(t, user, request.payment.id, txid);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      code: 'CRYPTO_SUBMITTED',
      payment: { status: 'under_review' },
    });
    expect((await rowOf(request.payment.id)).chain).toMatchObject({
      state: 'not_found',
      required: 19,
    });

    // broadcast and in a block, not yet solidified
    tron.transfer({ txid, to: OURS.tron, value: usdtUnits(request), block: tron.nowBlock - 2 });
    let report = await t.app.balanceJobs.checkCrypto();
    expect(report.credited).not.toContain(request.payment.id);
    expect(await rowOf(request.payment.id)).toMatchObject({
      status: 'under_review',
      chain: { state: 'unconfirmed', confirmations: 3, amount: request.payment.pay_amount },
    });
    // the operator's queue shows what the explorer saw
    const admin = await quickUser(t, { role: 'admin' });
    const queue = await t.api.get('/api/admin/payments?per_page=100', { token: admin.token });
    expect(queue.body.data.find((p: Json) => p.id === request.payment.id)).toMatchObject({
      pay_amount: request.payment.pay_amount,
      chain: { state: 'unconfirmed', to: OURS.tron, confirmations: 3, required: 19 },
    });

    tron.nowBlock += 16;
    report = await t.app.balanceJobs.checkCrypto();
    expect(report.credited).toContain(request.payment.id);
    expect(await rowOf(request.payment.id)).toMatchObject({
      status: 'paid',
      chain: { state: 'confirmed', confirmations: 19 },
    });
    expect(await balancesOf(t, user.id)).toEqual({
      balance: centsOf(request.payment.amount),
      partner: 0,
    });
    // the user is told by mail
    const mail = await t.smtp.next(user.email);
    expect(mail.text).toContain(
      `Your top-up #${request.payment.id} in crypto (USDT-TRC20) is confirmed`,
    );
    // a later round leaves it alone
    report = await t.app.balanceJobs.checkCrypto();
    expect(report.credited).not.toContain(request.payment.id);
    expect(await creditsOf(user.id)).toBe(1);
  });

  it('credits once when two checks race, and when a check races an operator', async () => {
    const user = await quickUser(t);
    const admin = await quickUser(t, { role: 'admin' });
    const first = await cryptoRequest(t, user, '81');
    const second = await cryptoRequest(t, user, '82');
    const [a, b] = [newTxid(), newTxid()];
    expect((await reportCrypto(t, user, first.payment.id, a)).status).toBe(201);
    expect((await reportCrypto(t, user, second.payment.id, b)).status).toBe(201);
    tron.transfer({ txid: a, to: OURS.tron, value: usdtUnits(first), block: tron.nowBlock - 50 });
    tron.transfer({ txid: b, to: OURS.tron, value: usdtUnits(second), block: tron.nowBlock - 50 });

    const [one, two, confirm] = await Promise.all([
      t.app.balanceJobs.checkCrypto(),
      t.app.balanceJobs.checkCrypto(),
      postKeyed(t, CONFIRM(second.payment.id), undefined, admin),
    ]);
    const credited = [...one.credited, ...two.credited];
    expect(credited.filter((id) => id === first.payment.id)).toHaveLength(1);
    expect(
      credited.filter((id) => id === second.payment.id).length + (confirm.status === 200 ? 1 : 0),
    ).toBe(1);
    expect(await auditCount('payment.confirm', first.payment.id)).toBe(1);
    expect(await auditCount('payment.confirm', second.payment.id)).toBe(1);
    expect(await creditsOf(user.id)).toBe(2);
    expect(await balancesOf(t, user.id)).toEqual({
      balance: centsOf(first.payment.amount) + centsOf(second.payment.amount),
      partner: 0,
    });
  });

  it('keeps a report waiting while TronGrid is down, says so in the log, and checks it when back', async () => {
    const user = await quickUser(t);
    const request = await cryptoRequest(t, user, '66');
    const txid = newTxid();
    tron.transfer({ txid, to: OURS.tron, value: usdtUnits(request), block: tron.nowBlock - 30 });
    tron.mode = 'down';
    try {
      const res = await reportCrypto(t, user, request.payment.id, txid);
      expect(res.status).toBe(201);
      expect(res.body.payment.status).toBe('under_review');
      expect((await rowOf(request.payment.id)).chain).toMatchObject({ state: 'unavailable' });
      const report = await t.app.balanceJobs.checkCrypto();
      expect(report.unavailable).toBeGreaterThanOrEqual(1);
      expect((await rowOf(request.payment.id)).status).toBe('under_review');
      expect(t.logs.some((line) => line.includes('explorer unavailable'))).toBe(true);
    } finally {
      tron.mode = 'up';
    }
    const report = await t.app.balanceJobs.checkCrypto();
    expect(report.credited).toContain(request.payment.id);
    expect(await balancesOf(t, user.id)).toEqual({
      balance: centsOf(request.payment.amount),
      partner: 0,
    });
  });

  it('rejects a waiting report the check finds not paying its request, and frees its TXID', async () => {
    const [user, payer] = [await quickUser(t), await quickUser(t)];
    const request = await cryptoRequest(t, user, '71');
    const txid = newTxid();
    // reported before the explorer knows it
    expect((await reportCrypto(t, user, request.payment.id, txid)).status).toBe(201);
    tron.transfer({ txid, to: OURS.tron, value: '1000000', block: tron.nowBlock - 30 });
    const report = await t.app.balanceJobs.checkCrypto();
    expect(report.rejected).toContain(request.payment.id);
    expect(await rowOf(request.payment.id)).toMatchObject({
      status: 'rejected',
      reason: 'This transaction does not send the exact amount of this top-up',
      chain: { state: 'mismatch', reason: 'amount', amount: '1.00' },
    });
    expect(await auditCount('payment.reject', request.payment.id)).toBe(1);
    // the TXID is not held by the rejected claim: another request is judged on it again
    const other = await cryptoRequest(t, payer, '71');
    const again = await reportCrypto(t, payer, other.payment.id, txid);
    expect(again.body.code).toBe('CRYPTO_TX_WRONG_AMOUNT');
  });
});

describe('a report checked on Bitcoin', () => {
  it('fixes only dollars when the explorer has no price, and leaves the amount to the operator', async () => {
    btc.usd = undefined;
    try {
      const user = await quickUser(t);
      const request = await cryptoRequest(t, user, '45', 'BTC');
      expect(request.payment).toMatchObject({ pay_amount: null, pay_asset: null });
      expect(request.payment_uri).toBeNull();
      const txid = newTxid();
      btc.transaction(txid, [{ address: OURS.btc, value: 45_000 }], btc.tipHeight - 5);
      const res = await reportCrypto(t, user, request.payment.id, txid);
      expect(res.status).toBe(201);
      expect(res.body.payment.status).toBe('under_review');
      expect((await rowOf(request.payment.id)).chain).toMatchObject({
        state: 'unpriced',
        to: OURS.btc,
        amount: '0.00045',
        confirmations: 6,
      });
      expect((await t.app.balanceJobs.checkCrypto()).credited).not.toContain(request.payment.id);
      expect((await rowOf(request.payment.id)).status).toBe('under_review');
    } finally {
      btc.usd = 100_000;
    }
  });

  it('fixes the amount in BTC at the explorer’s price, with a BIP 21 QR code, and credits it at 2 blocks', async () => {
    const user = await quickUser(t);
    const request = await cryptoRequest(t, user, '50', 'BTC');
    const cents = centsOf(request.payment.amount);
    // dollars at $100,000 a bitcoin: a cent is 10 satoshis
    const sats = cents * 10;
    expect(request.payment).toMatchObject({ network: 'BTC', pay_asset: 'BTC' });
    expect(request.payment.pay_amount).toBe(String(sats / 1e8));
    expect(request.payment_uri).toBe(`bitcoin:${OURS.btc}?amount=${sats / 1e8}`);
    expect(btc.calls.some((c) => c.path === '/api/v1/prices')).toBe(true);

    const txid = newTxid();
    btc.transaction(txid, [
      { address: OURS.btc, value: sats },
      { address: 'bc1qchange0000000000000000000000000000000', value: 70_000 },
    ]);
    const res = await reportCrypto(t, user, request.payment.id, txid);
    expect(res.body.payment.status).toBe('under_review');
    expect((await rowOf(request.payment.id)).chain).toMatchObject({
      driver: 'esplora',
      state: 'unconfirmed',
      confirmations: 0,
      required: 2,
    });
    btc.transaction(txid, [{ address: OURS.btc, value: sats }], btc.tipHeight - 1);
    expect((await t.app.balanceJobs.checkCrypto()).credited).toContain(request.payment.id);
    expect(await balancesOf(t, user.id)).toEqual({ balance: cents, partner: 0 });
  });

  it('refuses a BTC payment a few satoshis short', async () => {
    const user = await quickUser(t);
    const request = await cryptoRequest(t, user, '30', 'BTC');
    const txid = newTxid();
    btc.transaction(
      txid,
      [{ address: OURS.btc, value: centsOf(request.payment.amount) * 10 - 5 }],
      btc.tipHeight - 3,
    );
    const res = await reportCrypto(t, user, request.payment.id, txid);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CRYPTO_TX_WRONG_AMOUNT');
  });
});
