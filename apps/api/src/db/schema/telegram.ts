import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';
import { userRef } from './users.ts';

/**
 * The chat-bot. A user links a private Telegram chat for each purpose: `account` (servers,
 * balance, tickets) and `monitoring` (alerts and reports; the second bot when it is configured,
 * else the same bot). A chat serves one user per purpose.
 */
export type TelegramPurpose = 'account' | 'monitoring';

export const telegramChats = pgTable(
  'telegram_chats',
  {
    userId: userRef('user_id'),
    purpose: text('purpose').$type<TelegramPurpose>().notNull(),
    chatId: bigint('chat_id', { mode: 'number' }).notNull(),
    /** What the console shows of the linked chat: @username, else the first and last name. */
    title: text('title').notNull(),
    linkedAt: timestamptz('linked_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.purpose] }),
    uniqueIndex('telegram_chats_purpose_chat_key').on(t.purpose, t.chatId),
    check('telegram_chats_purpose_check', sql`${t.purpose} in ('account', 'monitoring')`),
  ],
);

/** One-time deep-link tokens (`/start <token>`): only the sha256 is kept; 15 minutes; used once. */
export const telegramLinkTokens = pgTable(
  'telegram_link_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: userRef('user_id'),
    purpose: text('purpose').$type<TelegramPurpose>().notNull(),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
  },
  (t) => [
    index('telegram_link_tokens_user_id_idx').on(t.userId),
    check('telegram_link_tokens_purpose_check', sql`${t.purpose} in ('account', 'monitoring')`),
  ],
);

export type TelegramChatRow = typeof telegramChats.$inferSelect;
