import {
  SERVER_PRESSURE_SHARE,
  type MetricsPoint,
  type MetricsTimeframe,
  type ServerMetrics,
} from '@tradehost/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import {
  isHypervisorError,
  METRICS_STEP_SECONDS,
  type Hypervisor,
  type MachineMetricsPoint,
} from '../../integrations/hypervisor/index.ts';
import { AppError } from '../../lib/errors.ts';
import { vpsRepository, type ServerRow } from './vps.repository.ts';

/**
 * The owner's view into the machine itself (issue 44's self-service): its load as the hypervisor
 * measured it. Reads go to the hypervisor on request; a hypervisor that cannot answer is a 503
 * HYPERVISOR_UNAVAILABLE (logged), never a made-up figure.
 */

export interface MachineDeps {
  db: Db;
  hypervisor: Hypervisor;
  log: FastifyBaseLogger;
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

export function createMachineService({ db, hypervisor, log }: MachineDeps) {
  /** The user's own server with a machine on the hypervisor (active or blocked). */
  async function ownMachine(
    userId: number,
    id: number,
  ): Promise<ServerRow & { machineId: string }> {
    const server = await vpsRepository.findServer(db, id, userId);
    if (!server) throw new AppError(404, 'SERVER_NOT_FOUND');
    if (server.status === 'provisioning') throw new AppError(409, 'SERVER_NOT_READY');
    if (!server.machineId || (server.status !== 'active' && server.status !== 'blocked'))
      throw new AppError(409, 'SERVER_NOT_ACTIVE');
    return server as ServerRow & { machineId: string };
  }

  /** A hypervisor failure as the user's answer: the details go to the log. */
  function unavailable(error: unknown, serverId: number, what: string): never {
    if (!isHypervisorError(error)) throw error;
    log.error({ err: error, serverId }, `the hypervisor did not answer ${what}`);
    throw new AppError(503, 'HYPERVISOR_UNAVAILABLE');
  }

  return {
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
