import type { FastifyBaseLogger } from 'fastify';
import { GrammyError } from 'grammy';
import type { InlineKeyboardButton } from 'grammy/types';
import type { Db } from '../../db/client.ts';
import { telegramChatsRepository as chats } from '../../db/telegram-chats.ts';
import type { TelegramBots } from './bots.ts';
import type { TelegramButton, TelegramMessage, TelegramOutbox } from './port.ts';
import { createThrottle, type Throttle } from './throttle.ts';

export interface OutboxDeps {
  db: Db;
  bots: TelegramBots;
  log: FastifyBaseLogger;
  /** Replaces Telegram's limits (tests). */
  throttle?: Throttle;
}

/** A 403 from sendMessage: the user blocked the bot, left, or deleted the account. */
export const isBlocked = (error: unknown) =>
  error instanceof GrammyError && error.error_code === 403;

export function inlineKeyboard(buttons: TelegramButton[][] | undefined) {
  if (!buttons || buttons.length === 0) return undefined;
  return {
    inline_keyboard: buttons.map((row) =>
      row.map((b): InlineKeyboardButton =>
        'data' in b ? { text: b.text, callback_data: b.data } : { text: b.text, url: b.url },
      ),
    ),
  };
}

/**
 * The port's implementation: a message to the chat a user linked for a purpose, through the bot
 * serving that purpose, within Telegram's limits (throttle.ts, and 429's retry_after in bots.ts).
 * A chat that blocked the bot is unlinked ('blocked'); any other failure throws for the caller's
 * job to retry.
 */
export function createTelegramOutbox(deps: OutboxDeps): TelegramOutbox {
  const { db, bots, log } = deps;
  const throttle = deps.throttle ?? createThrottle();
  return {
    enabled: bots.enabled,
    async sendToUser(userId, purpose, message: TelegramMessage) {
      const client = bots.forPurpose(purpose);
      if (!client) return 'off';
      const chat = await chats.ofUserFor(db, userId, purpose);
      if (!chat) return 'not-linked';
      await throttle.take(chat.chatId);
      try {
        const keyboard = inlineKeyboard(message.buttons);
        await client.bot.api.sendMessage(chat.chatId, message.html, {
          parse_mode: 'HTML',
          link_preview_options: { is_disabled: true },
          ...(keyboard ? { reply_markup: keyboard } : {}),
        });
        return 'sent';
      } catch (error) {
        if (!isBlocked(error)) throw error;
        // the bot can reach the chat for none of the purposes it serves there
        await chats.unlink(db, { purposes: client.purposes, chatId: chat.chatId });
        log.info({ userId, purpose }, 'a Telegram chat blocked the bot and was unlinked');
        return 'blocked';
      }
    },
  };
}
