import {
  SUCCESS_MESSAGES,
  TELEGRAM_LINK_TTL_MINUTES,
  TELEGRAM_PURPOSES,
  type MessageResponse,
  type TelegramChatStatus,
  type TelegramLinkResponse,
  type TelegramPurpose,
  type TelegramStatusResponse,
} from '@tradehost/contracts';
import { telegramChatsRepository as chats } from '../../db/telegram-chats.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { TelegramBots } from '../../integrations/telegram/bots.ts';
import { AppError } from '../../lib/errors.ts';
import { randomToken, sha256Hex } from '../../lib/secrets.ts';
import type { ServiceDeps } from '../deps.ts';
import { userRepository } from '../../db/users.ts';
import { telegramRepository as repo } from './telegram.repository.ts';

export type TelegramService = ReturnType<typeof createTelegramService>;

/**
 * The console's side of the chat-bot: the status per purpose, the one-time deep link that links
 * a chat (the bot's /start consumes it: telegram.bot.ts), and unlinking.
 */
export function createTelegramService(deps: ServiceDeps & { bots: TelegramBots }) {
  const { db, now, bots, log } = deps;

  return {
    async status(userId: number): Promise<TelegramStatusResponse> {
      const [linked, user] = await Promise.all([
        chats.ofUser(db, userId),
        userRepository.findById(db, userId),
      ]);
      const of = (purpose: TelegramPurpose): TelegramChatStatus => {
        const chat = linked.find((c) => c.purpose === purpose);
        return {
          linked: chat !== undefined,
          title: chat?.title ?? null,
          linked_at: chat?.linkedAt.toISOString() ?? null,
          bot_link: chat
            ? ((purpose === 'account' ? user?.telegramLink : user?.telegramMonLink) ?? null)
            : null,
        };
      };
      const [account, monitoring] = TELEGRAM_PURPOSES.map(of) as [
        TelegramChatStatus,
        TelegramChatStatus,
      ];
      return { enabled: bots.enabled, account, monitoring };
    },

    /** A deep link to the bot that serves the purpose, good once for TELEGRAM_LINK_TTL_MINUTES. */
    async createLink(userId: number, purpose: TelegramPurpose): Promise<TelegramLinkResponse> {
      const client = bots.forPurpose(purpose);
      if (!client) throw new AppError(409, 'TELEGRAM_OFF');
      let username: string;
      try {
        ({ username } = await client.info());
      } catch (error) {
        log.warn({ err: error }, 'Telegram getMe failed');
        throw new AppError(503, 'TELEGRAM_UNAVAILABLE');
      }
      const token = randomToken();
      const createdAt = now();
      const expiresAt = new Date(createdAt.getTime() + TELEGRAM_LINK_TTL_MINUTES * 60_000);
      await inTransaction(db, (tx) =>
        repo.insertToken(tx, {
          tokenHash: sha256Hex(token),
          userId,
          purpose,
          createdAt,
          expiresAt,
        }),
      );
      return {
        link: `https://t.me/${username}?start=${token}`,
        expires_at: expiresAt.toISOString(),
      };
    },

    async unlink(userId: number, purpose: TelegramPurpose): Promise<MessageResponse> {
      const removed = await inTransaction(db, (tx) =>
        chats.unlink(tx, { purposes: [purpose], userId }),
      );
      if (removed.length === 0) throw new AppError(404, 'TELEGRAM_NOT_LINKED');
      return { message: SUCCESS_MESSAGES.TELEGRAM_UNLINKED, code: 'TELEGRAM_UNLINKED' };
    },
  };
}
