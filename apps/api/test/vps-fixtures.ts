import type { OperationKind } from '@tradehost/contracts';
import { beforeAll, expect } from 'vitest';
import { inTransaction } from '../src/db/transaction.ts';
import { billing, type RefundMemo } from '../src/db/billing.ts';
import { insertOperation } from '../src/modules/vps/vps.operations.ts';
import { chargeDescriptions } from '../src/modules/vps/vps.renewal.ts';
import type { ApiResponse, Json, TestApp } from './helpers.ts';

/**
 * The VPS tests' fixtures:
 * - answers: the refusals' bodies, the status check, an order through the API;
 * - arranging state for the runner and lifecycle tests: servers, machines, charges, operations
 *   and upgrades written the way the services write them (charges through the ledger,
 *   operations through insertOperation), without going through HTTP;
 * - reading back rows and audit rows.
 */

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

// ---- answers ------------------------------------------------------------------------------

import { postKeyed } from './helpers.ts';

export { fieldRefusal, postKeyed, refusal } from './helpers.ts';

export const expectStatus = (res: ApiResponse, status: number) =>
  expect(res.status, res.text).toBe(status);

/** POST /api/user/vps/order: Trader in London for a month, found by search, unless `body` says. */
export async function order(
  t: TestApp,
  who: { token: string },
  body: Record<string, unknown> = {},
  key?: string | null,
) {
  const trader = await rateNamed(t, 'Trader');
  return postKeyed(
    t,
    '/api/user/vps/order',
    { rate_id: trader.id, months: 1, source: 'search', ...body },
    who,
    key,
  );
}

/** An order paid (201); its answer: the server (Provisioning, its create operation queued). */
export async function paidOrder(
  t: TestApp,
  who: { token: string },
  body: Record<string, unknown> = {},
): Promise<Json> {
  const res = await order(t, who, body);
  expectStatus(res, 201);
  return res.body;
}

// ---- arranging ----------------------------------------------------------------------------

export interface Rate {
  id: number;
  name: string;
  location: string;
  cpuCores: number;
  ramGb: number;
  diskGb: number;
  monthlyPriceCents: number;
}

/** A seeded rate by name (London unless told). */
export async function rateNamed(
  t: TestApp,
  name: string,
  location = 'London (LD4)',
): Promise<Rate> {
  const { rows } = await t.sql.query(
    `select id, name, location, cpu_cores, ram_gb, disk_gb, monthly_price_cents
       from vps_rates where name = $1 and location = $2`,
    [name, location],
  );
  const row = rows[0];
  if (!row) throw new Error(`no rate ${name} in ${location}`);
  return {
    id: row.id,
    name: row.name,
    location: row.location,
    cpuCores: row.cpu_cores,
    ramGb: row.ram_gb,
    diskGb: row.disk_gb,
    monthlyPriceCents: Number(row.monthly_price_cents),
  };
}

/**
 * A seeded rate (London unless told), read in beforeAll of the calling file: like useTestApp's,
 * the returned object is filled in then, so use it inside tests and hooks.
 */
export function useRate(t: TestApp, name: string, location?: string): Rate {
  const rate = {} as Rate;
  beforeAll(async () => {
    Object.assign(rate, await rateNamed(t, name, location));
  });
  return rate;
}

/** A simulated machine of a rate's size, in the given power state; its id as text. */
export async function seedMachine(
  t: TestApp,
  rate: Rate,
  status: 'running' | 'stopped' = 'running',
): Promise<string> {
  const { rows } = await t.sql.query(
    `insert into sim_machines (name, template_id, cores, memory_mb, disk_gb, status)
     values ('seeded', '9000', $1, $2, $3, $4) returning id`,
    [rate.cpuCores, rate.ramGb * 1024, rate.diskGb, status],
  );
  return String(rows[0].id);
}

/** Charges the user through the ledger as an order does; the charge's id. */
export async function charge(
  t: TestApp,
  userId: number,
  amountCents: number,
  serverId = 0,
): Promise<number> {
  const { chargeId } = await inTransaction(t.app.db, (tx) =>
    billing.charge(tx, {
      userId,
      amountCents,
      ...chargeDescriptions(serverId, { name: 'Test', location: 'Nowhere' }, { months: 1 }),
    }),
  );
  return chargeId;
}

/** The ledger memo of a charge a test gives back by hand (billing.refund). */
export const TEST_REFUND: RefundMemo = { code: 'vps_create_refund', params: { server_id: 1 } };

export interface SeedServer {
  userId: number;
  /** The seeded Trader in London unless told. */
  rate?: Rate;
  status?: 'provisioning' | 'active' | 'blocked' | 'revoked' | 'failed';
  paidUntil: Date;
  /** A machine in this state (active/blocked servers), or none. */
  machine?: 'running' | 'stopped' | null;
  chargeId?: number | null;
  autoRenew?: boolean;
  renewMonths?: number;
  isTrial?: boolean;
  blockedAt?: Date | null;
}

/** A vps_servers row (with its machine when asked); its id and machine id. */
export async function seedServer(
  t: TestApp,
  input: SeedServer,
): Promise<{ id: number; machineId: string | null }> {
  const rate = input.rate ?? (await rateNamed(t, 'Trader'));
  const status = input.status ?? 'active';
  const machine =
    input.machine === undefined ? (status === 'provisioning' ? null : 'running') : input.machine;
  const machineId = machine ? await seedMachine(t, rate, machine) : null;
  const { rows } = await t.sql.query(
    `insert into vps_servers (user_id, rate_id, status, power, machine_id, host, port, username,
        paid_until, charge_id, auto_renew, renew_months, is_trial, blocked_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) returning id`,
    [
      input.userId,
      rate.id,
      status,
      machine ?? 'unknown',
      machineId,
      machineId ? '203.0.113.9' : null,
      machineId ? 3389 : null,
      machineId ? 'Administrator' : null,
      input.paidUntil,
      input.chargeId ?? null,
      input.autoRenew ?? false,
      input.renewMonths ?? 1,
      input.isTrial ?? false,
      input.blockedAt ?? null,
    ],
  );
  return { id: Number(rows[0].id), machineId };
}

/** A queued operation, as a service inserts it; its id. */
export async function queueOperation(
  t: TestApp,
  serverId: number,
  kind: OperationKind,
  payload: Record<string, unknown> = {},
): Promise<number> {
  const row = await insertOperation(t.app.db, { serverId, kind, actorId: null, payload });
  return row.id;
}

export async function injectFault(
  t: TestApp,
  operation: string,
  kind: 'failed' | 'timeout' | 'not_found' | 'unavailable',
  message?: string,
): Promise<void> {
  await t.sql.query(
    `insert into sim_faults (operation, kind, message)
     values ($1, $2, coalesce($3, 'The simulated hypervisor refused the operation'))`,
    [operation, kind, message ?? null],
  );
}

/**
 * A pending upgrade, from the seeded Trader to Pro in London unless told (paid through the ledger
 * when priceCents > 0); its id and charge.
 */
export async function seedUpgrade(
  t: TestApp,
  input: { serverId: number; userId: number; from?: Rate; to?: Rate; on: Date; priceCents: number },
): Promise<{ id: number; chargeId: number | null }> {
  const from = input.from ?? (await rateNamed(t, 'Trader'));
  const to = input.to ?? (await rateNamed(t, 'Pro'));
  const chargeId =
    input.priceCents > 0 ? await charge(t, input.userId, input.priceCents, input.serverId) : null;
  const { rows } = await t.sql.query(
    `insert into vps_upgrades (server_id, user_id, from_rate_id, to_rate_id, scheduled_for,
        price_cents, charge_id)
     values ($1, $2, $3, $4, $5, $6, $7) returning id`,
    [
      input.serverId,
      input.userId,
      from.id,
      to.id,
      input.on.toISOString().slice(0, 10),
      input.priceCents,
      chargeId,
    ],
  );
  return { id: Number(rows[0].id), chargeId };
}

// ---- reading back -------------------------------------------------------------------------

async function rowById(t: TestApp, table: string, id: number): Promise<Json> {
  const { rows } = await t.sql.query(`select * from ${table} where id = $1`, [id]);
  return rows[0];
}

export const serverRow = (t: TestApp, id: number) => rowById(t, 'vps_servers', id);
export const operationRow = (t: TestApp, id: number) => rowById(t, 'vps_operations', id);
export const machineRow = (t: TestApp, id: string) => rowById(t, 'sim_machines', Number(id));
export const chargeRow = (t: TestApp, id: number) => rowById(t, 'charges', id);

export async function operationsOf(t: TestApp, serverId: number): Promise<Json[]> {
  const { rows } = await t.sql.query(
    'select * from vps_operations where server_id = $1 order by id',
    [serverId],
  );
  return rows;
}

/** Audit rows of a server, oldest first. */
export async function serverAudit(t: TestApp, serverId: number): Promise<Json[]> {
  const { rows } = await t.sql.query(
    `select * from audit_log where subject_type = 'vps_server' and subject_id = $1 order by id`,
    [String(serverId)],
  );
  return rows;
}

/** Audit rows of an action (on one subject, when given), oldest first. */
export async function auditOf(
  t: TestApp,
  action: string,
  subjectId?: number | string,
): Promise<Json[]> {
  const { rows } = await t.sql.query(
    `select actor_id, action, subject_type, subject_id, target_user_id, details
     from audit_log where action = $1 and ($2::text is null or subject_id = $2) order by id`,
    [action, subjectId === undefined ? null : String(subjectId)],
  );
  return rows;
}
