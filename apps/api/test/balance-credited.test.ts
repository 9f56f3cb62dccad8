import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { telegramChatsRepository } from '../src/db/telegram-chats.ts';
import { sandboxSignature } from '../src/integrations/payments/sandbox.ts';
import { cryptoPayment as reportedCrypto } from './crypto-helpers.ts';
import { balancesOf, fund, postKeyed, quickUser, type Json, type TestApp } from './helpers.ts';
import { linkChat, startAppWithBot, type TelegramTestApp } from './telegram-app.ts';
import { type EmulatedChat, type TelegramEmulator } from './telegram-emulator.ts';

/**
 * "Your balance was credited": money arriving on the main balance (a gateway's top-up, a crypto
 * payment an operator confirms, an operator's credit, a transfer from another user) is told to
 * the user once it has committed, in the account chat of the chat-bot (a Telegram Bot API
 * emulator on loopback, through the real bot code), and the operator's decisions by mail too
 * (the test SMTP server). Nothing is told twice for a replay, nothing for money leaving, and no
 * channel failing changes the credit or its answer.
 */

const TOKEN = '2000:balance-credit-token';
const SECRET = 'balance-credit-webhook-secret';
const SUBJECT_EN = /^TradeHost: your balance was credited with \$/;

let emulator: TelegramEmulator;
let t: TestApp;
let app: TelegramTestApp;
let admin: User;
let nextChatId = 7000;

beforeAll(async () => {
  app = await startAppWithBot({ token: TOKEN, username: 'tradehost_credit_bot', secret: SECRET });
  ({ t, emulator } = app);
  admin = await quickUser(t, { role: 'admin', name: 'Olga Operator' });
});

afterAll(async () => {
  await app?.close();
});

type User = Awaited<ReturnType<typeof quickUser>>;

/** A user whose account notifications go to a private chat of their own, linked as a person does. */
async function linkedUser(name: string, language: 'en' | 'ru' = 'en') {
  const user = await quickUser(t, { name });
  if (language === 'ru')
    await t.sql.query(`update users set language = 'ru' where id = $1`, [user.id]);
  nextChatId += 1;
  const chat: EmulatedChat = { id: nextChatId, type: 'private', first_name: name };
  await linkChat(app, user, chat);
  return { ...user, chat, welcomed: emulator.sent(chat.id).length };
}

type Linked = Awaited<ReturnType<typeof linkedUser>>;

/** The bot's messages to the user after the linking's welcome. */
const notices = (user: Linked) => emulator.sent(user.chat.id).slice(user.welcomed);

/** The next notice in the user's chat beyond the `seen` ones. */
const nextNotice = (user: Linked, seen = 0) => emulator.waitFor(() => notices(user)[seen]);

/** A card top-up paid by the sandbox gateway's signed notification. */
async function cardTopUp(user: User, amount: string) {
  const res = await postKeyed(t, '/api/user/balance/deposit', { method: 'card', amount }, user);
  expect(res.status, res.text).toBe(201);
  const paymentId = res.body.payment.id as number;
  const note = {
    order_id: String(paymentId),
    amount,
    currency: 'USD',
    status: 'paid',
    operation_id: randomUUID(),
  };
  const fields = {
    ...note,
    signature: sandboxSignature(t.config.payments.sandbox.secret, 'notification', note),
  };
  const gatewayNotifies = async () => {
    const answer = await fetch(`${t.url}/api/payments/webhook/sandbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    });
    return { status: answer.status, text: await answer.text() };
  };
  expect(await gatewayNotifies()).toEqual({ status: 200, text: 'OK' });
  return { paymentId, gatewayNotifies };
}

/**
 * A crypto payment the user reports, Under review until an operator decides: its id and its
 * amount (the request's dollars and its tag of cents) as the letters write it.
 */
async function cryptoPayment(app: TestApp, user: User, amount: string) {
  const payment = await reportedCrypto(app, user, amount);
  return { paymentId: payment.id as number, dollars: `$${(payment.amount as number).toFixed(2)}` };
}

/** Long enough for a notice that should not come to have come (each comes within milliseconds). */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('gives the monitoring alerts the chat-bot’s outbox (the same one the notices use)', () => {
  expect(t.app.telegram.outbox.enabled).toBe(true);
  expect(t.app.monitoringJobs.telegram).toBe(t.app.telegram.outbox);
});

describe('a top-up credited by the gateway', () => {
  it('is told in the account chat, with the amount and the balance after it, once, and not mailed', async () => {
    const user = await linkedUser('Tom Topup');
    await fund(t, user.id, 1000);
    const { paymentId, gatewayNotifies } = await cardTopUp(user, '25.00');
    expect(await balancesOf(t, user.id)).toEqual({ balance: 3500, partner: 0 });

    const notice = await nextNotice(user);
    expect(notice.text.split('\n')[0]).toBe('TradeHost: your balance was credited with $25.00');
    expect(notice.raw).toMatch(/^<b>TradeHost: your balance was credited with \$25\.00<\/b>/);
    expect(notice.text).toContain('Hello Tom Topup,');
    expect(notice.text).toContain(
      `Your top-up #${paymentId} by card is paid: $25.00 is on your balance.`,
    );
    expect(notice.text).toContain('Your balance after this credit: $35.00.');
    expect(notice.text).toContain(
      `Open balance operations: ${t.config.publicUrl}/balance-operations`,
    );
    expect(notice.text).not.toMatch(/\n\nTradeHost$/);

    // the gateway delivers the notification again: acknowledged, nothing credited or told twice
    expect(await gatewayNotifies()).toEqual({ status: 200, text: 'OK' });
    await sleep(300);
    expect(await balancesOf(t, user.id)).toEqual({ balance: 3500, partner: 0 });
    expect(notices(user)).toHaveLength(1);
    // the user watched it happen in the console: no mail server in the gateway's path
    expect(t.smtp.to(user.email)).toEqual([]);
  });

  it('tells nothing for a failed payment', async () => {
    const user = await linkedUser('Fay Failed');
    const res = await postKeyed(
      t,
      '/api/user/balance/deposit',
      { method: 'card', amount: '20.00' },
      user,
    );
    const note = {
      order_id: String(res.body.payment.id),
      amount: '20.00',
      currency: 'USD',
      status: 'failed',
      operation_id: randomUUID(),
    };
    const answer = await fetch(`${t.url}/api/payments/webhook/sandbox`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        ...note,
        signature: sandboxSignature(t.config.payments.sandbox.secret, 'notification', note),
      }),
    });
    expect(await answer.text()).toBe('OK');
    await sleep(300);
    expect(notices(user)).toEqual([]);
  });
});

describe('a transfer from another user', () => {
  it('is told to the recipient only, in the recipient’s language, and not again for a replay', async () => {
    const sender = await linkedUser('Sam Sender');
    const recipient = await linkedUser('Рита Получатель', 'ru');
    await fund(t, sender.id, 5000);
    await fund(t, recipient.id, 250);
    const key = randomUUID();
    const body = { email: recipient.email, amount: '12.34' };
    const res = await postKeyed(t, '/api/user/balance/transfer', body, sender, key);
    expect(res.status, res.text).toBe(201);

    const notice = await nextNotice(recipient);
    expect(notice.text.split('\n')[0]).toBe('TradeHost: баланс пополнен на $12.34');
    expect(notice.text).toContain('Здравствуйте, Рита Получатель!');
    expect(notice.text).toContain(
      `Пользователь Sam Sender (${sender.email}) перевёл вам $12.34: сумма зачислена на баланс.`,
    );
    expect(notice.text).toContain('Баланс после зачисления: $14.84.');
    expect(notice.text).toContain('Открыть операции с балансом:');

    // the same request again is answered from the key: no second transfer, no second notice
    const replay = await postKeyed(t, '/api/user/balance/transfer', body, sender, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    await sleep(300);
    expect(notices(recipient)).toHaveLength(1);
    // the sender's money left: nothing to tell; and no mail for a transfer
    expect(notices(sender)).toEqual([]);
    expect(t.smtp.to(recipient.email)).toEqual([]);
    expect(t.smtp.to(sender.email)).toEqual([]);
  });

  it('to a recipient without an account chat, reads no chat after the commit', async () => {
    // the transfer's own statement reads whether the recipient linked a chat (the users row's
    // mirror of the link): the answer does not wait for a lookup most recipients never need
    const sender = await linkedUser('Nia Nochat');
    const recipient = await quickUser(t, { name: 'Ola Offline' });
    await fund(t, sender.id, 1000);
    const lookups = vi.spyOn(telegramChatsRepository, 'ofUserFor');
    try {
      const body = { email: recipient.email, amount: '1.00' };
      const res = await postKeyed(t, '/api/user/balance/transfer', body, sender);
      expect(res.status, res.text).toBe(201);
      expect(await balancesOf(t, recipient.id)).toMatchObject({ balance: 100 });
      expect(lookups.mock.calls.filter(([, userId]) => userId === recipient.id)).toEqual([]);
    } finally {
      lookups.mockRestore();
    }
  });

  it('tells nothing when the transfer is refused', async () => {
    const sender = await linkedUser('Pat Poor');
    const recipient = await linkedUser('Rob Recipient');
    const res = await postKeyed(
      t,
      '/api/user/balance/transfer',
      { email: recipient.email, amount: '5.00' },
      sender,
    );
    expect(res.status).toBe(422);
    await sleep(300);
    expect(notices(recipient)).toEqual([]);
  });
});

describe('an operator', () => {
  it('confirming a crypto payment tells the user in the chat and by mail, once', async () => {
    const user = await linkedUser('Cora Crypto');
    const { paymentId, dollars } = await cryptoPayment(t, user, '50.00');
    // nothing is credited yet, nothing told
    await sleep(200);
    expect(notices(user)).toEqual([]);

    const key = randomUUID();
    const confirm = () =>
      postKeyed(t, `/api/admin/payments/${paymentId}/confirm`, undefined, admin, key);
    const confirmed = await confirm();
    expect(confirmed.status, confirmed.text).toBe(200);
    const notice = await nextNotice(user);
    expect(notice.text).toMatch(SUBJECT_EN);
    const origin = `Your top-up #${paymentId} in crypto (USDT-TRC20) is confirmed: ${dollars} is on your balance.`;
    expect(notice.text).toContain(origin);
    const mail = await t.smtp.next(user.email, 0);
    expect(mail.subject).toBe(`TradeHost: your balance was credited with ${dollars}`);
    expect(mail.text).toContain(origin);
    expect(mail.text).toContain(`Your balance after this credit: ${dollars}.`);
    expect(mail.html).toContain(`href="${t.config.publicUrl}/balance-operations"`);

    const replay = await confirm();
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    await sleep(300);
    expect(notices(user)).toHaveLength(1);
    expect(t.smtp.to(user.email)).toHaveLength(1);
  });

  it('crediting the balance tells the user with the reason; a debit or a partner credit does not', async () => {
    const user = await linkedUser('Abe Adjusted');
    const adjust = (body: Json) =>
      postKeyed(t, `/api/admin/users/${user.id}/adjustments`, body, admin);
    expect((await adjust({ amount: '7.50', reason: 'Refund of order 17' })).status).toBe(201);
    const notice = await nextNotice(user);
    expect(notice.text).toContain(
      'Our operator has credited $7.50 to your balance. Reason: Refund of order 17',
    );
    expect(notice.text).toContain('Your balance after this credit: $7.50.');
    const mail = await t.smtp.next(user.email, 0);
    expect(mail.text).toContain('Reason: Refund of order 17');

    expect((await adjust({ amount: '-2.50', reason: 'Correction' })).status).toBe(201);
    expect(
      (await adjust({ account: 'balance_partner', amount: '3', reason: 'Bonus' })).status,
    ).toBe(201);
    await sleep(300);
    expect(notices(user)).toHaveLength(1);
    expect(t.smtp.to(user.email)).toHaveLength(1);
  });
});

describe('without a linked chat, or with a channel failing', () => {
  it('a user without a chat is credited as before: nothing sent to Telegram, the operator’s mail still goes', async () => {
    const user = await quickUser(t, { name: 'Una Unlinked' });
    const sent = () => emulator.calls.filter((c) => c.method === 'sendMessage').length;
    const before = sent();
    await cardTopUp(user, '15.00');
    const { paymentId, dollars } = await cryptoPayment(t, user, '20.00');
    const confirmed = await postKeyed(
      t,
      `/api/admin/payments/${paymentId}/confirm`,
      undefined,
      admin,
    );
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(await balancesOf(t, user.id)).toEqual({
      balance: 1500 + Math.round(Number(dollars.slice(1)) * 100),
      partner: 0,
    });
    const mail = await t.smtp.next(user.email, 0);
    expect(mail.text).toContain(`Your top-up #${paymentId} in crypto (USDT-TRC20) is confirmed`);
    await sleep(300);
    expect(sent()).toBe(before);
    expect(t.smtp.to(user.email)).toHaveLength(1);
  });

  it('a chat that blocked the bot is unlinked, and the transfer stands', async () => {
    const sender = await linkedUser('Ben Bounce');
    const recipient = await linkedUser('Bella Blocked');
    await fund(t, sender.id, 1000);
    emulator.block(recipient.chat.id);
    try {
      const res = await postKeyed(
        t,
        '/api/user/balance/transfer',
        { email: recipient.email, amount: '4.00' },
        sender,
      );
      expect(res.status, res.text).toBe(201);
      expect(await balancesOf(t, recipient.id)).toEqual({ balance: 400, partner: 0 });
      await emulator.waitFor(() =>
        t.logs.some((line) => line.includes('a Telegram chat blocked the bot and was unlinked')),
      );
    } finally {
      emulator.block(recipient.chat.id, false);
    }
    const { rows } = await t.sql.query('select 1 from telegram_chats where user_id = $1', [
      recipient.id,
    ]);
    expect(rows).toEqual([]);
  });

  it('Telegram failing does not touch the credit nor its answer', async () => {
    const user = await linkedUser('Gil Glitch');
    emulator.failNext({
      method: 'sendMessage',
      chatId: user.chat.id,
      error_code: 500,
      description: 'Internal Server Error',
    });
    const { paymentId } = await cardTopUp(user, '30.00');
    expect(await balancesOf(t, user.id)).toEqual({ balance: 3000, partner: 0 });
    const payment = await t.api.get(`/api/user/balance/payments/${paymentId}`, {
      token: user.token,
    });
    expect(payment.body.payment.status).toBe('paid');
    await emulator.waitFor(() =>
      t.logs.some((line) => line.includes('a Telegram notice could not be sent')),
    );
    expect(notices(user)).toEqual([]);
  });
});

describe('with the mail server down', () => {
  let down: TestApp;
  let downApp: TelegramTestApp;
  let downEmulator: TelegramEmulator;
  const token = '2001:balance-credit-smtp-down';
  beforeAll(async () => {
    downApp = await startAppWithBot(
      { token, username: 'tradehost_down_bot', secret: SECRET },
      { SMTP_URL: 'smtp://127.0.0.1:1' },
    );
    ({ t: down, emulator: downEmulator } = downApp);
  });
  afterAll(async () => {
    await downApp?.close();
  });

  it('an operator’s credit is answered and kept, and the chat still hears of it', async () => {
    const operator = await quickUser(down, { role: 'admin' });
    const user = await quickUser(down, { name: 'Mia Mailless' });
    const chat: EmulatedChat = { id: 9001, type: 'private', first_name: 'Mia' };
    const link = await down.api.post(
      '/api/user/telegram/link',
      { purpose: 'account' },
      { token: user.token },
    );
    const payload = new URL(link.body.link as string).searchParams.get('start');
    expect(await downEmulator.say(chat, `/start ${payload}`)).toBe(200);
    const welcomed = downEmulator.sent(chat.id).length;

    const res = await postKeyed(
      down,
      `/api/admin/users/${user.id}/adjustments`,
      { amount: '3.00', reason: 'Goodwill' },
      operator,
    );
    expect(res.status, res.text).toBe(201);
    expect(await balancesOf(down, user.id)).toEqual({ balance: 300, partner: 0 });
    const notice = await downEmulator.waitFor(() => downEmulator.sent(chat.id)[welcomed]);
    expect(notice.text).toMatch(SUBJECT_EN);
    expect(down.logs.some((line) => line.includes('a mail could not be sent'))).toBe(true);
  });
});
