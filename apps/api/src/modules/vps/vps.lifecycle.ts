import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { vpsOperations, vpsServers, vpsUpgrades } from '../../db/schema/index.ts';
import { inTransaction, type Tx } from '../../db/transaction.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import {
  vpsAutoRenewedMail,
  vpsAutoRenewFailedMail,
  vpsBlockedMail,
  vpsExpiryWarningMail,
  vpsRevokedMail,
} from '../../integrations/mail/templates.ts';
import { AppError } from '../../lib/errors.ts';
import { userRepository } from '../../db/users.ts';
import { billing } from '../../db/billing.ts';
import { rateLabel, serversLink } from '../../lib/vps-labels.ts';
import { auditServer } from './vps.effects.ts';
import { notify } from '../../integrations/mail/notify.ts';
import { insertOperation, type OperationQueue, type OperationRow } from './vps.operations.ts';
import { renewalPriceCents, renewServer } from './vps.renewal.ts';
import { vpsRepository, type ServerContext } from './vps.repository.ts';
import { vpsJobsRepository } from './vps.jobs.repository.ts';
import { DAY_MS } from '@tradehost/contracts';

/**
 * The servers' lifecycle, one tick a minute (pg-boss schedule `vps-lifecycle`), on the app's
 * clock (deps.now):
 * 1. auto-renewal of servers with auto_renew within a day of paid-until (each in its own
 *    transaction; a short balance is mailed once per period);
 * 2. warning mails 3 days (not for trials, which are told their length) and 1 day before;
 * 3. Active past paid-until -> Blocked, with a `block` operation that shuts the machine down;
 * 4. Blocked past paid-until + grace -> Revoked, with a `revoke` operation that deletes it (a
 *    pending upgrade is cancelled and refunded);
 * 5. a pending upgrade whose day has come -> an `upgrade` operation;
 * 6. operations left queued for over a minute are dispatched again.
 * Every step is a conditional UPDATE or locks its rows FOR UPDATE SKIP LOCKED and checks them
 * again, so two ticks at once, or one twice, change nothing more than one.
 */

export interface LifecycleReport {
  autoRenewed: number;
  autoRenewFailed: number;
  warned3d: number;
  warned1d: number;
  blocked: number;
  revoked: number;
  upgradesStarted: number;
  redispatched: number;
}

export interface LifecycleDeps {
  config: Config;
  db: Db;
  mailer: Mailer;
  now: () => Date;
  log: FastifyBaseLogger;
  operations: OperationQueue;
}

export interface Lifecycle {
  tick(): Promise<LifecycleReport>;
}

/** An operation queued longer than this is dispatched again (its job may have been lost). */
export const REDISPATCH_AFTER_MS = 60_000;

const plusDays = (date: Date, days: number) => new Date(date.getTime() + days * DAY_MS);

/** True when the savepoint's insert was refused because the server has an operation already. */
const isBusy = (error: unknown) =>
  error instanceof AppError && error.code === 'OPERATION_IN_PROGRESS';

/** Inserts an operation in a savepoint: null (and the transaction still usable) when busy. */
async function tryInsertOperation(
  tx: Tx,
  input: Parameters<typeof insertOperation>[1],
): Promise<OperationRow | null> {
  try {
    return await tx.transaction((savepoint) => insertOperation(savepoint, input));
  } catch (error) {
    if (isBusy(error)) return null;
    throw error;
  }
}

export function createLifecycle(deps: LifecycleDeps): Lifecycle {
  const { config, db, mailer, log, operations } = deps;
  const link = serversLink(config);
  const graceDays = config.vps.graceDays;

  /** Runs one server's step; a failure is logged and leaves the others to go on. */
  async function each<T>(
    step: string,
    ids: number[],
    work: (id: number) => Promise<T | null>,
  ): Promise<T[]> {
    const done: T[] = [];
    for (const id of ids) {
      try {
        const result = await work(id);
        if (result !== null) done.push(result);
      } catch (error) {
        log.error({ err: error, serverId: id }, `lifecycle ${step} failed`);
      }
    }
    return done;
  }

  const mailOf = (ctx: ServerContext) => ({
    name: ctx.owner.name,
    serverId: ctx.server.id,
    rate: rateLabel(ctx.rate),
    link,
  });

  // ---- 1. auto-renewal --------------------------------------------------------------------

  async function autoRenew(now: Date): Promise<[number, number]> {
    const due = sql`${vpsServers.status} = 'active' and ${vpsServers.autoRenew}
      and ${vpsServers.paidUntil} <= ${plusDays(now, 1)}`;
    const ids = await vpsJobsRepository.serverIds(db, due);
    let renewed = 0;
    let failed = 0;
    await each('auto-renewal', ids, async (id) => {
      let outcome;
      try {
        outcome = await inTransaction(db, async (tx) => {
          const ctx = await vpsRepository.lockDueServer(tx, id, due);
          if (!ctx) return null;
          const months = ctx.server.renewMonths;
          const result = await renewServer(tx, { server: ctx.server, months, actorId: null, now });
          await auditServer(tx, 'vps.auto_renew', ctx.server, {
            months,
            amount_cents: result.chargedCents,
            paid_until: result.server.paidUntil.toISOString(),
          });
          return { ctx, result, months };
        });
      } catch (error) {
        if (!(error instanceof AppError && error.code === 'INSUFFICIENT_FUNDS_PAYMENT'))
          throw error;
        const marked = await inTransaction(db, async (tx) => {
          const ctx = await vpsRepository.lockDueServer(
            tx,
            id,
            sql`${due} and ${vpsServers.autoRenewFailedAt} is null`,
          );
          if (!ctx) return null;
          const { totalCents } = await renewalPriceCents(
            tx,
            ctx.server.rateId,
            ctx.server.renewMonths,
          );
          const balanceCents =
            (await userRepository.findById(tx, ctx.server.userId))?.balanceCents ?? 0;
          await vpsRepository.updateServer(tx, id, { autoRenewFailedAt: now });
          await auditServer(tx, 'vps.auto_renew_failed', ctx.server, {
            months: ctx.server.renewMonths,
            price_cents: totalCents,
            balance_cents: balanceCents,
          });
          return { ctx, priceCents: totalCents, balanceCents };
        });
        if (!marked) return null;
        failed += 1;
        await notify(mailer, log, marked.ctx.owner, (language) =>
          vpsAutoRenewFailedMail(language, {
            ...mailOf(marked.ctx),
            priceCents: marked.priceCents,
            balanceCents: marked.balanceCents,
            paidUntil: marked.ctx.server.paidUntil,
          }),
        );
        return null;
      }
      if (!outcome) return null;
      renewed += 1;
      const { ctx, result, months } = outcome;
      await notify(mailer, log, ctx.owner, (language) =>
        vpsAutoRenewedMail(language, {
          ...mailOf(ctx),
          months,
          chargedCents: result.chargedCents,
          paidUntil: result.server.paidUntil,
        }),
      );
      return null;
    });
    return [renewed, failed];
  }

  // ---- 2. warnings ------------------------------------------------------------------------

  /** Marks and mails the servers in a warning window, each once (the mark is the condition). */
  async function warn(now: Date, days: 1 | 3): Promise<number> {
    const window =
      days === 1
        ? sql`${vpsServers.paidUntil} > ${now} and ${vpsServers.paidUntil} <= ${plusDays(now, 1)}
            and ${vpsServers.warned1dAt} is null`
        : sql`not ${vpsServers.isTrial} and ${vpsServers.paidUntil} > ${plusDays(now, 1)}
            and ${vpsServers.paidUntil} <= ${plusDays(now, 3)} and ${vpsServers.warned3dAt} is null`;
    const marked = await db
      .update(vpsServers)
      .set(
        days === 1
          ? // a server first seen within a day gets this warning only
            { warned1dAt: now, warned3dAt: sql`coalesce(${vpsServers.warned3dAt}, ${now})` }
          : { warned3dAt: now },
      )
      .where(and(eq(vpsServers.status, 'active'), window))
      .returning({ id: vpsServers.id });
    await each(
      `${days}-day warning`,
      marked.map((row) => row.id),
      async (id) => {
        const ctx = await vpsRepository.serverContext(db, id);
        if (!ctx) return null;
        await notify(mailer, log, ctx.owner, (language) =>
          vpsExpiryWarningMail(language, {
            ...mailOf(ctx),
            days,
            paidUntil: ctx.server.paidUntil,
            autoRenew: ctx.server.autoRenew,
          }),
        );
        return null;
      },
    );
    return marked.length;
  }

  // ---- 3. block, 4. revoke ------------------------------------------------------------------

  /**
   * Moves due servers to `to` with the operation that does it on the machine. A server with an
   * operation under way is left for the next tick (its status unchanged).
   */
  async function transition(now: Date, due: SQL, kind: 'block' | 'revoke'): Promise<number> {
    const ids = await vpsJobsRepository.serverIds(db, due);
    const moved = await each(kind, ids, async (id) => {
      const result = await inTransaction(db, async (tx) => {
        const ctx = await vpsRepository.lockDueServer(tx, id, due);
        if (!ctx) return null;
        const operation = await tryInsertOperation(tx, { serverId: id, kind, actorId: null });
        if (!operation) return null;
        const revokeAt = plusDays(ctx.server.paidUntil, graceDays);
        if (kind === 'block') {
          await vpsRepository.updateServer(tx, id, { status: 'blocked', blockedAt: now });
          await auditServer(tx, 'vps.block', ctx.server, {
            operation_id: operation.id,
            paid_until: ctx.server.paidUntil.toISOString(),
            revoke_at: revokeAt.toISOString(),
          });
        } else {
          await vpsRepository.updateServer(tx, id, {
            status: 'revoked',
            revokedAt: now,
            autoRenew: false,
          });
          // an upgrade it was waiting for will not happen: cancelled and paid back
          const cancelled = await tx
            .update(vpsUpgrades)
            .set({ status: 'cancelled', finishedAt: now })
            .where(and(eq(vpsUpgrades.serverId, id), eq(vpsUpgrades.status, 'pending')))
            .returning({ id: vpsUpgrades.id, chargeId: vpsUpgrades.chargeId });
          for (const upgrade of cancelled) {
            if (upgrade.chargeId !== null)
              await billing.refund(
                tx,
                upgrade.chargeId,
                { code: 'vps_upgrade_revoked_refund', params: { server_id: id } },
                null,
              );
          }
          await auditServer(tx, 'vps.revoke', ctx.server, {
            operation_id: operation.id,
            blocked_at: ctx.server.blockedAt?.toISOString() ?? null,
            cancelled_upgrades: cancelled.map((upgrade) => upgrade.id),
          });
        }
        return { ctx, operation, revokeAt };
      });
      if (!result) return null;
      await operations.dispatch(result.operation.id);
      await notify(mailer, log, result.ctx.owner, (language) =>
        kind === 'block'
          ? vpsBlockedMail(language, { ...mailOf(result.ctx), revokeAt: result.revokeAt })
          : vpsRevokedMail(language, mailOf(result.ctx)),
      );
      return result;
    });
    return moved.length;
  }

  // ---- 5. upgrades ------------------------------------------------------------------------

  async function startUpgrades(now: Date): Promise<number> {
    const today = now.toISOString().slice(0, 10);
    const due = sql`${vpsUpgrades.status} = 'pending' and ${vpsUpgrades.scheduledFor} <= ${today}
      and not exists (select 1 from ${vpsOperations} o where o.server_id = ${vpsUpgrades.serverId}
        and o.status in ('queued', 'running'))
      and not exists (select 1 from ${vpsOperations} o where o.kind = 'upgrade'
        and o.payload->>'upgradeId' = ${vpsUpgrades.id}::text)`;
    const rows = await db
      .select({ id: vpsUpgrades.id, serverId: vpsUpgrades.serverId })
      .from(vpsUpgrades)
      .innerJoin(vpsServers, eq(vpsServers.id, vpsUpgrades.serverId))
      .where(and(due, eq(vpsServers.status, 'active')))
      .orderBy(vpsUpgrades.id)
      .limit(500);
    const started = await each(
      'upgrade',
      rows.map((row) => row.id),
      async (upgradeId) => {
        const operation = await inTransaction(db, async (tx) => {
          const [upgrade] = await tx
            .select({ id: vpsUpgrades.id, serverId: vpsUpgrades.serverId })
            .from(vpsUpgrades)
            .where(and(eq(vpsUpgrades.id, upgradeId), due))
            .for('update', { skipLocked: true });
          if (!upgrade) return null;
          const ctx = await vpsRepository.lockDueServer(
            tx,
            upgrade.serverId,
            sql`${vpsServers.status} = 'active'`,
          );
          if (!ctx) return null;
          return tryInsertOperation(tx, {
            serverId: upgrade.serverId,
            kind: 'upgrade',
            actorId: null,
            payload: { upgradeId },
          });
        });
        if (!operation) return null;
        await operations.dispatch(operation.id);
        return operation;
      },
    );
    return started.length;
  }

  // ---- 6. re-dispatch ---------------------------------------------------------------------

  /**
   * The one step on the database's clock, not deps.now(): created_at is stamped by the database,
   * and "left queued for a minute" is about the queue, not about the servers' calendar.
   */
  async function redispatch(): Promise<number> {
    const rows = await db
      .select({ id: vpsOperations.id })
      .from(vpsOperations)
      .where(
        sql`${vpsOperations.status} = 'queued'
          and ${vpsOperations.createdAt} <= now() - make_interval(secs => ${REDISPATCH_AFTER_MS / 1000})`,
      )
      .orderBy(vpsOperations.id)
      .limit(500);
    for (const row of rows) await operations.dispatch(row.id);
    return rows.length;
  }

  return {
    async tick() {
      const now = deps.now();
      const [autoRenewed, autoRenewFailed] = await autoRenew(now);
      const warned1d = await warn(now, 1);
      const warned3d = await warn(now, 3);
      const blocked = await transition(
        now,
        sql`${vpsServers.status} = 'active' and ${vpsServers.paidUntil} <= ${now}`,
        'block',
      );
      const revoked = await transition(
        now,
        sql`${vpsServers.status} = 'blocked'
          and ${vpsServers.paidUntil} <= ${plusDays(now, -graceDays)}`,
        'revoke',
      );
      const upgradesStarted = await startUpgrades(now);
      const redispatched = await redispatch();
      return {
        autoRenewed,
        autoRenewFailed,
        warned3d,
        warned1d,
        blocked,
        revoked,
        upgradesStarted,
        redispatched,
      };
    },
  };
}
