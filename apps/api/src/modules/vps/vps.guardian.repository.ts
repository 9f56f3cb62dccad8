import type {
  GuardianAction,
  GuardianCause,
  GuardianPolicy,
  GuardianStatus,
  Language,
  Platform,
} from '@tradehost/contracts';
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { publishesFrom } from '../../db/publishers.ts';
import { vpsGuardianIncidents } from '../../db/schema/index.ts';

export type IncidentRow = typeof vpsGuardianIncidents.$inferSelect;

/** A silent-terminal alert as the guardian takes it up: the account, and the servers it names. */
export interface SilentAlert {
  eventId: number;
  accountId: number;
  userId: number;
  accountName: string;
  login: number;
  platform: Platform;
  silentSince: Date;
  serverIds: number[];
}

/** An account's terminal as its latest data showed it. */
export interface TerminalState {
  lastDataAt: Date | null;
  terminalConnected: boolean;
  /**
   * Algo trading as the last snapshot told it (the terminal's button and the program's own
   * switch); null from a publisher before 1.3.
   */
  tradeAllowed: boolean | null;
  positions: number;
}

/** A server the guardian may act on, with its owner's policy and where to tell them. */
export interface GuardedServer {
  id: number;
  userId: number;
  machineId: string;
  policy: GuardianPolicy;
  rebootAfterMinutes: number;
  rebootWithPositions: boolean;
  ownerEmail: string;
  ownerName: string;
  language: Language;
}

const date = (value: string | Date | null) => (value === null ? null : new Date(value));

/** A terminal that published from a server within a day before the silence is expected there. */
const TERMINALS_RECENT_MS = 24 * 60 * 60_000;

/**
 * The guardian's reads and writes. It reads the monitoring tables through the shared schema (the
 * alert, the account's latest state) and keeps its incidents in vps_guardian_incidents.
 */
export const guardianRepository = {
  /** A silent-terminal alert that names servers; undefined for any other event. */
  async silentAlert(db: Executor, eventId: number): Promise<SilentAlert | undefined> {
    const { rows } = await db.execute<{
      account_id: string;
      user_id: string;
      name: string;
      login: string;
      platform: Platform;
      last_data_at: string | null;
      servers: { id: number }[] | null;
    }>(sql`
      select e.account_id, a.user_id, a.name, a.login, a.platform,
             e.details->>'last_data_at' as last_data_at, e.details->'servers' as servers
        from monitoring_alert_events e join monitoring_accounts a on a.id = e.account_id
       where e.id = ${eventId} and e.kind = 'no_data'`);
    const row = rows[0];
    if (!row?.last_data_at || !row.servers?.length) return undefined;
    return {
      eventId,
      accountId: Number(row.account_id),
      userId: Number(row.user_id),
      accountName: row.name,
      login: Number(row.login),
      platform: row.platform,
      silentSince: new Date(row.last_data_at),
      serverIds: row.servers.map((s) => Number(s.id)),
    };
  },

  /**
   * The account an incident is about, as its message names it, and how many servers its alert
   * named (0 without one: several means one address, so a reboot might hit the wrong server).
   */
  async incidentAccount(
    db: Executor,
    accountId: number,
    alertEventId: number | null,
  ): Promise<
    | (Pick<SilentAlert, 'userId' | 'accountName' | 'login' | 'platform'> & {
        serversNamed: number;
      })
    | undefined
  > {
    const { rows } = await db.execute<{
      user_id: string;
      name: string;
      login: string;
      platform: Platform;
      servers_named: number | null;
    }>(sql`
      select a.user_id, a.name, a.login, a.platform,
             (select jsonb_array_length(e.details->'servers')
                from monitoring_alert_events e
               where e.id = ${alertEventId} and e.kind = 'no_data'
                 and e.details->>'last_data_at' is not null
                 and jsonb_typeof(e.details->'servers') = 'array') as servers_named
        from monitoring_accounts a where a.id = ${accountId}`);
    const row = rows[0];
    if (!row) return undefined;
    return {
      userId: Number(row.user_id),
      accountName: row.name,
      login: Number(row.login),
      platform: row.platform,
      serversNamed: row.servers_named ?? 0,
    };
  },

  /**
   * Where the guardian's message goes: the alert's own channels (details.guardian, written when
   * monitoring handed it over) and the account's alert address.
   */
  async channels(
    db: Executor,
    eventId: number | null,
  ): Promise<{ email: string | null; telegram: boolean }> {
    if (eventId === null) return { email: null, telegram: false };
    const { rows } = await db.execute<{ email: string; by_email: boolean; by_telegram: boolean }>(
      sql`
      select a.email, coalesce((e.details->'guardian'->>'email')::boolean, false) as by_email,
             coalesce((e.details->'guardian'->>'telegram')::boolean, false) as by_telegram
        from monitoring_alert_events e join monitoring_accounts a on a.id = e.account_id
       where e.id = ${eventId}`,
    );
    const row = rows[0];
    return { email: row?.by_email ? row.email : null, telegram: row?.by_telegram ?? false };
  },

  async terminal(db: Executor, accountId: number): Promise<TerminalState | undefined> {
    const { rows } = await db.execute<{
      last_data_at: string | Date | null;
      terminal_connected: boolean;
      trade_allowed: boolean | null;
      positions: number;
    }>(sql`
      select last_data_at, terminal_connected, jsonb_array_length(positions) as positions,
             case when trade_allowed is null and ea_trade_allowed is null then null
                  else coalesce(trade_allowed, true) and coalesce(ea_trade_allowed, true)
             end as trade_allowed
        from monitoring_accounts where id = ${accountId}`);
    const row = rows[0];
    if (!row) return undefined;
    return {
      lastDataAt: date(row.last_data_at),
      terminalConnected: row.terminal_connected,
      tradeAllowed: row.trade_allowed,
      positions: Number(row.positions),
    };
  },

  /**
   * How many of the owner's terminals of the platform publish from the server: the accounts whose
   * last data came from its address within TERMINALS_RECENT_MS before `silentSince` or after (a
   * terminal removed long ago, its account left behind, is not expected to run). At least 1: the
   * silent one.
   */
  async terminalsAt(
    db: Executor,
    serverId: number,
    platform: Platform,
    silentSince: Date,
  ): Promise<number> {
    const since = new Date(silentSince.getTime() - TERMINALS_RECENT_MS).toISOString();
    const { rows } = await db.execute<{ n: number }>(sql`
      select count(*)::int as n
        from vps_servers join monitoring_accounts on ${publishesFrom()}
       where vps_servers.id = ${serverId} and monitoring_accounts.platform = ${platform}
         and monitoring_accounts.last_data_at >= ${since}`);
    return Math.max(1, rows[0]?.n ?? 0);
  },

  /** The owner's active server with a machine, as the guardian acts on it. */
  async server(db: Executor, serverId: number, userId: number): Promise<GuardedServer | undefined> {
    const { rows } = await db.execute<{
      id: string;
      user_id: string;
      machine_id: string;
      guardian_policy: GuardianPolicy;
      guardian_reboot_after_minutes: number;
      guardian_reboot_with_positions: boolean;
      email: string;
      name: string;
      language: Language;
    }>(sql`
      select s.id, s.user_id, s.machine_id, s.guardian_policy, s.guardian_reboot_after_minutes,
             s.guardian_reboot_with_positions, u.email, u.name, u.language
        from vps_servers s join users u on u.id = s.user_id
       where s.id = ${serverId} and s.user_id = ${userId} and s.status = 'active'
         and s.machine_id is not null`);
    const row = rows[0];
    if (!row) return undefined;
    return {
      id: Number(row.id),
      userId: Number(row.user_id),
      machineId: row.machine_id,
      policy: row.guardian_policy,
      rebootAfterMinutes: row.guardian_reboot_after_minutes,
      rebootWithPositions: row.guardian_reboot_with_positions,
      ownerEmail: row.email,
      ownerName: row.name,
      language: row.language,
    };
  },

  /** Opens an incident; undefined when the server has one open already (the alert joins it). */
  async open(
    db: Executor,
    values: {
      openedAt: Date;
      serverId: number;
      accountId: number;
      alertEventId: number;
      silentSince: Date;
      cause: GuardianCause;
      positions: number;
    },
  ): Promise<IncidentRow | undefined> {
    const [row] = await db
      .insert(vpsGuardianIncidents)
      .values(values)
      .onConflictDoNothing({
        target: vpsGuardianIncidents.serverId,
        where: sql`${vpsGuardianIncidents.status} = 'open'`,
      })
      .returning();
    return row;
  },

  async acted(
    db: Executor,
    id: number,
    values: { action: GuardianAction; operationId: number; actedAt: Date },
  ): Promise<void> {
    await db.update(vpsGuardianIncidents).set(values).where(eq(vpsGuardianIncidents.id, id));
  },

  /** Closes an open incident; false when it was closed meanwhile. */
  async close(db: Executor, id: number, status: GuardianStatus, at: Date): Promise<boolean> {
    const rows = await db
      .update(vpsGuardianIncidents)
      .set({ status, closedAt: at })
      .where(and(eq(vpsGuardianIncidents.id, id), eq(vpsGuardianIncidents.status, 'open')))
      .returning({ id: vpsGuardianIncidents.id });
    return rows.length > 0;
  },

  async openIncidents(db: Executor): Promise<IncidentRow[]> {
    return db
      .select()
      .from(vpsGuardianIncidents)
      .where(eq(vpsGuardianIncidents.status, 'open'))
      .orderBy(vpsGuardianIncidents.id);
  },

  /** When the guardian last acted on the server (any incident), for its one-action rule. */
  async lastAction(db: Executor, serverId: number): Promise<Date | null> {
    const [row] = await db
      .select({ at: vpsGuardianIncidents.actedAt })
      .from(vpsGuardianIncidents)
      .where(
        and(eq(vpsGuardianIncidents.serverId, serverId), isNotNull(vpsGuardianIncidents.actedAt)),
      )
      .orderBy(desc(vpsGuardianIncidents.actedAt))
      .limit(1);
    return row?.at ?? null;
  },

  /** The operation's status (the guardian's action), or undefined. */
  async operationStatus(db: Executor, operationId: number): Promise<string | undefined> {
    const { rows } = await db.execute<{ status: string }>(
      sql`select status from vps_operations where id = ${operationId}`,
    );
    return rows[0]?.status;
  },

  async incidentsOf(db: Executor, serverId: number, limit: number): Promise<IncidentRow[]> {
    return db
      .select()
      .from(vpsGuardianIncidents)
      .where(eq(vpsGuardianIncidents.serverId, serverId))
      .orderBy(desc(vpsGuardianIncidents.id))
      .limit(limit);
  },
};
