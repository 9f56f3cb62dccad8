import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import { GrammyError } from 'grammy';
import type { Config } from '../../config.ts';
import {
  createTelegramBots,
  type TelegramBot,
  type TelegramBots,
} from '../../integrations/telegram/bots.ts';
import {
  createTelegramNotices,
  type TelegramNotices,
} from '../../integrations/telegram/notices.ts';
import { createTelegramOutbox } from '../../integrations/telegram/outbox.ts';
import type { TelegramOutbox } from '../../integrations/telegram/port.ts';
import { commandMenu } from './telegram.bot.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The chat-bot: its bots, the outbox other modules' jobs send through (monitoring's alerts
     * and reports) and the account notices (a copy of each notify() mail).
     */
    telegram: { bots: TelegramBots; outbox: TelegramOutbox; notices: TelegramNotices };
  }
}

/** The first pause before setting a webhook again after a failure; it doubles up to the last. */
const SETUP_RETRY_MS = [10_000, 60_000, 600_000] as const;

/**
 * Tells Telegram where to deliver each bot's updates (PUBLIC_URL/api/telegram/webhook/<bot>,
 * with the secret token) and which commands to show, in English and Russian. Telegram being
 * unreachable does not hold the start-up back: it is logged and tried again later. A refusal
 * (a 4xx such as a webhook URL Telegram does not accept) is logged and not retried.
 */
function scheduleSetup(client: TelegramBot, config: Config, log: FastifyBaseLogger) {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const url = `${config.publicUrl}/api/telegram/webhook/${client.key}`;

  async function attempt(tries: number) {
    try {
      const me = await client.info();
      const { api } = client.bot;
      await api.setWebhook(url, {
        secret_token: config.telegram!.webhookSecret,
        allowed_updates: ['message', 'callback_query'],
      });
      await api.setMyCommands(commandMenu('en'));
      await api.setMyCommands(commandMenu('ru'), { language_code: 'ru' });
      log.info({ bot: me.username, url }, 'Telegram webhook set');
    } catch (error) {
      const refused =
        error instanceof GrammyError && error.error_code < 500 && error.error_code !== 429;
      if (refused) {
        log.error({ err: error, url }, 'Telegram refused the webhook set-up');
        return;
      }
      const delay = SETUP_RETRY_MS[Math.min(tries, SETUP_RETRY_MS.length - 1)]!;
      log.warn({ err: error, retryInMs: delay }, 'Telegram cannot be reached; trying again later');
      if (!stopped) timer = setTimeout(() => void attempt(tries + 1), delay).unref();
    }
  }

  return {
    start: () => void attempt(0),
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/**
 * Decorates `app.telegram` (after the db and jobs plugins: the notices are a queue) and, when a
 * bot token is configured, sets the webhooks once the app is ready. The bots' conversation and
 * the webhook route are telegram.routes.ts.
 */
export const telegramPlugin = fp(
  async (app, { config }: { config: Config }) => {
    const log = app.log.child({ module: 'telegram' });
    const bots = createTelegramBots(config.telegram);
    const outbox = createTelegramOutbox({ db: app.db, bots, log });
    const notices = createTelegramNotices({ db: app.db, config, jobs: app.jobs, outbox, log });
    app.decorate('telegram', { bots, outbox, notices });
    if (!bots.enabled) {
      app.addHook('onReady', async () =>
        log.info('the Telegram chat-bot is off: TELEGRAM_BOT_TOKEN is not set'),
      );
      return;
    }
    const setups = bots.list.map((client) => scheduleSetup(client, config, log));
    app.addHook('onReady', async () => setups.forEach((s) => s.start()));
    app.addHook('onClose', async () => setups.forEach((s) => s.stop()));
  },
  { name: 'tradehost-telegram', dependencies: ['tradehost-db', 'tradehost-jobs'] },
);
