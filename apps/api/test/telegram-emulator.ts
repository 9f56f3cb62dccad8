import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A Telegram Bot API server on loopback, for the tests, the browser journeys and local
 * development. It speaks the real protocol (`POST /bot<token>/<method>` with a JSON, form or
 * query-string body; `{ ok: true, result }` or `{ ok: false, error_code, description }`), keeps
 * what each bot sent to each chat, and plays the users: it delivers their messages, /start
 * payloads and button presses to the webhook the bot set (with the secret-token header), lets a
 * chat block the bot (403) and answers 429 with `retry_after` when told to.
 *
 * Beside the Bot API it serves a small control API under `/_emulator/` so a browser journey or a
 * developer can do the same over HTTP (see `control` below).
 *
 * Run it alone (local development; every well-formed token is accepted):
 *   node apps/api/test/telegram-emulator.ts [port]
 */

export type ChatType = 'private' | 'group' | 'supergroup' | 'channel';

/** A Telegram user writing from a chat (a private chat's id is the user's id). */
export interface EmulatedChat {
  id: number;
  type?: ChatType;
  username?: string;
  first_name?: string;
  last_name?: string;
  /** Groups and channels. */
  title?: string;
  /** The user's Telegram language (`from.language_code`). */
  language_code?: string;
}

export interface InlineButton {
  text: string;
  callback_data?: string;
  url?: string;
}

/** A message the bot sent to a chat, as it reads now (edits change it in place). */
export interface SentMessage {
  message_id: number;
  chat_id: number;
  /** The text as the user sees it: tags stripped, entities decoded. */
  text: string;
  /** What the bot sent, with its HTML when parse_mode was HTML. */
  raw: string;
  parse_mode: string | undefined;
  buttons: InlineButton[][];
  edits: number;
}

export interface ApiCall {
  token: string;
  method: string;
  params: Record<string, unknown>;
}

interface BotState {
  token: string;
  id: number;
  username: string;
  firstName: string;
  webhook: { url: string; secret_token: string | undefined } | undefined;
  /** setMyCommands per language code ('' for the default). */
  commands: Map<string, { command: string; description: string }[]>;
  nextUpdateId: number;
}

interface Failure {
  method: string | undefined;
  chatId: number | undefined;
  error_code: number;
  description: string;
  parameters?: Record<string, unknown>;
}

class ApiError extends Error {
  readonly errorCode: number;
  readonly description: string;
  readonly parameters: Record<string, unknown> | undefined;

  constructor(errorCode: number, description: string, parameters?: Record<string, unknown>) {
    super(description);
    this.errorCode = errorCode;
    this.description = description;
    this.parameters = parameters;
  }
}

const TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{1,100}$/;
/** Fields that a form body carries as JSON text. */
const JSON_FIELDS = new Set([
  'reply_markup',
  'commands',
  'scope',
  'allowed_updates',
  'link_preview_options',
  'entities',
  'reply_parameters',
]);
const HTML_TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'a',
  'code',
  'pre',
  'tg-spoiler',
  'span',
  'blockquote',
  'tg-emoji',
]);

/**
 * The text a user sees of a message in Telegram's HTML: tags checked (known, balanced) and
 * stripped, entities decoded. Telegram refuses what it cannot parse, and so does the emulator.
 */
export function parseTelegramHtml(html: string): string {
  const open: string[] = [];
  let text = '';
  const token = /<(\/?)([a-zA-Z-]+)((?:\s[^<>]*)?)>|&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);|[<>&]/g;
  let last = 0;
  for (const match of html.matchAll(token)) {
    text += html.slice(last, match.index);
    last = match.index + match[0].length;
    const [whole, closing, tag, , entity] = match;
    if (tag) {
      const name = tag.toLowerCase();
      if (!HTML_TAGS.has(name))
        throw new ApiError(
          400,
          `Bad Request: can't parse entities: unsupported start tag "${name}"`,
        );
      if (closing) {
        if (open.pop() !== name)
          throw new ApiError(400, `Bad Request: can't parse entities: unmatched end tag "${name}"`);
      } else open.push(name);
    } else if (entity) {
      const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };
      if (entity.startsWith('#x')) text += String.fromCodePoint(parseInt(entity.slice(2), 16));
      else if (entity.startsWith('#')) text += String.fromCodePoint(Number(entity.slice(1)));
      else if (named[entity]) text += named[entity];
      else throw new ApiError(400, `Bad Request: can't parse entities: unknown entity "${entity}"`);
    } else if (whole === '>') {
      text += '>';
    } else {
      throw new ApiError(400, `Bad Request: can't parse entities: unexpected "${whole}"`);
    }
  }
  if (open.length > 0)
    throw new ApiError(400, `Bad Request: can't parse entities: unclosed tag "${open.at(-1)}"`);
  return text + html.slice(last);
}

function checkKeyboard(markup: unknown): InlineButton[][] {
  if (markup === undefined || markup === null) return [];
  const rows = (markup as { inline_keyboard?: unknown }).inline_keyboard;
  if (!Array.isArray(rows)) throw new ApiError(400, 'Bad Request: inline keyboard expected');
  return rows.map((row) => {
    if (!Array.isArray(row)) throw new ApiError(400, 'Bad Request: inline keyboard expected');
    return row.map((button: InlineButton) => {
      if (typeof button?.text !== 'string' || button.text === '')
        throw new ApiError(400, 'Bad Request: text buttons are unallowed in the inline keyboard');
      const data = button.callback_data;
      if (data !== undefined && (Buffer.byteLength(data) < 1 || Buffer.byteLength(data) > 64))
        throw new ApiError(400, 'Bad Request: BUTTON_DATA_INVALID');
      if ((data === undefined) === (button.url === undefined))
        throw new ApiError(400, 'Bad Request: BUTTON_TYPE_INVALID');
      return {
        text: button.text,
        ...(data !== undefined ? { callback_data: data } : { url: button.url }),
      };
    });
  });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The method's parameters from the query string and a JSON or url-encoded form body. */
async function readParams(req: IncomingMessage, url: URL): Promise<Record<string, unknown>> {
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
  const type = req.headers['content-type'] ?? '';
  const body = await readBody(req);
  if (body === '') {
    // nothing more
  } else if (type.startsWith('application/json')) {
    Object.assign(params, JSON.parse(body));
  } else if (type.startsWith('application/x-www-form-urlencoded')) {
    Object.assign(params, Object.fromEntries(new URLSearchParams(body)));
  } else {
    throw new ApiError(400, 'Bad Request: the emulator takes JSON and url-encoded bodies only');
  }
  for (const key of JSON_FIELDS) {
    if (typeof params[key] === 'string') params[key] = JSON.parse(params[key] as string);
  }
  return params;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface TelegramEmulatorOptions {
  port?: number;
  /** Accept every well-formed token as a bot of its own (local development). */
  acceptAnyToken?: boolean;
}

export class TelegramEmulator {
  /** Every Bot API call, in order. */
  readonly calls: ApiCall[] = [];
  /** The button presses the bot answered: callback id -> the text it showed. */
  readonly callbackAnswers = new Map<string, string | undefined>();
  private readonly bots = new Map<string, BotState>();
  private readonly chats = new Map<number, EmulatedChat>();
  private readonly messages = new Map<number, SentMessage[]>();
  private readonly blocked = new Set<number>();
  private readonly failures: (Failure & { times: number })[] = [];
  private nextMessageId = 1;
  private nextCallbackId = 1;
  private server: Server | undefined;
  /** The API root to give the bot (`TELEGRAM_API_ROOT`). */
  url = '';

  private readonly options: TelegramEmulatorOptions;

  constructor(options: TelegramEmulatorOptions = {}) {
    this.options = options;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) =>
      this.server!.listen(this.options.port ?? 0, '127.0.0.1', resolve),
    );
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      if (!this.server) return resolve();
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }

  /** A bot this server knows (Telegram answers 401 to any other token). */
  addBot(token: string, username: string, firstName = username): this {
    if (!TOKEN.test(token)) throw new Error(`not a bot token: ${token}`);
    this.bots.set(token, {
      token,
      id: Number(token.split(':')[0]),
      username,
      firstName,
      webhook: undefined,
      commands: new Map(),
      nextUpdateId: 1,
    });
    return this;
  }

  /** The webhook a bot set, and its commands per language ('' for the default list). */
  bot(token: string) {
    const bot = this.bots.get(token);
    if (!bot) throw new Error(`unknown bot ${token}`);
    return { username: bot.username, webhook: bot.webhook, commands: bot.commands };
  }

  /** What the bot has sent to a chat, oldest first (as the messages read now). */
  sent(chatId: number): SentMessage[] {
    return this.messages.get(chatId) ?? [];
  }

  /** The newest message the bot sent to a chat. */
  last(chatId: number): SentMessage | undefined {
    return this.sent(chatId).at(-1);
  }

  /** The chat blocks the bot (sending to it answers 403) or unblocks it. */
  block(chatId: number, blocked = true): void {
    if (blocked) this.blocked.add(chatId);
    else this.blocked.delete(chatId);
  }

  /**
   * The next `times` calls (of `method`, to `chatId` when given) fail as Telegram would; by
   * default a flood wait: 429 with `retry_after` seconds.
   */
  failNext(
    options: {
      method?: string;
      chatId?: number;
      times?: number;
      retryAfter?: number;
      error_code?: number;
      description?: string;
    } = {},
  ): void {
    const retryAfter = options.retryAfter ?? 1;
    const code = options.error_code ?? 429;
    this.failures.push({
      method: options.method,
      chatId: options.chatId,
      times: options.times ?? 1,
      error_code: code,
      description: options.description ?? `Too Many Requests: retry after ${retryAfter}`,
      ...(code === 429 ? { parameters: { retry_after: retryAfter } } : {}),
    });
  }

  /** The user has opened a chat with the bot (the bot may send to it) without writing yet. */
  openChat(chat: EmulatedChat): void {
    this.chats.set(chat.id, chat);
  }

  /** The user writes `text` in the chat (a /command gets its bot_command entity). */
  say(chat: EmulatedChat, text: string, token?: string): Promise<number> {
    this.chats.set(chat.id, chat);
    const command = /^\/[A-Za-z0-9_]+(@\w+)?/.exec(text);
    return this.deliver(token, {
      message: {
        message_id: this.nextMessageId++,
        date: Math.floor(Date.now() / 1000),
        chat: this.chatOf(chat),
        from: this.userOf(chat),
        text,
        ...(command
          ? { entities: [{ type: 'bot_command', offset: 0, length: command[0].length }] }
          : {}),
      },
    });
  }

  /** The user presses the button with `data` under the bot's message. */
  press(chat: EmulatedChat, message: SentMessage, data: string, token?: string): Promise<number> {
    const id = String(this.nextCallbackId++);
    this.callbackAnswers.set(id, undefined);
    return this.deliver(token, {
      callback_query: {
        id,
        from: this.userOf(chat),
        chat_instance: String(chat.id),
        message: {
          message_id: message.message_id,
          date: Math.floor(Date.now() / 1000),
          chat: this.chatOf(chat),
          text: message.text,
        },
        data,
      },
    });
  }

  /** The button (by its text) under the newest message that has it, pressed. */
  async pressButton(chat: EmulatedChat, text: string, token?: string): Promise<number> {
    const message = [...this.sent(chat.id)]
      .reverse()
      .find((m) => m.buttons.flat().some((b) => b.text === text));
    const button = message?.buttons.flat().find((b) => b.text === text);
    if (!message || button?.callback_data === undefined)
      throw new Error(`no button "${text}" in chat ${chat.id}`);
    return this.press(chat, message, button.callback_data, token);
  }

  private chatOf(chat: EmulatedChat) {
    const type = chat.type ?? 'private';
    return type === 'private'
      ? {
          id: chat.id,
          type,
          first_name: chat.first_name ?? 'Trader',
          ...(chat.last_name ? { last_name: chat.last_name } : {}),
          ...(chat.username ? { username: chat.username } : {}),
        }
      : { id: chat.id, type, title: chat.title ?? 'A group' };
  }

  private userOf(chat: EmulatedChat) {
    return {
      id: chat.type && chat.type !== 'private' ? 1_000_000 + this.nextMessageId : chat.id,
      is_bot: false,
      first_name: chat.first_name ?? 'Trader',
      ...(chat.last_name ? { last_name: chat.last_name } : {}),
      ...(chat.username ? { username: chat.username } : {}),
      language_code: chat.language_code ?? 'en',
    };
  }

  /** Posts an update to the bot's webhook and answers the webhook's HTTP status. */
  private async deliver(
    token: string | undefined,
    update: Record<string, unknown>,
  ): Promise<number> {
    const bot = token ? this.bots.get(token) : this.bots.values().next().value;
    if (!bot) throw new Error('no such bot');
    if (!bot.webhook) throw new Error(`bot @${bot.username} has set no webhook`);
    const response = await fetch(bot.webhook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(bot.webhook.secret_token
          ? { 'x-telegram-bot-api-secret-token': bot.webhook.secret_token }
          : {}),
      },
      body: JSON.stringify({ update_id: bot.nextUpdateId++, ...update }),
    });
    await response.arrayBuffer();
    return response.status;
  }

  /** Points a bot's webhook somewhere else (a test app listening on a port of its own). */
  redirectWebhook(token: string, url: string): void {
    const bot = this.bots.get(token);
    if (!bot) throw new Error(`unknown bot ${token}`);
    bot.webhook = { url, secret_token: bot.webhook?.secret_token };
  }

  private botFor(token: string): BotState {
    const bot = this.bots.get(token);
    if (bot) return bot;
    if (this.options.acceptAnyToken && TOKEN.test(token)) {
      this.addBot(token, `emulated_${token.split(':')[0]}_bot`);
      return this.bots.get(token)!;
    }
    throw new ApiError(401, 'Unauthorized');
  }

  private takeFailure(method: string, chatId: number | undefined): Failure | undefined {
    const index = this.failures.findIndex(
      (f) =>
        (f.method === undefined || f.method === method) &&
        (f.chatId === undefined || f.chatId === chatId),
    );
    if (index < 0) return undefined;
    const failure = this.failures[index]!;
    failure.times -= 1;
    if (failure.times <= 0) this.failures.splice(index, 1);
    return failure;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    try {
      if (url.pathname.startsWith('/_emulator/')) {
        answer(200, await this.control(req, url));
        return;
      }
      const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
      if (!match) throw new ApiError(404, 'Not Found');
      const [, token = '', method = ''] = match;
      const params = await readParams(req, url);
      const bot = this.botFor(token);
      this.calls.push({ token, method, params });
      const chatId = params.chat_id === undefined ? undefined : Number(params.chat_id);
      const failure = this.takeFailure(method, chatId);
      if (failure) throw new ApiError(failure.error_code, failure.description, failure.parameters);
      answer(200, { ok: true, result: this.call(bot, method, params) });
    } catch (error) {
      if (error instanceof ApiError) {
        answer(error.errorCode, {
          ok: false,
          error_code: error.errorCode,
          description: error.description,
          ...(error.parameters ? { parameters: error.parameters } : {}),
        });
      } else {
        answer(400, { ok: false, error_code: 400, description: `Bad Request: ${String(error)}` });
      }
    }
  }

  /** One Bot API method. */
  private call(bot: BotState, method: string, params: Record<string, unknown>): unknown {
    switch (method) {
      case 'getMe':
        return {
          id: bot.id,
          is_bot: true,
          first_name: bot.firstName,
          username: bot.username,
          can_join_groups: true,
          can_read_all_group_messages: false,
          supports_inline_queries: false,
        };
      case 'setWebhook': {
        const secret = params.secret_token as string | undefined;
        if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secret))
          throw new ApiError(400, 'Bad Request: secret token contains unallowed characters');
        if (typeof params.url !== 'string') throw new ApiError(400, 'Bad Request: bad webhook');
        bot.webhook = params.url ? { url: params.url, secret_token: secret } : undefined;
        return true;
      }
      case 'deleteWebhook':
        bot.webhook = undefined;
        return true;
      case 'getWebhookInfo':
        return {
          url: bot.webhook?.url ?? '',
          has_custom_certificate: false,
          pending_update_count: 0,
        };
      case 'setMyCommands': {
        const commands = params.commands as { command: string; description: string }[];
        if (
          !Array.isArray(commands) ||
          commands.some(
            (c) =>
              !/^[a-z0-9_]{1,32}$/.test(c.command) || !c.description || c.description.length > 256,
          )
        )
          throw new ApiError(400, 'Bad Request: BOT_COMMAND_INVALID');
        bot.commands.set(String(params.language_code ?? ''), commands);
        return true;
      }
      case 'getMyCommands':
        return bot.commands.get(String(params.language_code ?? '')) ?? [];
      case 'deleteMyCommands':
        bot.commands.delete(String(params.language_code ?? ''));
        return true;
      case 'sendMessage':
        return this.sendMessage(bot, params);
      case 'editMessageText':
        return this.editMessage(bot, params, true);
      case 'editMessageReplyMarkup':
        return this.editMessage(bot, params, false);
      case 'answerCallbackQuery': {
        const id = String(params.callback_query_id);
        if (!this.callbackAnswers.has(id))
          throw new ApiError(
            400,
            'Bad Request: query is too old and response timeout expired or query ID is invalid',
          );
        this.callbackAnswers.set(id, params.text as string | undefined);
        return true;
      }
      case 'sendChatAction':
      case 'deleteMessage':
        return true;
      default:
        throw new ApiError(404, 'Not Found');
    }
  }

  private chatFor(params: Record<string, unknown>): number {
    const chatId = Number(params.chat_id);
    if (!Number.isSafeInteger(chatId) || !this.chats.has(chatId))
      throw new ApiError(400, 'Bad Request: chat not found');
    if (this.blocked.has(chatId)) throw new ApiError(403, 'Forbidden: bot was blocked by the user');
    return chatId;
  }

  private render(params: Record<string, unknown>) {
    const raw = params.text;
    if (typeof raw !== 'string' || raw.trim() === '')
      throw new ApiError(400, 'Bad Request: message text is empty');
    const parseMode = params.parse_mode as string | undefined;
    const text = parseMode === 'HTML' ? parseTelegramHtml(raw) : raw;
    if (text.length > 4096) throw new ApiError(400, 'Bad Request: message is too long');
    return { raw, text, parse_mode: parseMode };
  }

  private asMessage(bot: BotState, message: SentMessage) {
    const chat = this.chats.get(message.chat_id)!;
    return {
      message_id: message.message_id,
      date: Math.floor(Date.now() / 1000),
      chat: this.chatOf(chat),
      from: { id: bot.id, is_bot: true, first_name: bot.firstName, username: bot.username },
      text: message.text,
      ...(message.buttons.length > 0 ? { reply_markup: { inline_keyboard: message.buttons } } : {}),
      ...(message.edits > 0 ? { edit_date: Math.floor(Date.now() / 1000) } : {}),
    };
  }

  private sendMessage(bot: BotState, params: Record<string, unknown>) {
    const chatId = this.chatFor(params);
    const message: SentMessage = {
      message_id: this.nextMessageId++,
      chat_id: chatId,
      ...this.render(params),
      buttons: checkKeyboard(params.reply_markup),
      edits: 0,
    };
    const list = this.messages.get(chatId) ?? [];
    list.push(message);
    this.messages.set(chatId, list);
    return this.asMessage(bot, message);
  }

  private editMessage(bot: BotState, params: Record<string, unknown>, withText: boolean) {
    const chatId = this.chatFor(params);
    const message = this.sent(chatId).find((m) => m.message_id === Number(params.message_id));
    if (!message) throw new ApiError(400, 'Bad Request: message to edit not found');
    const rendered = withText ? this.render(params) : message;
    const buttons = checkKeyboard(params.reply_markup);
    if (rendered.raw === message.raw && JSON.stringify(buttons) === JSON.stringify(message.buttons))
      throw new ApiError(
        400,
        'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
      );
    Object.assign(message, {
      raw: rendered.raw,
      text: rendered.text,
      parse_mode: rendered.parse_mode,
      buttons,
      edits: message.edits + 1,
    });
    return this.asMessage(bot, message);
  }

  /**
   * The control API (JSON in, JSON out):
   * - GET  /_emulator/bots                      the bots, their webhooks and commands
   * - GET  /_emulator/chats/<id>/messages       what the bot sent to the chat
   * - POST /_emulator/chats/<id>/say    {text, chat?: EmulatedChat fields, token?}
   * - POST /_emulator/chats/<id>/press  {button: its text, token?}
   * - POST /_emulator/chats/<id>/block  {blocked: boolean}
   */
  private async control(req: IncomingMessage, url: URL): Promise<unknown> {
    const body = req.method === 'POST' ? await readBody(req) : '';
    const input = body ? (JSON.parse(body) as Record<string, unknown>) : {};
    if (url.pathname === '/_emulator/bots') {
      return [...this.bots.values()].map((b) => ({
        username: b.username,
        webhook: b.webhook?.url ?? null,
        commands: Object.fromEntries(b.commands),
      }));
    }
    const match = /^\/_emulator\/chats\/(-?\d+)\/(messages|say|press|block)$/.exec(url.pathname);
    if (!match) throw new ApiError(404, 'Not Found');
    const chatId = Number(match[1]);
    const chat: EmulatedChat = {
      ...this.chats.get(chatId),
      ...(input.chat as EmulatedChat | undefined),
      id: chatId,
    };
    const token = input.token as string | undefined;
    switch (match[2]) {
      case 'messages':
        return this.sent(chatId);
      case 'say':
        return { status: await this.say(chat, String(input.text ?? ''), token) };
      case 'press':
        return { status: await this.pressButton(chat, String(input.button ?? ''), token) };
      default:
        this.block(chatId, input.blocked !== false);
        return { blocked: this.blocked.has(chatId) };
    }
  }

  /** Waits until `check` holds (messages sent by a background job arrive later). */
  async waitFor<T>(check: () => T | undefined | false, timeoutMs = 5000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = check();
      if (value) return value;
      if (Date.now() > deadline) throw new Error('the emulator waited in vain');
      await sleep(20);
    }
  }
}

export async function startTelegramEmulator(
  options: TelegramEmulatorOptions = {},
): Promise<TelegramEmulator> {
  return new TelegramEmulator(options).start();
}

// `node apps/api/test/telegram-emulator.ts [port]`: the emulator for local development
if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.argv[2] ?? 8081);
  const emulator = await startTelegramEmulator({ port, acceptAnyToken: true });
  console.log(
    `Telegram emulator on ${emulator.url}: start the API with TELEGRAM_API_ROOT=${emulator.url} and` +
      ' any token such as TELEGRAM_BOT_TOKEN=1000:dev. Then, as a user with chat id 42:\n' +
      `  curl -X POST ${emulator.url}/_emulator/chats/42/say -d '{"text":"/help"}'\n` +
      `  curl ${emulator.url}/_emulator/chats/42/messages`,
  );
}
