import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fieldRefusal,
  fund,
  quickUser,
  refusal,
  startTestApp,
  type Json,
  type TestApp,
} from './helpers.ts';
import { FREE } from './monitoring-fixtures.ts';
import { linkChat, startAppWithBot, startPayload, type TelegramTestApp } from './telegram-app.ts';
import { type EmulatedChat, type TelegramEmulator } from './telegram-emulator.ts';
import { DAY, injectFault, operationsOf, seedServer } from './vps-fixtures.ts';

/**
 * The chat-bot through its real parts: grammY in webhook mode behind the app's real route, and
 * a Telegram Bot API server on loopback (telegram-emulator.ts) that plays the users and keeps
 * what the bot said. The app's clock is moved for the links' expiry.
 */

const TOKEN = '1000:telegram-test-token';
const BOT = 'tradehost_test_bot';
const SECRET = 'telegram-test-webhook-secret';
const WEBHOOK = '/api/telegram/webhook/account';
const STATUS = '/api/user/telegram';
const LINK = '/api/user/telegram/link';
const MINUTE = 60_000;

let emulator: TelegramEmulator;
let t: TestApp;
let app: TelegramTestApp;
let nextChatId = 5000;

beforeAll(async () => {
  app = await startAppWithBot({ token: TOKEN, username: BOT, secret: SECRET });
  ({ t, emulator } = app);
});

afterAll(async () => {
  await app?.close();
});

type User = Awaited<ReturnType<typeof quickUser>>;

/** A private chat of its own per call. */
function privateChat(fields: Partial<EmulatedChat> = {}): EmulatedChat {
  nextChatId += 1;
  return { id: nextChatId, type: 'private', first_name: 'Anna', ...fields };
}

async function deepLink(user: User, purpose = 'account') {
  const res = await t.api.post(LINK, { purpose }, { token: user.token });
  expect(res.status).toBe(200);
  return res.body as { link: string; expires_at: string };
}

/** The user links the chat for a purpose the way a person does: the profile's link, then START. */
const link = (user: User, chat: EmulatedChat, purpose: 'account' | 'monitoring' = 'account') =>
  linkChat(app, user, chat, purpose);

/** What the bot answers to `text` (the newest message in the chat after it). */
async function ask(chat: EmulatedChat, text: string) {
  const before = emulator.sent(chat.id).length;
  expect(await emulator.say(chat, text)).toBe(200);
  const sent = emulator.sent(chat.id);
  expect(sent.length).toBeGreaterThan(before);
  return sent.at(-1)!;
}

const status = async (user: User) => (await t.api.get(STATUS, { token: user.token })).body;
const me = async (user: User) => (await t.api.get('/api/user/auth', { token: user.token })).body;

async function chatsOf(userId: number) {
  const { rows } = await t.sql.query(
    'select purpose, chat_id::int as chat_id, title from telegram_chats where user_id = $1 order by purpose',
    [userId],
  );
  return rows;
}

describe('start-up', () => {
  it('sets the webhook with the secret token and the command menu in both languages', () => {
    const bot = emulator.bot(TOKEN);
    const setWebhook = emulator.calls.find((c) => c.method === 'setWebhook')!;
    expect(setWebhook.params).toMatchObject({
      url: `${t.config.publicUrl}${WEBHOOK}`,
      secret_token: SECRET,
      allowed_updates: ['message', 'callback_query'],
    });
    const commands = (language: string) => bot.commands.get(language)!.map((c) => c.command);
    expect(commands('')).toEqual([
      'accounts',
      'servers',
      'balance',
      'reboot',
      'start',
      'alerts',
      'lang',
      'unlink',
      'help',
    ]);
    expect(commands('ru')).toEqual(commands(''));
    expect(bot.commands.get('ru')![0]!.description).toMatch(/Счета мониторинга/);
  });
});

describe('linking', () => {
  it('gives a one-time deep link to the bot for 15 minutes and keeps only its hash', async () => {
    const user = await quickUser(t);
    const before = t.clock.now().getTime();
    const { link, expires_at } = await deepLink(user);
    expect(link).toMatch(new RegExp(`^https://t\\.me/${BOT}\\?start=[A-Za-z0-9_-]{43}$`));
    const ttl = Date.parse(expires_at) - before;
    expect(ttl).toBeGreaterThanOrEqual(15 * MINUTE - 1000);
    expect(ttl).toBeLessThanOrEqual(15 * MINUTE + 1000);
    const { rows } = await t.sql.query(
      'select token_hash, purpose from telegram_link_tokens where user_id = $1',
      [user.id],
    );
    expect(rows).toEqual([
      { token_hash: expect.stringMatching(/^[0-9a-f]{64}$/), purpose: 'account' },
    ]);
    expect(rows[0].token_hash).not.toContain(startPayload(link));
  });

  it('links the private chat that opens it, once, and shows it in the profile', async () => {
    const user = await quickUser(t, { name: 'Anna Trader' });
    expect(await status(user)).toEqual({
      enabled: true,
      account: { linked: false, title: null, linked_at: null, bot_link: null },
      monitoring: { linked: false, title: null, linked_at: null, bot_link: null },
    });
    const chat = privateChat({ username: 'anna_fx' });
    const { link } = await deepLink(user);
    await emulator.say(chat, `/start ${startPayload(link)}`);
    expect(emulator.last(chat.id)!.text).toMatch(
      /^Done, Anna Trader: this chat now receives account notifications\./,
    );
    const linked = await status(user);
    expect(linked.account).toMatchObject({
      linked: true,
      title: '@anna_fx',
      bot_link: `https://t.me/${BOT}`,
    });
    expect(linked.monitoring.linked).toBe(false);
    expect(await me(user)).toMatchObject({
      telegram_link: `https://t.me/${BOT}`,
      telegram_mon_link: null,
    });

    // the same link again, from another chat: refused, the first chat stays linked
    const other = privateChat();
    const reply = await ask(other, `/start ${startPayload(link)}`);
    expect(reply.text).toMatch(/^This link is invalid, used or expired/);
    expect(await chatsOf(user.id)).toEqual([
      { purpose: 'account', chat_id: chat.id, title: '@anna_fx' },
    ]);
  });

  it('lets only one of two chats racing with the same link win', async () => {
    const user = await quickUser(t);
    const { link } = await deepLink(user);
    const chats = [privateChat(), privateChat()];
    await Promise.all(chats.map((c) => emulator.say(c, `/start ${startPayload(link)}`)));
    const replies = chats.map((c) => emulator.last(c.id)!.text);
    expect(replies.filter((r) => r.startsWith('Done')).length).toBe(1);
    expect(replies.filter((r) => r.startsWith('This link is invalid')).length).toBe(1);
    expect(await chatsOf(user.id)).toHaveLength(1);
  });

  it('refuses a link after its 15 minutes, on the moved clock', async () => {
    const user = await quickUser(t);
    const late = await deepLink(user, 'monitoring');
    const inTime = await deepLink(user, 'account');
    t.clock.advance(15 * MINUTE + 1000);
    try {
      const chat = privateChat();
      expect((await ask(chat, `/start ${startPayload(late.link)}`)).text).toMatch(
        /^This link is invalid, used or expired/,
      );
      expect((await ask(chat, `/start ${startPayload(inTime.link)}`)).text).toMatch(
        /^This link is invalid/,
      );
      expect(await chatsOf(user.id)).toEqual([]);
    } finally {
      t.clock.advance(-(15 * MINUTE + 1000));
    }
    // one made now still works at 14 minutes
    const fresh = await deepLink(user, 'monitoring');
    t.clock.advance(14 * MINUTE);
    try {
      const chat = privateChat();
      await emulator.say(chat, `/start ${startPayload(fresh.link)}`);
      expect(emulator.last(chat.id)!.text).toMatch(/monitoring alerts and reports/);
    } finally {
      t.clock.advance(-14 * MINUTE);
    }
  });

  it('refuses groups and channels politely and keeps the link for a private chat', async () => {
    const user = await quickUser(t);
    const { link } = await deepLink(user);
    const group = privateChat({ type: 'group', title: 'Traders' });
    const reply = await ask(group, `/start ${startPayload(link)}`);
    expect(reply.text).toBe(
      'I work in private chats only. Open a private chat with me and link it from your profile.',
    );
    expect(await chatsOf(user.id)).toEqual([]);
    const chat = privateChat();
    await emulator.say(chat, `/start ${startPayload(link)}`);
    expect(await chatsOf(user.id)).toEqual([
      { purpose: 'account', chat_id: chat.id, title: 'Anna' },
    ]);
  });

  it('answers a garbled or unknown payload in the Telegram user’s language', async () => {
    const chat = privateChat({ language_code: 'ru' });
    expect((await ask(chat, '/start not-a-token')).text).toMatch(/^Эта ссылка неверна/);
    expect((await ask(chat, `/start ${'x'.repeat(65)}`)).text).toMatch(/^Эта ссылка неверна/);
  });

  it('replaces the user’s older chat, and moves a chat from another account saying so', async () => {
    const first = await quickUser(t);
    const second = await quickUser(t, { name: 'Boris' });
    const chatA = privateChat();
    const chatB = privateChat({ first_name: 'Bea', last_name: 'Brown' });
    await link(first, chatA);
    await link(first, chatB);
    expect(await chatsOf(first.id)).toEqual([
      { purpose: 'account', chat_id: chatB.id, title: 'Bea Brown' },
    ]);
    // chat B now links the second account: the first one loses it
    await link(second, chatB);
    expect(emulator.last(chatB.id)!.text).toContain(
      'It was linked to another account before; that account no longer gets messages here.',
    );
    expect(await chatsOf(first.id)).toEqual([]);
    expect(await chatsOf(second.id)).toEqual([
      { purpose: 'account', chat_id: chatB.id, title: 'Bea Brown' },
    ]);
    expect((await me(first)).telegram_link).toBeNull();
    expect((await me(second)).telegram_link).toBe(`https://t.me/${BOT}`);
    // relinking the same chat to the same account is no move
    await link(second, chatB);
    expect(emulator.last(chatB.id)!.text).not.toContain('another account');
  });

  it('refuses a bad purpose and a request without a session, creating nothing', async () => {
    const user = await quickUser(t);
    const bad = await t.api.post(LINK, { purpose: 'support' }, { token: user.token });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual(fieldRefusal('purpose', 'TELEGRAM_PURPOSE_INVALID'));
    const missing = await t.api.post(LINK, {}, { token: user.token });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual(fieldRefusal('purpose', 'TELEGRAM_PURPOSE_INVALID'));
    expect((await t.api.post(LINK, { purpose: 'account' })).status).toBe(401);
    const badUnlink = await t.api.request('DELETE', `${LINK}/support`, { token: user.token });
    // a path that names no purpose is no such thing
    expect(badUnlink.status).toBe(404);
    const { rows } = await t.sql.query(
      'select count(*)::int as n from telegram_link_tokens where user_id = $1',
      [user.id],
    );
    expect(rows[0].n).toBe(0);
  });

  it('unlinks from the profile (404 when nothing is linked) and with /unlink', async () => {
    const user = await quickUser(t);
    const chat = privateChat();
    await link(user, chat, 'account');
    await link(user, chat, 'monitoring');
    const res = await t.api.request('DELETE', `${LINK}/monitoring`, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: 'The Telegram chat has been unlinked',
      code: 'TELEGRAM_UNLINKED',
    });
    expect((await me(user)).telegram_mon_link).toBeNull();
    const again = await t.api.request('DELETE', `${LINK}/monitoring`, { token: user.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual(refusal('TELEGRAM_NOT_LINKED'));

    expect((await ask(chat, '/unlink')).text).toBe(
      'This chat is unlinked. Link it again from your profile whenever you like.',
    );
    expect(await chatsOf(user.id)).toEqual([]);
    expect((await me(user)).telegram_link).toBeNull();
    expect((await ask(chat, '/balance')).text).toMatch(/^This chat is not linked/);
  });
});

describe('commands', () => {
  let owner: User;
  let stranger: User;
  let chat: EmulatedChat;
  let strangerChat: EmulatedChat;
  let accountId: number;
  let strangerAccountId: number;

  /** A monitored account with computed figures, through the API (free plan). */
  async function monitoredAccount(user: User, login: number, name: string, gain: number) {
    const free = await t.api.post(FREE, undefined, { token: user.token });
    const added = await t.api.post(
      '/api/user/monitoring/accounts',
      {
        subscription_id: free.body.subscription.id,
        login,
        platform: 'MT5',
        name,
        email: 'a@example.com',
      },
      { token: user.token },
    );
    expect(added.status).toBe(201);
    const id = added.body.account.id as number;
    await t.sql.query(
      `insert into monitoring_statistics (account_id, computed_at, gain, max_drawdown, profit, trades, figures, chart)
       values ($1, now(), $2, 0.051, 100, 3, '{}', '[]')`,
      [id, gain],
    );
    await t.sql.query(
      `update monitoring_accounts set last_data_at = '2026-01-05T10:00:00Z' where id = $1`,
      [id],
    );
    return id;
  }

  beforeAll(async () => {
    owner = await quickUser(t, { name: 'Owner' });
    stranger = await quickUser(t, { name: 'Stranger' });
    chat = privateChat();
    strangerChat = privateChat();
    await link(owner, chat);
    await link(stranger, strangerChat);
    accountId = await monitoredAccount(owner, 7001, 'Main <EURUSD>', 0.1234);
    strangerAccountId = await monitoredAccount(stranger, 7002, 'Secret', 0.5);
    await fund(t, owner.id, 12_345);
  });

  it('tells an unlinked chat how to link it', async () => {
    const reply = await ask(privateChat(), '/accounts');
    expect(reply.text).toBe(
      `This chat is not linked to a TradeHost account yet. Open your profile (${t.config.publicUrl}/profile), press “Link Telegram” and follow the link.`,
    );
    expect((await ask(privateChat(), 'hello')).text).toMatch(/^This chat is not linked/);
  });

  it('/help lists the commands; anything else said gets the help too', async () => {
    const help = await ask(chat, '/help');
    expect(help.text).toContain('This chat receives account notifications. Commands:');
    expect(help.text).toContain('/reboot — Reboot a server');
    expect((await ask(chat, 'what can you do?')).text).toBe(help.text);
  });

  it('/accounts shows the linked user’s accounts only: name, gain, drawdown, last update', async () => {
    const reply = await ask(chat, '/accounts');
    expect(reply.parse_mode).toBe('HTML');
    expect(reply.text).toBe(
      'Monitoring accounts\n\nMain <EURUSD> (7001)\nGain +12.34 % · drawdown 5.10 %\nLast update: 2026-01-05 10:00 UTC',
    );
    expect(reply.text).not.toContain('Secret');
    expect((await ask(strangerChat, '/accounts')).text).not.toContain('EURUSD');
  });

  it('/servers shows number, rate, status and paid-until of the user’s own servers', async () => {
    const paidUntil = new Date('2026-07-01T00:00:00Z');
    const mine = await seedServer(t, { userId: owner.id, paidUntil });
    const theirs = await seedServer(t, { userId: stranger.id, paidUntil });
    const reply = await ask(chat, '/servers');
    expect(reply.text).toContain(
      `#${mine.id} Trader, London (LD4)\nrunning · paid until 2026-07-01 00:00 UTC`,
    );
    expect(reply.text).not.toContain(`#${theirs.id} `);
    expect((await ask(privateChat(), '/servers')).text).toMatch(/^This chat is not linked/);
  });

  it('/balance shows the balance in dollars', async () => {
    expect((await ask(chat, '/balance')).text).toBe('Balance: $123.45\nPartner balance: $0.00');
  });

  it('/alerts switches an account’s alerts with a button, never another user’s', async () => {
    const menu = await ask(chat, '/alerts');
    expect(menu.buttons).toEqual([
      [{ text: 'Main <EURUSD>: on', callback_data: `alerts:${accountId}` }],
    ]);
    expect(await emulator.pressButton(chat, 'Main <EURUSD>: on')).toBe(200);
    const alertsOf = async (id: number) =>
      (await t.sql.query('select alerts_enabled from monitoring_accounts where id = $1', [id]))
        .rows[0].alerts_enabled;
    expect(await alertsOf(accountId)).toBe(false);
    const edited = emulator.sent(chat.id).find((m) => m.message_id === menu.message_id)!;
    expect(edited.text).toMatch(/^Alerts for Main <EURUSD> are off now\./);
    expect(edited.buttons).toEqual([
      [{ text: 'Main <EURUSD>: off', callback_data: `alerts:${accountId}` }],
    ]);
    // a forged press for the stranger's account changes nothing
    expect(await emulator.press(chat, menu, `alerts:${strangerAccountId}`)).toBe(200);
    expect(await alertsOf(strangerAccountId)).toBe(true);
    expect([...emulator.callbackAnswers.values()].at(-1)).toMatch(/^This is no longer possible/);
  });

  it('/lang switches the account’s language, and the bot speaks it', async () => {
    await ask(chat, '/lang');
    await emulator.pressButton(chat, 'Русский');
    expect(emulator.last(chat.id)!.text).toBe('Теперь я говорю по-русски.');
    expect((await me(owner)).language).toBe('ru');
    expect((await ask(chat, '/balance')).text).toBe('Баланс: $123.45\nПартнёрский баланс: $0.00');
    await ask(chat, '/lang');
    await emulator.pressButton(chat, 'English');
    expect((await me(owner)).language).toBe('en');
  });
});

describe('server control with a confirmation', () => {
  let owner: User;
  let chat: EmulatedChat;

  beforeAll(async () => {
    owner = await quickUser(t);
    chat = privateChat();
    await link(owner, chat);
  });

  const paidUntil = () => new Date(t.clock.now().getTime() + 30 * DAY);

  it('/reboot queues the reboot only after the confirmation, as the console does', async () => {
    const server = await seedServer(t, { userId: owner.id, paidUntil: paidUntil() });
    const menu = await ask(chat, '/reboot');
    expect(menu.text).toBe('Which server should I reboot?');
    const button = menu.buttons.flat().find((b) => b.callback_data === `reboot:${server.id}`)!;
    await emulator.press(chat, menu, button.callback_data!);
    const confirm = emulator.last(chat.id)!;
    expect(confirm.text).toBe(
      `Reboot server #${server.id} (Trader, London (LD4))? Programs running on it are stopped.`,
    );
    expect(await operationsOf(t, server.id)).toEqual([]);

    await emulator.pressButton(chat, 'Yes, reboot');
    const operations = await operationsOf(t, server.id);
    expect(operations).toEqual([
      expect.objectContaining({ kind: 'reboot', status: 'queued', actor_id: String(owner.id) }),
    ]);
    const done = emulator.sent(chat.id).find((m) => m.message_id === confirm.message_id)!;
    expect(done.text).toBe(`Server #${server.id} is rebooting. This takes 1-2 minutes.`);
    expect(done.buttons).toEqual([]);
    // the same audit row as the console's reboot
    const { rows } = await t.sql.query(
      `select action, actor_id::int as actor from audit_log where subject_id = $1 and subject_type = 'vps_server'`,
      [String(server.id)],
    );
    expect(rows).toEqual([{ action: 'vps.action', actor: owner.id }]);
  });

  it('takes the alert’s Reboot button, refuses a second operation, and Cancel does nothing', async () => {
    const server = await seedServer(t, { userId: owner.id, paidUntil: paidUntil() });
    const alert = await t.app.telegram.outbox.sendToUser(owner.id, 'account', {
      html: '<b>No data</b>',
      buttons: [[{ text: 'Reboot server', data: `reboot:${server.id}` }]],
    });
    expect(alert).toBe('sent');
    await emulator.pressButton(chat, 'Reboot server');
    await emulator.pressButton(chat, 'Cancel');
    expect(emulator.last(chat.id)!.text).toBe('Cancelled: nothing was done.');
    expect(await operationsOf(t, server.id)).toEqual([]);

    await emulator.pressButton(chat, 'Reboot server');
    await emulator.pressButton(chat, 'Yes, reboot');
    await emulator.pressButton(chat, 'Reboot server');
    await emulator.pressButton(chat, 'Yes, reboot');
    expect(emulator.last(chat.id)!.text).toBe(
      'Another operation is running on this server. Try again when it has finished (1-2 minutes)',
    );
    expect(await operationsOf(t, server.id)).toHaveLength(1);
  });

  it('never touches another user’s server, even with forged button data', async () => {
    const stranger = await quickUser(t);
    const theirs = await seedServer(t, { userId: stranger.id, paidUntil: paidUntil() });
    const menu = await ask(chat, '/help');
    await emulator.press(chat, menu, `reboot:${theirs.id}`);
    expect(emulator.last(chat.id)!.text).toMatch(/^This is no longer possible/);
    await emulator.press(chat, menu, `reboot-yes:${theirs.id}`);
    expect(await operationsOf(t, theirs.id)).toEqual([]);
  });

  it('/start offers the shut-down servers to start, with a confirmation', async () => {
    const stopped = await seedServer(t, {
      userId: owner.id,
      paidUntil: paidUntil(),
      machine: 'stopped',
    });
    const menu = await ask(chat, '/start');
    expect(menu.text).toBe('Which server should I start?');
    const button = menu.buttons.flat().find((b) => b.callback_data === `start:${stopped.id}`);
    expect(button).toBeDefined();
    await emulator.press(chat, menu, button!.callback_data!);
    await emulator.pressButton(chat, 'Yes, start');
    expect(await operationsOf(t, stopped.id)).toEqual([
      expect.objectContaining({ kind: 'start', status: 'queued' }),
    ]);
    expect(emulator.last(chat.id)!.text).toBe(
      `Server #${stopped.id} is starting. This takes 1-2 minutes.`,
    );
  });

  describe('what the chat hears when an operation it ordered ends', () => {
    /** Confirms `button` in the chat, runs the operation it queued, and answers that operation. */
    async function confirmAndRun(serverId: number, button: string, yes: string) {
      const menu = await ask(chat, '/help');
      await emulator.press(chat, menu, button);
      await emulator.pressButton(chat, yes);
      const operation = (await operationsOf(t, serverId)).at(-1)!;
      expect(operation).toMatchObject({ status: 'queued' });
      await t.app.vpsJobs.runner.run(Number(operation.id));
      return operation;
    }

    it('a reboot ordered in the chat is reported done, and a failed one says why and what is true now', async () => {
      const server = await seedServer(t, { userId: owner.id, paidUntil: paidUntil() });
      const op = await confirmAndRun(server.id, `reboot:${server.id}`, 'Yes, reboot');
      expect(op).toMatchObject({ kind: 'reboot' });
      expect(emulator.last(chat.id)!.text).toBe(
        `Server #${server.id} has rebooted and is running.`,
      );

      await injectFault(t, 'reboot', 'failed', 'VM is locked (backup)');
      await confirmAndRun(server.id, `reboot:${server.id}`, 'Yes, reboot');
      // the refusal's operator text stays with the operators; the chat gets the user's words
      expect(emulator.last(chat.id)!.text).toBe(
        `Server #${server.id} could not be rebooted: the virtualization host refused the operation. ` +
          'It is running now. Try again in a few minutes, or write to support.',
      );
      expect(emulator.last(chat.id)!.text).not.toContain('backup');
    });

    it('the alert’s old Reboot button starts a server that is shut down now, and says so when it runs', async () => {
      const server = await seedServer(t, {
        userId: owner.id,
        paidUntil: paidUntil(),
        machine: 'stopped',
      });
      const menu = await ask(chat, '/help');
      await emulator.press(chat, menu, `reboot:${server.id}`);
      expect(emulator.last(chat.id)!.text).toBe(
        `Start server #${server.id} (Trader, London (LD4))?`,
      );
      await emulator.pressButton(chat, 'Yes, start');
      const [operation] = await operationsOf(t, server.id);
      expect(operation).toMatchObject({ kind: 'start', status: 'queued' });
      await t.app.vpsJobs.runner.run(Number(operation!.id));
      expect(emulator.last(chat.id)!.text).toBe(`Server #${server.id} has started and is running.`);
      const { rows } = await t.sql.query('select power from vps_servers where id = $1', [
        server.id,
      ]);
      expect(rows[0].power).toBe('running');
    });

    it('a confirmation pressed after the server stopped starts it rather than being refused', async () => {
      const server = await seedServer(t, { userId: owner.id, paidUntil: paidUntil() });
      const menu = await ask(chat, '/help');
      await emulator.press(chat, menu, `reboot:${server.id}`);
      // the server is shut down (from the console) between the question and the answer
      await t.sql.query(`update vps_servers set power = 'stopped' where id = $1`, [server.id]);
      await t.sql.query(`update sim_machines set status = 'stopped' where id = $1`, [
        Number(server.machineId),
      ]);
      await emulator.pressButton(chat, 'Yes, reboot');
      expect(emulator.last(chat.id)!.text).toBe(
        `Server #${server.id} is starting. This takes 1-2 minutes.`,
      );
      expect(await operationsOf(t, server.id)).toEqual([
        expect.objectContaining({ kind: 'start', status: 'queued' }),
      ]);
    });

    it('an operation ordered in the console is not told to the chat', async () => {
      const server = await seedServer(t, { userId: owner.id, paidUntil: paidUntil() });
      const before = emulator.sent(chat.id).length;
      const res = await t.api.post(`/api/user/vps/servers/${server.id}/actions/reboot`, undefined, {
        token: owner.token,
      });
      expect(res.status, res.text).toBe(202);
      const [operation] = await operationsOf(t, server.id);
      await t.app.vpsJobs.runner.run(Number(operation!.id));
      expect(await operationsOf(t, server.id)).toEqual([
        expect.objectContaining({ status: 'succeeded' }),
      ]);
      expect(emulator.sent(chat.id)).toHaveLength(before);
    });
  });
});

describe('the webhook', () => {
  const update = {
    update_id: 1,
    message: { message_id: 1, date: 0, chat: { id: 1, type: 'private' }, text: '/help' },
  };

  it('refuses a missing or wrong secret token and an unknown bot', async () => {
    const calls = emulator.calls.length;
    const missing = await t.api.post(WEBHOOK, update);
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual(refusal('TELEGRAM_SECRET_WRONG'));
    const wrong = await t.api.post(WEBHOOK, update, {
      headers: { 'x-telegram-bot-api-secret-token': `${SECRET}x` },
    });
    expect(wrong.status).toBe(401);
    const unknown = await t.api.post('/api/telegram/webhook/monitoring', update, {
      headers: { 'x-telegram-bot-api-secret-token': SECRET },
    });
    expect(unknown.status).toBe(404);
    // nothing reached the bot
    expect(emulator.calls.length).toBe(calls);
  });
});

describe('the outbox', () => {
  it('delivers to the chat linked for the purpose, with buttons', async () => {
    const user = await quickUser(t);
    const chat = privateChat();
    await link(user, chat, 'monitoring');
    const { outbox } = t.app.telegram;
    expect(outbox.enabled).toBe(true);
    expect(await outbox.sendToUser(user.id, 'account', { html: 'x' })).toBe('not-linked');
    const sent = await outbox.sendToUser(user.id, 'monitoring', {
      html: '<b>Drawdown</b> &lt; 20 %',
      buttons: [[{ text: 'Open', url: 'https://example.com/a' }]],
    });
    expect(sent).toBe('sent');
    expect(emulator.last(chat.id)).toMatchObject({
      text: 'Drawdown < 20 %',
      buttons: [[{ text: 'Open', url: 'https://example.com/a' }]],
    });
  });

  it('unlinks a chat that blocked the bot and says so', async () => {
    const user = await quickUser(t);
    const chat = privateChat();
    await link(user, chat, 'account');
    emulator.block(chat.id);
    try {
      expect(await t.app.telegram.outbox.sendToUser(user.id, 'account', { html: 'hi' })).toBe(
        'blocked',
      );
    } finally {
      emulator.block(chat.id, false);
    }
    expect(await chatsOf(user.id)).toEqual([]);
    expect((await status(user)).account.linked).toBe(false);
    expect((await me(user)).telegram_link).toBeNull();
  });

  it('waits out a 429 for its retry_after and sends; a long flood wait throws for a retry', async () => {
    const user = await quickUser(t);
    const chat = privateChat();
    await link(user, chat, 'account');
    const { outbox } = t.app.telegram;
    emulator.failNext({ method: 'sendMessage', chatId: chat.id, retryAfter: 1 });
    const started = Date.now();
    expect(await outbox.sendToUser(user.id, 'account', { html: 'after the wait' })).toBe('sent');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(emulator.last(chat.id)!.text).toBe('after the wait');

    emulator.failNext({ method: 'sendMessage', chatId: chat.id, retryAfter: 3600 });
    await expect(outbox.sendToUser(user.id, 'account', { html: 'later' })).rejects.toThrow(
      /Too Many Requests/,
    );
    expect(await chatsOf(user.id)).toHaveLength(1);
  });

  it('keeps one message a second to a chat', async () => {
    const user = await quickUser(t);
    const chat = privateChat();
    await link(user, chat, 'account');
    const { outbox } = t.app.telegram;
    const started = Date.now();
    await Promise.all(
      [1, 2, 3].map((n) => outbox.sendToUser(user.id, 'account', { html: `${n}` })),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(
      emulator
        .sent(chat.id)
        .slice(-3)
        .map((m) => m.text)
        .sort(),
    ).toEqual(['1', '2', '3']);
  });
});

describe('account notifications', () => {
  it('copy a mailed notice (a server about to expire) to the account chat', async () => {
    const user = await quickUser(t, { name: 'Notified' });
    const chat = privateChat();
    await link(user, chat, 'account');
    const server = await seedServer(t, {
      userId: user.id,
      paidUntil: new Date(t.clock.now().getTime() + 2 * DAY),
    });
    const before = emulator.sent(chat.id).length;
    await t.app.vpsJobs.lifecycle.tick();
    const notice = await emulator.waitFor(() => emulator.sent(chat.id)[before]);
    expect(notice.text).toMatch(new RegExp(`^TradeHost: server #${server.id} is paid until`));
    expect(notice.text).toContain(
      `The paid period of server #${server.id} (Trader, London (LD4)) ends in`,
    );
    expect(notice.text).not.toMatch(/\n\nTradeHost$/);
    // the mail went too
    const mail = await t.smtp.next(user.email, 0);
    expect(mail.subject).toBe(notice.text.split('\n')[0]);
  });
});

describe('without a bot token', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await startTestApp();
  });
  afterAll(async () => off?.close());

  it('is off: the status says so, links are refused, the webhook is not there', async () => {
    const user = await quickUser(off);
    const res = await off.api.get(STATUS, { token: user.token });
    expect(res.body).toMatchObject({ enabled: false, account: { linked: false } });
    const linkRes = await off.api.post(LINK, { purpose: 'account' }, { token: user.token });
    expect(linkRes.status).toBe(409);
    expect(linkRes.body).toEqual(refusal('TELEGRAM_OFF'));
    const hook = await off.api.post(WEBHOOK, { update_id: 1 } as Json, {
      headers: { 'x-telegram-bot-api-secret-token': SECRET },
    });
    expect(hook.status).toBe(404);
    expect(await off.app.telegram.outbox.sendToUser(user.id, 'account', { html: 'x' })).toBe('off');
    expect(off.logs.some((line) => line.includes('the Telegram chat-bot is off'))).toBe(true);
  });
});
