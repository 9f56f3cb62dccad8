import * as z from 'zod/mini';

/**
 * The chat-bot: a user links a private Telegram chat for each purpose, `account` (servers,
 * balance, payments) and `monitoring` (alerts and reports), by opening a one-time deep link.
 *
 * The User's `telegram_link` / `telegram_mon_link` are the bot's address (`https://t.me/<bot>`)
 * while a chat is linked for that purpose, else null: the console can open the chat with one tap.
 */

export const TELEGRAM_PURPOSES = ['account', 'monitoring'] as const;
export type TelegramPurpose = (typeof TELEGRAM_PURPOSES)[number];
export const telegramPurposeSchema = z.enum(TELEGRAM_PURPOSES, {
  error: 'TELEGRAM_PURPOSE_INVALID',
});

/** How long a deep link works. */
export const TELEGRAM_LINK_TTL_MINUTES = 15;

export const telegramLinkRequestSchema = z.object({ purpose: telegramPurposeSchema });
export type TelegramLinkRequest = z.infer<typeof telegramLinkRequestSchema>;

export const telegramPurposeParamsSchema = z.object({ purpose: telegramPurposeSchema });

/** `link`: https://t.me/<bot>?start=<one-time token>, working once until `expires_at`. */
export const telegramLinkResponseSchema = z.object({
  link: z.string(),
  expires_at: z.iso.datetime(),
});
export type TelegramLinkResponse = z.infer<typeof telegramLinkResponseSchema>;

/** One purpose: whether a chat is linked, its name (@username or the person's name), since when. */
export const telegramChatStatusSchema = z.object({
  linked: z.boolean(),
  title: z.nullable(z.string()),
  linked_at: z.nullable(z.iso.datetime()),
  /** The bot serving this purpose (https://t.me/<bot>), null while it cannot be reached. */
  bot_link: z.nullable(z.string()),
});
export type TelegramChatStatus = z.infer<typeof telegramChatStatusSchema>;

/** `enabled` false: no bot token is configured and the chat-bot is off. */
export const telegramStatusResponseSchema = z.object({
  enabled: z.boolean(),
  account: telegramChatStatusSchema,
  monitoring: telegramChatStatusSchema,
});
export type TelegramStatusResponse = z.infer<typeof telegramStatusResponseSchema>;
