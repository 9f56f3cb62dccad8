import {
  messageResponseSchema,
  telegramLinkRequestSchema,
  telegramLinkResponseSchema,
  telegramPurposeParamsSchema,
  telegramStatusResponseSchema,
} from '@tradehost/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { webhookCallback } from 'grammy';
import * as z from 'zod/mini';
import type { Config } from '../../config.ts';
import type { TelegramBot, TelegramBots } from '../../integrations/telegram/bots.ts';
import { AppError } from '../../lib/errors.ts';
import { sameHex, sha256Hex } from '../../lib/secrets.ts';
import { currentUser } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import { installChatBot, type ServerControl } from './telegram.bot.ts';
import type { TelegramService } from './telegram.service.ts';

type WebhookHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** How long an update may take before Telegram is answered (it waits about a minute). */
const UPDATE_TIMEOUT_MS = 25_000;

/**
 * /api/user/telegram...: the profile's chat-bot calls. POST /api/telegram/webhook/<bot>: the
 * updates Telegram delivers to each bot (`account`, and `monitoring` with a second token),
 * authenticated by the secret token the webhook was set with.
 */
export async function telegramRoutes(
  app: FastifyInstance,
  options: {
    telegram: TelegramService;
    bots: TelegramBots;
    servers: ServerControl;
    config: Config;
    now: () => Date;
  },
) {
  const { telegram, bots, servers, config, now } = options;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const route = { config: { ...perMinute(config.rateLimitUserMax), auth: 'required' as const } };
  const security = [{ bearer: [] }];
  const tags = ['telegram'];

  r.get(
    '/user/telegram',
    {
      ...route,
      schema: {
        tags,
        summary: 'The chat-bot: whether it is on, and the chat linked for each purpose',
        security,
        response: { 200: telegramStatusResponseSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => telegram.status(currentUser(request).id),
  );

  r.post(
    '/user/telegram/link',
    {
      // the chat will hear of the account's money and control its servers: a fresh proof first
      config: { ...route.config, stepUp: true },
      schema: {
        tags,
        summary:
          'A one-time deep link (15 minutes) that links the chat opening it; needs a fresh proof (403 STEP_UP_REQUIRED)',
        security,
        body: telegramLinkRequestSchema,
        response: {
          200: telegramLinkResponseSchema,
          ...errorResponses(401, 403, 409, 422, 429, 503),
        },
      },
    },
    async (request) => telegram.createLink(currentUser(request).id, request.body.purpose),
  );

  r.delete(
    '/user/telegram/link/:purpose',
    {
      ...route,
      schema: {
        tags,
        summary: 'Unlink the chat linked for a purpose',
        security,
        params: telegramPurposeParamsSchema,
        response: { 200: messageResponseSchema, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => telegram.unlink(currentUser(request).id, request.params.purpose),
  );

  const secretHash = config.telegram ? sha256Hex(config.telegram.webhookSecret) : '';
  const handlers = new Map<string, { client: TelegramBot; handle: WebhookHandler }>(
    bots.list.map((client) => {
      installChatBot(client, { db: app.db, config, now, log: app.log, servers });
      const handle = webhookCallback(client.bot, 'fastify', {
        secretToken: config.telegram!.webhookSecret,
        onTimeout: 'return',
        timeoutMilliseconds: UPDATE_TIMEOUT_MS,
      });
      return [client.key, { client, handle }] as const;
    }),
  );

  r.post(
    '/telegram/webhook/:bot',
    {
      schema: {
        tags,
        summary: "Telegram's updates for a bot (X-Telegram-Bot-Api-Secret-Token required)",
        params: z.object({ bot: z.string().check(z.maxLength(20)) }),
        body: z.looseObject({ update_id: z.number() }),
        response: errorResponses(400, 401, 404, 503),
      },
    },
    async (request, reply) => {
      const target = handlers.get(request.params.bot);
      if (!target) throw new AppError(404, 'NOT_FOUND');
      // checked before grammY asks Telegram for the bot's account (it would for any caller)
      const secret = request.headers['x-telegram-bot-api-secret-token'];
      if (typeof secret !== 'string' || !sameHex(sha256Hex(secret), secretHash))
        throw new AppError(401, 'TELEGRAM_SECRET_WRONG');
      try {
        await target.client.info();
      } catch {
        throw new AppError(503, 'TELEGRAM_UNAVAILABLE');
      }
      await target.handle(request as FastifyRequest, reply as FastifyReply);
      return reply;
    },
  );
}
