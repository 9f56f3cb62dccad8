import { Bot, type Transformer } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type { TelegramConfig } from '../../config.ts';
import type { TelegramPurpose } from './port.ts';

/**
 * The configured bots as grammY clients of TELEGRAM_API_ROOT: the account bot, which serves
 * monitoring too unless TELEGRAM_MON_BOT_TOKEN names a second bot for it. Each bot is known by
 * the first purpose it serves (`key`), which names its webhook route.
 */

export interface TelegramBot {
  key: TelegramPurpose;
  /** What the chats linked through this bot receive. */
  purposes: TelegramPurpose[];
  bot: Bot;
  /** The bot's own account (getMe): asked once, asked again after a failure. */
  info(): Promise<UserFromGetMe>;
}

export interface TelegramBots {
  /** False without TELEGRAM_BOT_TOKEN: the chat-bot is off. */
  enabled: boolean;
  list: TelegramBot[];
  /** The bot that serves a purpose (undefined when off). */
  forPurpose(purpose: TelegramPurpose): TelegramBot | undefined;
  byKey(key: string): TelegramBot | undefined;
}

/** How long one Bot API call may take (grammY's default is 500 s). */
const CALL_TIMEOUT_SECONDS = 20;
/** A flood wait longer than this is not slept through: the call fails and its job retries. */
export const FLOOD_WAIT_MAX_SECONDS = 30;
const FLOOD_RETRIES = 2;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Honours Telegram's 429 answers: waits the `retry_after` it names and calls again, a couple of
 * times and for short waits only (a long one is left to the caller's retries).
 */
export const floodWait: Transformer = async (prev, method, payload, signal) => {
  for (let attempt = 0; ; attempt += 1) {
    const result = await prev(method, payload, signal);
    const retryAfter = result.ok ? undefined : result.parameters?.retry_after;
    if (retryAfter === undefined || attempt >= FLOOD_RETRIES || retryAfter > FLOOD_WAIT_MAX_SECONDS)
      return result;
    await sleep(retryAfter * 1000);
  }
};

function createBot(
  token: string,
  key: TelegramPurpose,
  purposes: TelegramPurpose[],
  apiRoot: string,
): TelegramBot {
  const bot = new Bot(token, { client: { apiRoot, timeoutSeconds: CALL_TIMEOUT_SECONDS } });
  bot.api.config.use(floodWait);
  let asking: Promise<UserFromGetMe> | undefined;
  return {
    key,
    purposes,
    bot,
    info() {
      if (bot.isInited()) return Promise.resolve(bot.botInfo);
      // not bot.init(): it retries for ever while Telegram cannot be reached
      asking ??= bot.api.getMe().then(
        (me) => {
          if (!bot.isInited()) bot.botInfo = me;
          return bot.botInfo;
        },
        (error: unknown) => {
          asking = undefined;
          throw error;
        },
      );
      return asking;
    },
  };
}

export function createTelegramBots(config: TelegramConfig | undefined): TelegramBots {
  const list: TelegramBot[] = [];
  if (config) {
    const { botToken, monitoringBotToken, apiRoot } = config;
    if (monitoringBotToken) {
      list.push(createBot(botToken, 'account', ['account'], apiRoot));
      list.push(createBot(monitoringBotToken, 'monitoring', ['monitoring'], apiRoot));
    } else {
      list.push(createBot(botToken, 'account', ['account', 'monitoring'], apiRoot));
    }
  }
  return {
    enabled: list.length > 0,
    list,
    forPurpose: (purpose) => list.find((b) => b.purposes.includes(purpose)),
    byKey: (key) => list.find((b) => b.key === key),
  };
}

/** The bot's address, what the users row keeps while a chat is linked. */
export const botLink = (me: UserFromGetMe) => `https://t.me/${me.username}`;
