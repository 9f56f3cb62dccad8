import type {
  Language,
  OperationResponse,
  ServerAction,
  TelegramPurpose,
} from '@tradehost/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { GrammyError, type Context } from 'grammy';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { securityLog } from '../../db/security-events.ts';
import { telegramChatsRepository as chats } from '../../db/telegram-chats.ts';
import { inTransaction } from '../../db/transaction.ts';
import { botLink, type TelegramBot } from '../../integrations/telegram/bots.ts';
import { inlineKeyboard } from '../../integrations/telegram/outbox.ts';
import type { TelegramButton } from '../../integrations/telegram/port.ts';
import { AppError } from '../../lib/errors.ts';
import { sha256Hex } from '../../lib/secrets.ts';
import { userRepository } from '../../db/users.ts';
import { telegramRepository as repo } from './telegram.repository.ts';
import { COMMANDS, TEXTS, languageOf, type ServerLine } from './telegram.texts.ts';

/**
 * The chat-bot's conversation (grammY, webhook mode). Nothing is kept between updates: who a
 * chat belongs to is read from telegram_chats on every update, and a button carries all it needs
 * in its data, so any instance can answer any update. Every read and change is the linked user's
 * own, checked again at each press.
 *
 * Button data (at most 64 bytes), shared with the alerts' messages:
 * - `reboot:<serverId>` / `start:<serverId>`: asks to confirm (a new message) whichever of the
 *   two brings the server back as it is now (a shut-down server is started, a running one
 *   rebooted);
 * - `reboot-yes:<serverId>` / `start-yes:<serverId>`: queues that operation, as the console
 *   does; the chat hears again when it has ended (the VPS runner tells it);
 * - `cancel`: drops a confirmation; `alerts:<accountId>`: switches that account's alerts;
 * - `lang:en` / `lang:ru`.
 */

/**
 * Starts, shuts down or reboots a server of a user: the VPS service's own operation path;
 * `tellChat` names the chat (by purpose) that hears when the operation has ended.
 */
export interface ServerControl {
  action(
    userId: number,
    serverId: number,
    action: ServerAction,
    tellChat?: TelegramPurpose,
  ): Promise<OperationResponse>;
}

export interface ChatBotDeps {
  db: Db;
  config: Config;
  now: () => Date;
  log: FastifyBaseLogger;
  servers: ServerControl;
}

/** The account a chat is linked to through this bot. */
interface Owner {
  userId: number;
  name: string;
  language: Language;
  /** The purposes the chat serves for this user. */
  purposes: TelegramPurpose[];
}

/** A /start payload Telegram allows: 1-64 of A-Z a-z 0-9 _ -. */
const START_PAYLOAD = /^[A-Za-z0-9_-]{1,64}$/;

function chatTitle(chat: { username?: string; first_name?: string; last_name?: string }): string {
  if (chat.username) return `@${chat.username}`;
  return [chat.first_name, chat.last_name].filter(Boolean).join(' ') || 'Telegram';
}

/** A message in Telegram HTML, with buttons under it. */
const html = (buttons?: TelegramButton[][]) => {
  const keyboard = inlineKeyboard(buttons);
  return {
    parse_mode: 'HTML' as const,
    link_preview_options: { is_disabled: true },
    ...(keyboard ? { reply_markup: keyboard } : {}),
  };
};

/** Editing a message to what it already says is refused by Telegram and harmless here. */
async function edit(ctx: Context, text: string, buttons?: TelegramButton[][]) {
  try {
    await ctx.editMessageText(text, html(buttons));
  } catch (error) {
    if (!(error instanceof GrammyError && error.description.includes('message is not modified')))
      throw error;
  }
}

export function installChatBot(client: TelegramBot, deps: ChatBotDeps): void {
  const { db, config, now, log, servers } = deps;
  const { bot, purposes } = client;
  const profileUrl = `${config.publicUrl}/profile`;

  async function ownerOf(ctx: Context): Promise<Owner | undefined> {
    if (ctx.chat?.type !== 'private') return undefined;
    const links = await chats.ofChat(db, ctx.chat.id, purposes);
    const first = links[0];
    if (!first) return undefined;
    const user = await userRepository.findById(db, first.userId);
    if (!user) return undefined;
    return {
      userId: user.id,
      name: user.name,
      language: user.language,
      purposes: links.filter((l) => l.userId === user.id).map((l) => l.purpose),
    };
  }

  /** Runs `handle` for a linked private chat; others are told how to link (or to go private). */
  const linked =
    (handle: (ctx: Context, owner: Owner) => Promise<unknown>) => async (ctx: Context) => {
      if (ctx.chat?.type !== 'private') {
        await ctx.reply(TEXTS[languageOf(ctx.from?.language_code)].privateOnly, html());
        return;
      }
      const owner = await ownerOf(ctx);
      if (!owner) {
        if (ctx.callbackQuery) await ctx.answerCallbackQuery();
        await ctx.reply(TEXTS[languageOf(ctx.from?.language_code)].notLinked(profileUrl), html());
        return;
      }
      await handle(ctx, owner);
    };

  async function link(ctx: Context, payload: string) {
    const chat = ctx.chat!;
    const fallback = TEXTS[languageOf(ctx.from?.language_code)];
    const at = now();
    const result = START_PAYLOAD.test(payload)
      ? await inTransaction(db, async (tx) => {
          const token = await repo.consumeToken(tx, sha256Hex(payload), purposes, at);
          if (!token) return undefined;
          const { movedFrom } = await chats.link(tx, {
            userId: token.userId,
            purpose: token.purpose,
            chatId: chat.id,
            title: chatTitle(chat as Parameters<typeof chatTitle>[0]),
            linkedAt: at,
            botLink: botLink(ctx.me),
          });
          // the account's log: which chat now hears of it (the request came from Telegram)
          await securityLog.record(
            tx,
            token.userId,
            'telegram_linked',
            at,
            {},
            {
              purpose: token.purpose,
              chat: chatTitle(chat as Parameters<typeof chatTitle>[0]),
            },
          );
          const user = await userRepository.findById(tx, token.userId);
          return { purpose: token.purpose, moved: movedFrom !== null, user: user! };
        })
      : undefined;
    if (!result) {
      await ctx.reply(fallback.linkInvalid, html());
      return;
    }
    const { user, purpose, moved } = result;
    log.info({ userId: user.id, purpose, moved }, 'a Telegram chat was linked');
    await ctx.reply(TEXTS[user.language].linked(purpose, user.name, moved), html());
  }

  function serverButtons(list: ServerLine[], action: 'reboot' | 'start', language: Language) {
    return list.map((s) => [
      { text: TEXTS[language].control.serverButton(s), data: `${action}:${s.id}` },
    ]);
  }

  async function chooseServer(ctx: Context, owner: Owner, action: 'reboot' | 'start') {
    const t = TEXTS[owner.language].control;
    const wanted = action === 'reboot' ? 'running' : 'stopped';
    const list = (await repo.servers(db, owner.userId)).filter(
      (s) => s.status === 'active' && (s.power === wanted || s.power === 'unknown'),
    );
    if (list.length === 0) return false;
    await ctx.reply(
      action === 'reboot' ? t.chooseReboot : t.chooseStart,
      html(serverButtons(list, action, owner.language)),
    );
    return true;
  }

  /**
   * What a button asking to bring a server back does on the server as it is now: a server that
   * is shut down is started and a running one rebooted, whichever the button said (an alert's
   * button was drawn minutes ago, the list when it was asked for).
   */
  const actionFor = (asked: 'reboot' | 'start', server: ServerLine): 'reboot' | 'start' =>
    server.power === 'stopped' ? 'start' : server.power === 'running' ? 'reboot' : asked;

  async function confirmControl(ctx: Context, owner: Owner, asked: 'reboot' | 'start', id: number) {
    const t = TEXTS[owner.language];
    await ctx.answerCallbackQuery();
    const server = await repo.server(db, owner.userId, id);
    if (!server) {
      await ctx.reply(t.gone, html());
      return;
    }
    const action = actionFor(asked, server);
    await ctx.reply(
      action === 'reboot' ? t.control.confirmReboot(server) : t.control.confirmStart(server),
      html([
        [
          {
            text: action === 'reboot' ? t.control.yesReboot : t.control.yesStart,
            data: `${action}-yes:${id}`,
          },
          { text: t.control.cancel, data: 'cancel' },
        ],
      ]),
    );
  }

  async function runControl(ctx: Context, owner: Owner, asked: 'reboot' | 'start', id: number) {
    const t = TEXTS[owner.language].control;
    await ctx.answerCallbackQuery();
    const server = await repo.server(db, owner.userId, id);
    // the power changed since the confirmation: the same wish, brought about the other way
    const action = server ? actionFor(asked, server) : asked;
    try {
      // the VPS service checks the server is the user's, active, and free of other operations;
      // this chat hears when the operation has ended
      await servers.action(owner.userId, id, action, owner.purposes[0]);
      log.info({ userId: owner.userId, serverId: id, action }, 'server control from Telegram');
      await edit(ctx, t.queued(id, action));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      await edit(ctx, t.refused(error.code));
    }
  }

  function alertButtons(
    language: Language,
    accounts: { id: number; name: string; alertsEnabled: boolean }[],
  ) {
    return accounts.map((a) => [
      { text: TEXTS[language].alerts.button(a.name, a.alertsEnabled), data: `alerts:${a.id}` },
    ]);
  }

  // everything below answers "something went wrong" rather than failing the webhook: Telegram
  // would deliver the same update again and again
  const chat = bot.errorBoundary(async (error) => {
    log.error({ err: error.error }, 'the chat-bot failed on an update');
    const ctx = error.ctx;
    try {
      const owner = await ownerOf(ctx);
      const language = owner?.language ?? languageOf(ctx.from?.language_code);
      if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text: TEXTS[language].failed });
      else if (ctx.chat) await ctx.reply(TEXTS[language].failed, html());
    } catch {
      // Telegram itself is failing: nothing more to say
    }
  });

  chat.command('start', async (ctx) => {
    if (ctx.chat.type !== 'private') {
      await ctx.reply(TEXTS[languageOf(ctx.from?.language_code)].privateOnly, html());
      return;
    }
    const payload = ctx.match.trim();
    if (payload) return link(ctx, payload);
    return linked(async (_ctx, owner) => {
      if (await chooseServer(ctx, owner, 'start')) return;
      const t = TEXTS[owner.language];
      await ctx.reply(`${t.control.startNone}\n\n${t.help(owner.purposes)}`, html());
    })(ctx);
  });

  chat.command(
    'help',
    linked((ctx, owner) => ctx.reply(TEXTS[owner.language].help(owner.purposes), html())),
  );

  chat.command(
    'accounts',
    linked(async (ctx, owner) => {
      const t = TEXTS[owner.language].accounts;
      const list = await repo.accounts(db, owner.userId);
      await ctx.reply(
        list.length === 0
          ? t.none
          : [`<b>${t.title}</b>`, ...list.map((a) => t.line(a))].join('\n\n'),
        html(),
      );
    }),
  );

  chat.command(
    'servers',
    linked(async (ctx, owner) => {
      const t = TEXTS[owner.language].servers;
      const list = await repo.servers(db, owner.userId);
      await ctx.reply(
        list.length === 0
          ? t.none
          : [`<b>${t.title}</b>`, ...list.map((s) => t.line(s))].join('\n\n'),
        html(),
      );
    }),
  );

  chat.command(
    'balance',
    linked(async (ctx, owner) => {
      const user = await userRepository.findById(db, owner.userId);
      await ctx.reply(
        TEXTS[owner.language].balance(user!.balanceCents, user!.balancePartnerCents),
        html(),
      );
    }),
  );

  chat.command(
    'reboot',
    linked(async (ctx, owner) => {
      if (!(await chooseServer(ctx, owner, 'reboot')))
        await ctx.reply(TEXTS[owner.language].control.rebootNone, html());
    }),
  );

  chat.command(
    'alerts',
    linked(async (ctx, owner) => {
      const t = TEXTS[owner.language].alerts;
      const list = await repo.accounts(db, owner.userId);
      if (list.length === 0) return ctx.reply(t.none, html());
      return ctx.reply(t.choose, html(alertButtons(owner.language, list)));
    }),
  );

  chat.command(
    'lang',
    linked((ctx, owner) =>
      ctx.reply(
        TEXTS[owner.language].lang.choose,
        html([
          [
            { text: 'English', data: 'lang:en' },
            { text: 'Русский', data: 'lang:ru' },
          ],
        ]),
      ),
    ),
  );

  chat.command(
    'unlink',
    linked(async (ctx, owner) => {
      await inTransaction(db, (tx) => chats.unlink(tx, { purposes, chatId: ctx.chat!.id }));
      log.info({ userId: owner.userId }, 'a Telegram chat was unlinked with /unlink');
      await ctx.reply(TEXTS[owner.language].unlinked, html());
    }),
  );

  chat.callbackQuery(
    /^(reboot|start)(-yes)?:(\d{1,15})$/,
    linked(async (ctx, owner) => {
      const [, action, yes, id] = ctx.match as RegExpMatchArray;
      const run = yes ? runControl : confirmControl;
      await run(ctx, owner, action as 'reboot' | 'start', Number(id));
    }),
  );

  chat.callbackQuery(
    'cancel',
    linked(async (ctx, owner) => {
      await ctx.answerCallbackQuery();
      await edit(ctx, TEXTS[owner.language].control.cancelled);
    }),
  );

  chat.callbackQuery(
    /^alerts:(\d{1,15})$/,
    linked(async (ctx, owner) => {
      const t = TEXTS[owner.language];
      const switched = await repo.toggleAlerts(db, owner.userId, Number(ctx.match![1]));
      if (!switched) {
        await ctx.answerCallbackQuery({ text: t.gone });
        return;
      }
      await ctx.answerCallbackQuery();
      const list = await repo.accounts(db, owner.userId);
      await edit(
        ctx,
        `${t.alerts.switched(switched.name, switched.alertsEnabled)}\n\n${t.alerts.choose}`,
        alertButtons(owner.language, list),
      );
    }),
  );

  chat.callbackQuery(
    /^lang:(en|ru)$/,
    linked(async (ctx, owner) => {
      const language = ctx.match![1] as Language;
      await userRepository.setLanguage(db, owner.userId, language);
      await ctx.answerCallbackQuery();
      await edit(ctx, TEXTS[language].lang.set);
    }),
  );

  // a button of an older version, or pressed in a chat that is no longer linked
  chat.on(
    'callback_query',
    linked(async (ctx, owner) => {
      await ctx.answerCallbackQuery({ text: TEXTS[owner.language].gone });
    }),
  );

  // anything else said in private: the help (or how to link)
  chat.on(
    'message',
    async (ctx, next) => (ctx.chat.type === 'private' ? next() : undefined),
    linked((ctx, owner) => ctx.reply(TEXTS[owner.language].help(owner.purposes), html())),
  );
}

/** The command menu Telegram shows, per language (set at start-up). */
export function commandMenu(language: Language) {
  return COMMANDS.map((command) => ({
    command,
    description: TEXTS[language].commands[command],
  }));
}
