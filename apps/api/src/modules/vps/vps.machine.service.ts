import {
  SERVER_PRESSURE_SHARE,
  type GuardianResponse,
  type GuardianSettings,
  type MetricsPoint,
  type MetricsTimeframe,
  type OperationKind,
  type OperationResponse,
  type ServerMetrics,
  type Snapshot,
  type SnapshotsResponse,
} from '@tradehost/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { auditRepository } from '../../db/audit.ts';
import type { Config } from '../../config.ts';
import type { Db, Executor } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import {
  isHypervisorError,
  METRICS_STEP_SECONDS,
  type Hypervisor,
  type MachineMetricsPoint,
} from '../../integrations/hypervisor/index.ts';
import { AppError } from '../../lib/errors.ts';
import { toOperation, toServer } from './vps.mapper.ts';
import { insertOperation, type OperationQueue } from './vps.operations.ts';
import { vpsRepository, type ServerRow } from './vps.repository.ts';
import { ownServer, requireMachine, type MachineServer } from './vps.access.ts';
import { snapshotsRepository, type SnapshotRow } from './vps.snapshots.repository.ts';
import { guardianRepository } from './vps.guardian.repository.ts';

/**
 * The owner's own repairs of the machine (issue 44's self-service), beside the lifecycle's:
 * - its load as the hypervisor measured it, read on request (a hypervisor that cannot answer is
 *   a 503 HYPERVISOR_UNAVAILABLE, logged, never a made-up figure);
 * - snapshots (at most VPS_SNAPSHOTS_MAX, counted under the server's lock), a rollback, a
 *   reinstall from the rate's template and a new Windows password: each an operation like a
 *   reboot (one at a time per server, 202, run by vps.runner.ts), audited, on the server's
 *   activity.
 */

export interface MachineDeps {
  db: Db;
  now: () => Date;
  config: Config;
  hypervisor: Hypervisor;
  operations: OperationQueue;
  log: FastifyBaseLogger;
}

/** What each operation's answer says (the console shows its own texts). */
const MESSAGES: Partial<Record<OperationKind, string>> = {
  snapshot: 'The snapshot is being taken. This takes a minute or two.',
  rollback: 'The server is going back to the snapshot. This takes a few minutes.',
  snapshot_delete: 'The snapshot is being deleted.',
  reinstall: 'The server is being reinstalled. This takes up to 15 minutes.',
  password_reset: 'A new password is being set. This takes a minute.',
};

export function toSnapshot(row: SnapshotRow): Snapshot {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    automatic: row.automatic,
    created_at: row.createdAt.toISOString(),
    taken_at: row.takenAt ? row.takenAt.toISOString() : null,
  };
}

/** The share of the last points the pressure is judged over (a quarter of the timeframe). */
const PRESSURE_WINDOW = 0.25;

const average = (values: number[]) =>
  values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * Whether the machine is near its limits: over the last quarter of the points that have figures,
 * CPU or memory used at SERVER_PRESSURE_SHARE or more on average. Points where the machine was off
 * do not count either way; no figures at all is no pressure.
 */
export function pressureOf(points: readonly MachineMetricsPoint[]): ServerMetrics['pressure'] {
  const measured = points.filter((p) => p.cpu !== null);
  const recent = measured.slice(measured.length - Math.ceil(measured.length * PRESSURE_WINDOW));
  const cpu = average(recent.map((p) => p.cpu!));
  const memory = average(
    recent
      .filter((p) => p.memoryBytes !== null && p.memoryTotalBytes)
      .map((p) => p.memoryBytes! / p.memoryTotalBytes!),
  );
  return {
    cpu: cpu !== null && cpu >= SERVER_PRESSURE_SHARE,
    memory: memory !== null && memory >= SERVER_PRESSURE_SHARE,
  };
}

function toPoint(point: MachineMetricsPoint): MetricsPoint {
  return {
    at: point.at.toISOString(),
    cpu: point.cpu,
    memory: point.memoryBytes,
    memory_total: point.memoryTotalBytes,
    net_in: point.netInBps,
    net_out: point.netOutBps,
    disk_read: point.diskReadBps,
    disk_write: point.diskWriteBps,
  };
}

export function createMachineService({
  db,
  config,
  hypervisor,
  operations,
  log,
  now,
}: MachineDeps) {
  /** The user's own server with a machine on the hypervisor (active or blocked). */
  async function ownMachine(userId: number, id: number): Promise<MachineServer> {
    const server = await ownServer(db, userId, id);
    requireMachine(server, { blocked: true });
    return server;
  }

  /** A hypervisor failure as the user's answer: the details go to the log. */
  function unavailable(error: unknown, serverId: number, what: string): never {
    if (!isHypervisorError(error)) throw error;
    log.error({ err: error, serverId }, `the hypervisor did not answer ${what}`);
    throw new AppError(503, 'HYPERVISOR_UNAVAILABLE');
  }

  /**
   * Writes an operation on the owner's active server, idle and locked, with what `prepare` adds in
   * the same transaction (a snapshot's row), then dispatches it once committed.
   */
  async function operate(
    userId: number,
    id: number,
    kind: OperationKind,
    prepare: (tx: Executor, server: ServerRow) => Promise<{ snapshotId?: number }>,
  ): Promise<OperationResponse> {
    const result = await inTransaction(db, async (tx) => {
      const server = await ownServer(tx, userId, id, { lock: true });
      requireMachine(server);
      if (await vpsRepository.activeOperation(tx, id))
        throw new AppError(409, 'OPERATION_IN_PROGRESS');
      const { snapshotId } = await prepare(tx, server);
      const snapshot = snapshotId === undefined ? {} : { snapshot_id: snapshotId };
      const operation = await insertOperation(tx, {
        serverId: id,
        kind,
        actorId: userId,
        payload: snapshot,
      });
      await auditRepository.insert(tx, {
        actorId: userId,
        action: `vps.${kind}`,
        subjectType: 'vps_server',
        subjectId: String(id),
        targetUserId: userId,
        details: { operation_id: operation.id, ...snapshot },
      });
      const view = await vpsRepository.serverView(tx, id, now());
      return { operation, server: toServer(view!) };
    });
    await operations.dispatch(result.operation.id);
    return {
      server: result.server,
      operation: toOperation(result.operation),
      message: MESSAGES[kind] ?? '',
    };
  }

  /** A snapshot of the locked server that is ready to be rolled back to or deleted. */
  async function readySnapshot(tx: Executor, serverId: number, snapshotId: number) {
    const snapshot = await snapshotsRepository.find(tx, serverId, snapshotId);
    if (!snapshot) throw new AppError(404, 'SNAPSHOT_NOT_FOUND');
    if (snapshot.status !== 'ready') throw new AppError(409, 'SNAPSHOT_NOT_READY');
    return snapshot;
  }

  async function guardianOf(id: number): Promise<GuardianResponse> {
    const server = await vpsRepository.serverRow(db, id);
    const incidents = await guardianRepository.incidentsOf(db, id, 10);
    return {
      settings: {
        policy: server!.guardianPolicy,
        reboot_after_minutes: server!.guardianRebootAfterMinutes,
        reboot_with_positions: server!.guardianRebootWithPositions,
      },
      incidents: incidents.map((row) => ({
        id: row.id,
        opened_at: row.openedAt.toISOString(),
        silent_since: row.silentSince.toISOString(),
        cause: row.cause,
        action: row.action,
        acted_at: row.actedAt?.toISOString() ?? null,
        status: row.status,
        closed_at: row.closedAt?.toISOString() ?? null,
        positions: row.positions,
      })),
    };
  }

  return {
    /** The terminal guardian's policy for the server and what it did lately. */
    async guardian(userId: number, id: number): Promise<GuardianResponse> {
      await ownServer(db, userId, id);
      return guardianOf(id);
    },

    async setGuardian(
      userId: number,
      id: number,
      settings: GuardianSettings,
    ): Promise<GuardianResponse> {
      await inTransaction(db, async (tx) => {
        await ownServer(tx, userId, id, { lock: true });
        await vpsRepository.updateServer(tx, id, {
          guardianPolicy: settings.policy,
          guardianRebootAfterMinutes: settings.reboot_after_minutes,
          guardianRebootWithPositions: settings.reboot_with_positions,
        });
        await auditRepository.insert(tx, {
          actorId: userId,
          action: 'vps.guardian_set',
          subjectType: 'vps_server',
          subjectId: String(id),
          targetUserId: userId,
          details: {
            policy: settings.policy,
            reboot_after_minutes: settings.reboot_after_minutes,
            reboot_with_positions: settings.reboot_with_positions,
          },
        });
      });
      return guardianOf(id);
    },

    async snapshots(userId: number, id: number): Promise<SnapshotsResponse> {
      await ownServer(db, userId, id);
      const rows = await snapshotsRepository.ofServer(db, id);
      return { data: rows.map(toSnapshot), limit: config.vps.snapshotsMax };
    },

    takeSnapshot: (userId: number, id: number, name: string) =>
      operate(userId, id, 'snapshot', async (tx) => {
        if ((await snapshotsRepository.count(tx, id)) >= config.vps.snapshotsMax)
          throw new AppError(409, 'SNAPSHOTS_FULL');
        const snapshot = await snapshotsRepository.insert(tx, { serverId: id, name });
        return { snapshotId: snapshot.id };
      }),

    rollback: (userId: number, id: number, snapshotId: number) =>
      operate(userId, id, 'rollback', async (tx) => {
        const snapshot = await readySnapshot(tx, id, snapshotId);
        return { snapshotId: snapshot.id };
      }),

    deleteSnapshot: (userId: number, id: number, snapshotId: number) =>
      operate(userId, id, 'snapshot_delete', async (tx) => {
        const snapshot = await readySnapshot(tx, id, snapshotId);
        await snapshotsRepository.update(tx, snapshot.id, { status: 'deleting' });
        return { snapshotId: snapshot.id };
      }),

    /** A reinstall takes a snapshot first when the server has room for one. */
    reinstall: (userId: number, id: number) =>
      operate(userId, id, 'reinstall', async (tx) => {
        if ((await snapshotsRepository.count(tx, id)) >= config.vps.snapshotsMax) return {};
        const snapshot = await snapshotsRepository.insert(tx, {
          serverId: id,
          name: 'Before reinstall',
          automatic: true,
        });
        return { snapshotId: snapshot.id };
      }),

    /** Windows sets the password: the machine must be running. */
    resetPassword: (userId: number, id: number) =>
      operate(userId, id, 'password_reset', async (_tx, server) => {
        if (server.power === 'stopped') throw new AppError(409, 'SERVER_NOT_RUNNING');
        return {};
      }),

    async metrics(userId: number, id: number, timeframe: MetricsTimeframe): Promise<ServerMetrics> {
      const server = await ownMachine(userId, id);
      let points: MachineMetricsPoint[];
      try {
        points = await hypervisor.metrics(server.machineId, timeframe);
      } catch (error) {
        unavailable(error, id, 'a metrics read');
      }
      return {
        timeframe,
        step_seconds: METRICS_STEP_SECONDS[timeframe],
        points: points.map(toPoint),
        pressure: pressureOf(points),
      };
    },
  };
}

export type MachineService = ReturnType<typeof createMachineService>;
