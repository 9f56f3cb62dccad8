import { and, asc, desc, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  monitoringAccounts,
  monitoringStatistics,
  telegramLinkTokens,
  vpsRates,
  vpsServers,
  type TelegramPurpose,
} from '../../db/schema/index.ts';
import { rateLabel } from '../../lib/vps-labels.ts';
import type { AccountLine, ServerLine } from './telegram.texts.ts';

/** A Telegram message holds 4096 characters: lists stop here (the console has the rest). */
const LIST_MAX = 25;

async function serverLines(
  db: Executor,
  where: SQL | undefined,
  withRevoked = false,
): Promise<ServerLine[]> {
  const rows = await db
    .select({
      id: vpsServers.id,
      name: vpsRates.name,
      location: vpsRates.location,
      status: vpsServers.status,
      power: vpsServers.power,
      paidUntil: vpsServers.paidUntil,
    })
    .from(vpsServers)
    .innerJoin(vpsRates, eq(vpsRates.id, vpsServers.rateId))
    .where(and(where, withRevoked ? undefined : ne(vpsServers.status, 'revoked')))
    .orderBy(desc(vpsServers.id))
    .limit(LIST_MAX);
  return rows.map(({ name, location, ...s }) => ({ ...s, rate: rateLabel({ name, location }) }));
}

/** The chat-bot's SQL: link tokens, and what the commands read and switch (the user's own only). */
export const telegramRepository = {
  /** A new deep-link token; the user's older unused ones for the purpose stop working. */
  async insertToken(
    tx: Executor,
    row: {
      tokenHash: string;
      userId: number;
      purpose: TelegramPurpose;
      createdAt: Date;
      expiresAt: Date;
    },
  ): Promise<void> {
    await tx
      .delete(telegramLinkTokens)
      .where(
        and(
          eq(telegramLinkTokens.userId, row.userId),
          eq(telegramLinkTokens.purpose, row.purpose),
          isNull(telegramLinkTokens.usedAt),
        ),
      );
    await tx.insert(telegramLinkTokens).values(row);
  },

  /**
   * Uses a token once: only an unused, unexpired token of one of `purposes` (the bot's) is
   * marked used, in one conditional UPDATE, so two chats racing with it cannot both win.
   */
  async consumeToken(
    tx: Executor,
    tokenHash: string,
    purposes: TelegramPurpose[],
    now: Date,
  ): Promise<{ userId: number; purpose: TelegramPurpose } | undefined> {
    const [row] = await tx
      .update(telegramLinkTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(telegramLinkTokens.tokenHash, tokenHash),
          isNull(telegramLinkTokens.usedAt),
          sql`${telegramLinkTokens.expiresAt} > ${now}`,
          inArray(telegramLinkTokens.purpose, purposes),
        ),
      )
      .returning({ userId: telegramLinkTokens.userId, purpose: telegramLinkTokens.purpose });
    return row;
  },

  async accounts(
    db: Executor,
    userId: number,
  ): Promise<(AccountLine & { id: number; alertsEnabled: boolean })[]> {
    return db
      .select({
        id: monitoringAccounts.id,
        name: monitoringAccounts.name,
        login: monitoringAccounts.login,
        gain: monitoringStatistics.gain,
        maxDrawdown: monitoringStatistics.maxDrawdown,
        lastDataAt: monitoringAccounts.lastDataAt,
        alertsEnabled: monitoringAccounts.alertsEnabled,
      })
      .from(monitoringAccounts)
      .leftJoin(monitoringStatistics, eq(monitoringStatistics.accountId, monitoringAccounts.id))
      .where(eq(monitoringAccounts.userId, userId))
      .orderBy(asc(monitoringAccounts.name), asc(monitoringAccounts.id))
      .limit(LIST_MAX);
  },

  /** Switches an account's alerts; undefined when it is not the user's. */
  async toggleAlerts(
    db: Executor,
    userId: number,
    accountId: number,
  ): Promise<{ name: string; alertsEnabled: boolean } | undefined> {
    const [row] = await db
      .update(monitoringAccounts)
      .set({ alertsEnabled: sql`not ${monitoringAccounts.alertsEnabled}` })
      .where(and(eq(monitoringAccounts.id, accountId), eq(monitoringAccounts.userId, userId)))
      .returning({
        name: monitoringAccounts.name,
        alertsEnabled: monitoringAccounts.alertsEnabled,
      });
    return row;
  },

  /** The user's servers, newest first; revoked ones are history and left out. */
  async servers(db: Executor, userId: number): Promise<ServerLine[]> {
    return serverLines(db, eq(vpsServers.userId, userId));
  },

  /** One of the user's servers (revoked ones too, so a refusal can name their state). */
  async server(db: Executor, userId: number, serverId: number): Promise<ServerLine | undefined> {
    const [row] = await serverLines(
      db,
      and(eq(vpsServers.userId, userId), eq(vpsServers.id, serverId)),
      true,
    );
    return row;
  },
};
