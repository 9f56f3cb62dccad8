import type {
  OperationKind,
  PowerState,
  ServerOperationStatus,
  GuardianAction,
  GuardianCause,
  GuardianPolicy,
  GuardianStatus,
  ServerStatus,
  SnapshotStatus,
  TestRequestStatus,
  UpgradeStatus,
} from '@tradehost/contracts';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';
import { charges } from './money.ts';
import { userRef, users } from './users.ts';

/*
 * VPS rental. Rates and period discounts are the catalogue; a server is ordered (paid through the
 * ledger, a `charges` row), created on the hypervisor by an operation, and then lives through
 * Active -> Blocked (past paid-until) -> Revoked (past the grace period). Every hypervisor call
 * is a `vps_operations` row; at most one is queued or running per server (a partial unique
 * index), which is how "a new one is refused while the previous one runs" holds under races.
 */

const cents = (name: string) => bigint(name, { mode: 'number' });
const userIdOrNull = (name: string) => bigint(name, { mode: 'number' }).references(() => users.id);

export const vpsRates = pgTable(
  'vps_rates',
  {
    id: serial('id').primaryKey(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    name: text('name').notNull(),
    cpuCores: integer('cpu_cores').notNull(),
    ramGb: integer('ram_gb').notNull(),
    diskGb: integer('disk_gb').notNull(),
    location: text('location').notNull(),
    monthlyPriceCents: cents('monthly_price_cents').notNull(),
    /** The hypervisor template a server of this rate is cloned from. */
    templateId: text('template_id').notNull(),
    /** Inactive rates are not offered; servers on them keep running. */
    active: boolean('active').notNull().default(true),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [
    check('vps_rates_price_check', sql`${t.monthlyPriceCents} > 0`),
    check('vps_rates_size_check', sql`${t.cpuCores} > 0 and ${t.ramGb} > 0 and ${t.diskGb} > 0`),
  ],
);

export const vpsPeriodDiscounts = pgTable(
  'vps_period_discounts',
  {
    months: integer('months').primaryKey(),
    discountPercent: integer('discount_percent').notNull().default(0),
  },
  (t) => [
    check('vps_period_discounts_months_check', sql`${t.months} in (1, 3, 6, 12)`),
    check('vps_period_discounts_percent_check', sql`${t.discountPercent} between 0 and 90`),
  ],
);

/** Promocodes: the operator's (no owner) and partners' own (owner_user_id); a deleted one stays for history. */
export const promocodes = pgTable(
  'promocodes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    code: text('code').notNull(),
    discountPercent: integer('discount_percent').notNull(),
    ownerUserId: userIdOrNull('owner_user_id'),
    createdBy: userIdOrNull('created_by'),
    active: boolean('active').notNull().default(true),
    timesUsed: integer('times_used').notNull().default(0),
    deletedAt: timestamptz('deleted_at'),
  },
  (t) => [
    uniqueIndex('promocodes_code_key').on(sql`upper(${t.code})`),
    index('promocodes_owner_idx').on(t.ownerUserId, t.id),
    check('promocodes_percent_check', sql`${t.discountPercent} between 1 and 90`),
  ],
);

export const vpsServers = pgTable(
  'vps_servers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    userId: userRef('user_id'),
    rateId: integer('rate_id')
      .notNull()
      .references(() => vpsRates.id),
    status: text('status').$type<ServerStatus>().notNull().default('provisioning'),
    power: text('power').$type<PowerState>().notNull().default('unknown'),
    /** The hypervisor's id of the machine, once created. */
    machineId: text('machine_id'),
    host: text('host'),
    port: integer('port'),
    username: text('username'),
    /** AES-256-GCM (lib/crypto-box.ts), revealed only on request. */
    passwordEnc: text('password_enc'),
    comment: text('comment').notNull().default(''),
    source: text('source'),
    isTrial: boolean('is_trial').notNull().default(false),
    paidUntil: timestamptz('paid_until').notNull(),
    autoRenew: boolean('auto_renew').notNull().default(false),
    renewMonths: integer('renew_months').notNull().default(1),
    /** The order's charge, refunded if the machine cannot be created. */
    chargeId: bigint('charge_id', { mode: 'number' }).references(() => charges.id),
    promocodeId: bigint('promocode_id', { mode: 'number' }).references(() => promocodes.id),
    /** Lifecycle marks, cleared by a renewal so the next period warns again. */
    warned3dAt: timestamptz('warned_3d_at'),
    warned1dAt: timestamptz('warned_1d_at'),
    autoRenewFailedAt: timestamptz('auto_renew_failed_at'),
    blockedAt: timestamptz('blocked_at'),
    revokedAt: timestamptz('revoked_at'),
    /** Failed: why it could not be created. */
    failure: text('failure'),
    /**
     * The terminal guardian (vps.guardian.ts): what it may do when a terminal publishing from
     * this server falls silent: tell only, restart the terminal (or start the stopped server),
     * or that and then reboot if it stays silent `guardianRebootAfterMinutes`; a reboot with
     * positions open only when `guardianRebootWithPositions`.
     */
    guardianPolicy: text('guardian_policy').$type<GuardianPolicy>().notNull().default('restart'),
    guardianRebootAfterMinutes: integer('guardian_reboot_after_minutes').notNull().default(10),
    guardianRebootWithPositions: boolean('guardian_reboot_with_positions').notNull().default(false),
  },
  (t) => [
    index('vps_servers_user_id_idx').on(t.userId, t.id),
    // which server a publisher's address is (monitoring's "verified by the host")
    index('vps_servers_host_idx').on(t.host),
    index('vps_servers_status_paid_until_idx').on(t.status, t.paidUntil),
    // a user's Active paid servers (the partner programme's "active referral"): found by index
    // even when the user has none, where a scan of all servers was the planner's bet for EXISTS
    index('vps_servers_paid_active_user_idx')
      .on(t.userId)
      .where(sql`${t.status} = 'active' and not ${t.isTrial}`),
    check(
      'vps_servers_status_check',
      sql`${t.status} in ('provisioning', 'active', 'blocked', 'revoked', 'failed')`,
    ),
    check('vps_servers_power_check', sql`${t.power} in ('running', 'stopped', 'unknown')`),
    check('vps_servers_renew_months_check', sql`${t.renewMonths} in (1, 3, 6, 12)`),
    check('vps_servers_comment_check', sql`char_length(${t.comment}) <= 200`),
    check(
      'vps_servers_guardian_policy_check',
      sql`${t.guardianPolicy} in ('notify', 'restart', 'restart_then_reboot')`,
    ),
  ],
);

export const vpsOperations = pgTable(
  'vps_operations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    serverId: bigint('server_id', { mode: 'number' })
      .notNull()
      .references(() => vpsServers.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<OperationKind>().notNull(),
    status: text('status').$type<ServerOperationStatus>().notNull().default('queued'),
    /** The user or operator who asked; null for the lifecycle. */
    actorId: userIdOrNull('actor_id'),
    attempts: integer('attempts').notNull().default(0),
    /** What the operation needs (an upgrade's id, ...). */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    error: text('error'),
    startedAt: timestamptz('started_at'),
    finishedAt: timestamptz('finished_at'),
  },
  (t) => [
    index('vps_operations_server_id_idx').on(t.serverId, t.id),
    index('vps_operations_status_idx').on(t.status, t.createdAt),
    // one operation at a time per server
    uniqueIndex('vps_operations_one_active_key')
      .on(t.serverId)
      .where(sql`${t.status} in ('queued', 'running')`),
    check(
      'vps_operations_kind_check',
      sql`${t.kind} in ('create', 'start', 'shutdown', 'reboot', 'upgrade', 'block', 'reactivate', 'revoke', 'snapshot', 'rollback', 'snapshot_delete', 'reinstall', 'password_reset', 'terminal_restart')`,
    ),
    check(
      'vps_operations_status_check',
      sql`${t.status} in ('queued', 'running', 'succeeded', 'failed')`,
    ),
  ],
);

/**
 * A server's snapshots, as the owner names them: the row is written with the operation that takes
 * it (so VPS_SNAPSHOTS_MAX is counted under the server's lock), and the hypervisor's snapshot is
 * named after the row (`th<id>`: Proxmox allows only a few characters, the owner any text).
 * `creating` until the operation has taken it (a failed take removes the row), `deleting` while an
 * operation deletes it.
 */
export const vpsSnapshots = pgTable(
  'vps_snapshots',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    serverId: bigint('server_id', { mode: 'number' })
      .notNull()
      .references(() => vpsServers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    status: text('status').$type<SnapshotStatus>().notNull().default('creating'),
    /** Taken by the service before a reinstall, not asked for by the owner. */
    automatic: boolean('automatic').notNull().default(false),
    /** When the hypervisor took it. */
    takenAt: timestamptz('taken_at'),
  },
  (t) => [
    index('vps_snapshots_server_id_idx').on(t.serverId, t.id),
    check('vps_snapshots_status_check', sql`${t.status} in ('creating', 'ready', 'deleting')`),
  ],
);

/**
 * What the terminal guardian found and did when a terminal publishing from a server fell silent
 * (one row per silent-terminal alert it took up): the cause it named, the action (an operation of
 * the server), and how it ended: `resolved` (the terminal publishes again), `escalated` (nothing
 * helped, or nothing was allowed), `notified` (the policy is to tell only).
 */
export const vpsGuardianIncidents = pgTable(
  'vps_guardian_incidents',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    openedAt: timestamptz('opened_at').notNull().defaultNow(),
    serverId: bigint('server_id', { mode: 'number' })
      .notNull()
      .references(() => vpsServers.id, { onDelete: 'cascade' }),
    /** The monitoring account whose terminal fell silent, and the alert that said so. */
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    alertEventId: bigint('alert_event_id', { mode: 'number' }),
    /** When the terminal last published (the alert's). */
    silentSince: timestamptz('silent_since').notNull(),
    cause: text('cause').$type<GuardianCause>().notNull(),
    action: text('action').$type<GuardianAction>().notNull().default('none'),
    operationId: bigint('operation_id', { mode: 'number' }),
    actedAt: timestamptz('acted_at'),
    /** Open positions as the last snapshot before the silence showed them. */
    positions: integer('positions').notNull().default(0),
    status: text('status').$type<GuardianStatus>().notNull().default('open'),
    closedAt: timestamptz('closed_at'),
  },
  (t) => [
    index('vps_guardian_incidents_server_idx').on(t.serverId, t.id),
    // one incident open per server: a second alert while one is handled joins it
    uniqueIndex('vps_guardian_incidents_open_key')
      .on(t.serverId)
      .where(sql`${t.status} = 'open'`),
    check(
      'vps_guardian_incidents_status_check',
      sql`${t.status} in ('open', 'resolved', 'escalated', 'notified')`,
    ),
  ],
);

/**
 * The owner's tickets for the server's web console: asked for by the console page just before it
 * opens the WebSocket, good for CONSOLE_TICKET_SECONDS and for one connection (`usedAt`), and
 * only for the user and server they were issued to. Kept in PostgreSQL so that the instance
 * which takes the socket need not be the one that issued the ticket; the token itself is not kept,
 * only its SHA-256.
 */
export const vpsConsoleTickets = pgTable(
  'vps_console_tickets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenHash: text('token_hash').notNull(),
    serverId: bigint('server_id', { mode: 'number' })
      .notNull()
      .references(() => vpsServers.id, { onDelete: 'cascade' }),
    userId: userRef('user_id'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
  },
  (t) => [
    uniqueIndex('vps_console_tickets_token_key').on(t.tokenHash),
    index('vps_console_tickets_expires_idx').on(t.expiresAt),
  ],
);

export const vpsUpgrades = pgTable(
  'vps_upgrades',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    serverId: bigint('server_id', { mode: 'number' })
      .notNull()
      .references(() => vpsServers.id, { onDelete: 'cascade' }),
    userId: userRef('user_id'),
    fromRateId: integer('from_rate_id')
      .notNull()
      .references(() => vpsRates.id),
    toRateId: integer('to_rate_id')
      .notNull()
      .references(() => vpsRates.id),
    /** The day it runs (UTC). */
    scheduledFor: date('scheduled_for', { mode: 'string' }).notNull(),
    priceCents: cents('price_cents').notNull(),
    /** Null when the difference is zero. */
    chargeId: bigint('charge_id', { mode: 'number' }).references(() => charges.id),
    status: text('status').$type<UpgradeStatus>().notNull().default('pending'),
    finishedAt: timestamptz('finished_at'),
  },
  (t) => [
    index('vps_upgrades_due_idx').on(t.status, t.scheduledFor),
    // a repeat request is refused while one is being processed
    uniqueIndex('vps_upgrades_one_pending_key')
      .on(t.serverId)
      .where(sql`${t.status} = 'pending'`),
    check('vps_upgrades_price_check', sql`${t.priceCents} >= 0`),
    check(
      'vps_upgrades_status_check',
      sql`${t.status} in ('pending', 'done', 'failed', 'cancelled')`,
    ),
  ],
);

export const vpsTestRequests = pgTable(
  'vps_test_requests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    userId: userRef('user_id'),
    status: text('status').$type<TestRequestStatus>().notNull().default('under_review'),
    source: text('source').notNull(),
    reason: text('reason'),
    serverId: bigint('server_id', { mode: 'number' }).references(() => vpsServers.id),
    decidedBy: userIdOrNull('decided_by'),
    decidedAt: timestamptz('decided_at'),
  },
  (t) => [
    // one test server per user
    uniqueIndex('vps_test_requests_user_key').on(t.userId),
    index('vps_test_requests_status_idx').on(t.status, t.createdAt),
    check(
      'vps_test_requests_status_check',
      sql`${t.status} in ('under_review', 'approved', 'rejected')`,
    ),
  ],
);

/**
 * The simulated hypervisor's machines (integrations/hypervisor/simulated.ts): state in the
 * database so that it survives restarts and is shared by every instance.
 */
export const simMachines = pgTable(
  'sim_machines',
  {
    id: serial('id').primaryKey(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    name: text('name').notNull(),
    templateId: text('template_id').notNull(),
    cores: integer('cores').notNull(),
    memoryMb: integer('memory_mb').notNull(),
    diskGb: integer('disk_gb').notNull(),
    status: text('status').$type<'running' | 'stopped'>().notNull().default('stopped'),
    /** When `status` last changed: the metrics of a stopped machine have no load after it. */
    statusSince: timestamptz('status_since').notNull().defaultNow(),
    passwordSetAt: timestamptz('password_set_at'),
    /**
     * The terminals installed on the machine's disk, one image name per process (two MetaTrader 5
     * terminals are two 'terminal64.exe'): what the template's scheduled task starts at logon.
     */
    terminals: text('terminals')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** How many times the system disk was replaced by the template's (reinstall), and when last. */
    generation: integer('generation').notNull().default(0),
    reinstalledAt: timestamptz('reinstalled_at'),
    deletedAt: timestamptz('deleted_at'),
  },
  (t) => [check('sim_machines_status_check', sql`${t.status} in ('running', 'stopped')`)],
);

/**
 * A simulated machine's snapshots: each keeps the configuration and the disk's installed
 * terminals of its moment, which a rollback restores (as a Proxmox rollback restores the config
 * and the volumes).
 */
export const simSnapshots = pgTable(
  'sim_snapshots',
  {
    id: serial('id').primaryKey(),
    machineId: integer('machine_id')
      .notNull()
      .references(() => simMachines.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    templateId: text('template_id').notNull(),
    cores: integer('cores').notNull(),
    memoryMb: integer('memory_mb').notNull(),
    diskGb: integer('disk_gb').notNull(),
    terminals: text('terminals').array().notNull(),
  },
  (t) => [uniqueIndex('sim_snapshots_machine_name_key').on(t.machineId, t.name)],
);

/**
 * The processes of a running simulated machine that the guest commands show and start (the
 * trading terminals); the Windows system processes are constant and not stored. A shutdown
 * empties it, a boot fills it from `sim_machines.terminals`.
 */
export const simProcesses = pgTable(
  'sim_processes',
  {
    id: serial('id').primaryKey(),
    machineId: integer('machine_id')
      .notNull()
      .references(() => simMachines.id, { onDelete: 'cascade' }),
    image: text('image').notNull(),
    pid: integer('pid').notNull(),
    sessionName: text('session_name').notNull().default('Console'),
    sessionNumber: integer('session_number').notNull().default(1),
    userName: text('user_name').notNull(),
    startedAt: timestamptz('started_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sim_processes_machine_pid_key').on(t.machineId, t.pid)],
);

/**
 * Faults to inject into the simulated hypervisor (development and tests): the next call of
 * `operation` fails with `kind`, then the row is gone.
 */
export const simFaults = pgTable('sim_faults', {
  id: serial('id').primaryKey(),
  operation: text('operation').notNull(),
  kind: text('kind').$type<'failed' | 'timeout' | 'not_found' | 'unavailable'>().notNull(),
  message: text('message').notNull().default('The simulated hypervisor refused the operation'),
});
