import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from './client.ts';
import { telegramChats, users, type TelegramPurpose } from './schema/index.ts';

/**
 * The chats users linked to the bot, one per user and purpose, one user per chat and purpose.
 * The users row mirrors each link in `telegram_link` / `telegram_mon_link` (the bot's address
 * while a chat is linked, else null), written here in the same statement set as the link, so the
 * two never disagree. Used by the chat-bot module and by the outbox (integrations/telegram).
 */

export interface LinkedChat {
  userId: number;
  purpose: TelegramPurpose;
  chatId: number;
  title: string;
  linkedAt: Date;
}

async function setMirror(
  tx: Executor,
  purpose: TelegramPurpose,
  userIds: number[],
  botLink: string | null,
) {
  if (userIds.length === 0) return;
  await tx
    .update(users)
    .set(purpose === 'account' ? { telegramLink: botLink } : { telegramMonLink: botLink })
    .where(inArray(users.id, userIds));
}

export const telegramChatsRepository = {
  async ofUser(db: Executor, userId: number): Promise<LinkedChat[]> {
    return db.select().from(telegramChats).where(eq(telegramChats.userId, userId));
  },

  async ofUserFor(
    db: Executor,
    userId: number,
    purpose: TelegramPurpose,
  ): Promise<LinkedChat | undefined> {
    const [row] = await db
      .select()
      .from(telegramChats)
      .where(and(eq(telegramChats.userId, userId), eq(telegramChats.purpose, purpose)));
    return row;
  },

  /** The links a chat holds among `purposes` (a bot's), in the order of `purposes`. */
  async ofChat(db: Executor, chatId: number, purposes: TelegramPurpose[]): Promise<LinkedChat[]> {
    const rows = await db
      .select()
      .from(telegramChats)
      .where(and(eq(telegramChats.chatId, chatId), inArray(telegramChats.purpose, purposes)));
    return purposes.flatMap((p) => rows.filter((r) => r.purpose === p));
  },

  /**
   * Links `chatId` to the user for `purpose`, replacing the user's older chat for it. A chat
   * linked to another user for the purpose is moved: that user's link ends (`movedFrom`).
   */
  async link(
    tx: Executor,
    input: Omit<LinkedChat, 'linkedAt'> & { linkedAt: Date; botLink: string },
  ): Promise<{ movedFrom: number | null }> {
    const { userId, purpose, chatId } = input;
    const removed = await tx
      .delete(telegramChats)
      .where(
        and(
          eq(telegramChats.purpose, purpose),
          sql`(${telegramChats.userId} = ${userId} or ${telegramChats.chatId} = ${chatId})`,
        ),
      )
      .returning({ userId: telegramChats.userId });
    const others = removed.map((r) => r.userId).filter((id) => id !== userId);
    await tx.insert(telegramChats).values({
      userId,
      purpose,
      chatId,
      title: input.title,
      linkedAt: input.linkedAt,
    });
    await setMirror(tx, purpose, others, null);
    await setMirror(tx, purpose, [userId], input.botLink);
    return { movedFrom: others[0] ?? null };
  },

  /** Ends the links that match (a user's for a purpose, or a chat's); the links ended. */
  async unlink(
    tx: Executor,
    match: { purposes: TelegramPurpose[] } & ({ userId: number } | { chatId: number }),
  ): Promise<LinkedChat[]> {
    const removed = await tx
      .delete(telegramChats)
      .where(
        and(
          inArray(telegramChats.purpose, match.purposes),
          'userId' in match
            ? eq(telegramChats.userId, match.userId)
            : eq(telegramChats.chatId, match.chatId),
        ),
      )
      .returning();
    for (const purpose of match.purposes) {
      const ids = removed.filter((r) => r.purpose === purpose).map((r) => r.userId);
      await setMirror(tx, purpose, ids, null);
    }
    return removed;
  },
};
