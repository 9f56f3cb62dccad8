import type { TelegramPurpose } from '../../db/schema/telegram.ts';

export type { TelegramPurpose };

/** A button under a message: a callback the bot answers (`data`, at most 64 bytes) or a link. */
export type TelegramButton = { text: string; data: string } | { text: string; url: string };

/** A message to a user's linked chat: HTML parse mode (escape with lib/html.ts), rows of buttons. */
export interface TelegramMessage {
  html: string;
  buttons?: TelegramButton[][];
}

/**
 * What a delivery came to: sent; the user has no chat linked for the purpose; the feature is off
 * (no bot token); the chat blocked the bot (the link is removed). A transport failure throws, so
 * a pg-boss job retries it.
 */
export type TelegramDelivery = 'sent' | 'not-linked' | 'off' | 'blocked';

/** Sends to the chat a user linked for a purpose, within Telegram's rate limits. */
export interface TelegramOutbox {
  readonly enabled: boolean;
  sendToUser(
    userId: number,
    purpose: TelegramPurpose,
    message: TelegramMessage,
  ): Promise<TelegramDelivery>;
}
