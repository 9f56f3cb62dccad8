import { expect } from 'vitest';
import { startTestApp, type quickUser, type TestApp } from './helpers.ts';
import {
  startTelegramEmulator,
  type EmulatedChat,
  type TelegramEmulator,
} from './telegram-emulator.ts';

/**
 * The product with its chat-bot talking to the Telegram Bot API emulator on loopback: the bot is
 * configured as in production (token, webhook secret, API root), and the emulator's webhook is
 * pointed at the test app's own port once the bot has registered its commands at start-up.
 */
export interface TelegramTestApp {
  t: TestApp;
  emulator: TelegramEmulator;
  close(): Promise<void>;
}

export const ACCOUNT_WEBHOOK = '/api/telegram/webhook/account';

export async function startAppWithBot(
  bot: { token: string; username: string; secret: string },
  env: Record<string, string> = {},
): Promise<TelegramTestApp> {
  const emulator = await startTelegramEmulator();
  emulator.addBot(bot.token, bot.username, 'TradeHost');
  const t = await startTestApp({
    env: {
      ...env,
      TELEGRAM_BOT_TOKEN: bot.token,
      TELEGRAM_WEBHOOK_SECRET: bot.secret,
      TELEGRAM_API_ROOT: emulator.url,
    },
  });
  // set at start-up to PUBLIC_URL's address: the test app listens on a port of its own
  await emulator.waitFor(() => emulator.bot(bot.token).commands.get('ru'));
  emulator.redirectWebhook(bot.token, `${t.url}${ACCOUNT_WEBHOOK}`);
  return {
    t,
    emulator,
    async close() {
      await t.close();
      await emulator.close();
    },
  };
}

type User = Awaited<ReturnType<typeof quickUser>>;

/** The one-time token of a deep link (https://t.me/<bot>?start=<token>). */
export const startPayload = (link: string) => new URL(link).searchParams.get('start')!;

/** The user links `chat` for a purpose the way a person does: the profile's link, then START. */
export async function linkChat(
  { t, emulator }: Pick<TelegramTestApp, 't' | 'emulator'>,
  user: Pick<User, 'token'>,
  chat: EmulatedChat,
  purpose: 'account' | 'monitoring' = 'account',
) {
  const res = await t.api.post('/api/user/telegram/link', { purpose }, { token: user.token });
  expect(res.status).toBe(200);
  expect(await emulator.say(chat, `/start ${startPayload(res.body.link as string)}`)).toBe(200);
}
