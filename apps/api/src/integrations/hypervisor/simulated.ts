/**
 * The simulated hypervisor (development, tests, the browser journeys): the Hypervisor port with
 * each machine a `sim_machines` row, so its state survives restarts and every instance sees the
 * same machines. Slow calls (create, start, shutdown, reboot, resize) complete after a delay
 * drawn from HYPERVISOR_SIM_DELAY_MS, as a real one takes a minute or two; status, delete and
 * setPassword answer at once. It refuses what Proxmox refuses (starting a running machine,
 * deleting one that runs, shrinking a disk, a password without a running guest) with the same
 * failure kinds.
 *
 * Faults: before each call the next `sim_faults` row whose `operation` is the method's name is
 * consumed and thrown as HypervisorError(kind, message) instead, so tests and the journeys can
 * make any call fail once (`insert into sim_faults (operation, kind) values ('start', 'timeout')`).
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { simFaults, simMachines } from '../../db/schema/index.ts';
import {
  HypervisorError,
  type CreateMachineInput,
  type Hypervisor,
  type HypervisorErrorKind,
  type MachineId,
  type MachineSize,
  type MachineStatus,
} from './port.ts';

export interface SimulatedSettings {
  /** How long a slow call takes, drawn uniformly from [min, max] milliseconds. */
  delayMs: { min: number; max: number };
}

export type SimulatedOperation = keyof Hypervisor;
const FAULT_KINDS: readonly HypervisorErrorKind[] = [
  'failed',
  'timeout',
  'not_found',
  'unavailable',
];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type Machine = typeof simMachines.$inferSelect;

export function createSimulatedHypervisor(db: Executor, settings: SimulatedSettings): Hypervisor {
  const { min, max } = settings.delayMs;
  const slow = () => sleep(min + Math.floor(Math.random() * (max - min + 1)));

  /** Consumes the next fault injected for `operation` and throws it. */
  async function fault(operation: SimulatedOperation): Promise<void> {
    const [row] = await db
      .delete(simFaults)
      .where(
        eq(
          simFaults.id,
          sql`(select id from sim_faults where operation = ${operation} order by id limit 1 for update skip locked)`,
        ),
      )
      .returning();
    if (!row) return;
    const kind = FAULT_KINDS.includes(row.kind) ? row.kind : 'failed';
    throw new HypervisorError(kind, row.message);
  }

  /** The machine behind an id, or not_found (as Proxmox answers a missing VMID). */
  async function machine(id: MachineId): Promise<Machine> {
    const found = /^[1-9]\d{0,9}$/.test(id) && Number(id) <= 2_147_483_647;
    const [row] = found
      ? await db
          .select()
          .from(simMachines)
          .where(and(eq(simMachines.id, Number(id)), isNull(simMachines.deletedAt)))
      : [];
    if (!row)
      throw new HypervisorError('not_found', `Configuration file of VM ${id} does not exist`);
    return row;
  }

  /**
   * Moves a machine from one of `from` to `to`, or fails as the hypervisor would: the machine may
   * have changed (or been deleted) during the delay, so the change is conditional.
   */
  async function transition(
    id: MachineId,
    from: Machine['status'][],
    to: Machine['status'],
    refusal: string,
  ): Promise<void> {
    const [row] = await db
      .update(simMachines)
      .set({ status: to })
      .where(
        and(
          eq(simMachines.id, Number(id)),
          isNull(simMachines.deletedAt),
          inArray(simMachines.status, from),
        ),
      )
      .returning({ id: simMachines.id });
    if (row) return;
    await machine(id); // not_found if it went away
    throw new HypervisorError('failed', refusal);
  }

  return {
    async createFromTemplate(input: CreateMachineInput) {
      await fault('createFromTemplate');
      if (!/^\d+$/.test(input.templateId))
        throw new HypervisorError('not_found', `template ${input.templateId} does not exist`);
      if (input.cores < 1 || input.memoryMb < 256 || input.diskGb < 1)
        throw new HypervisorError('failed', 'the machine size is out of range');
      await slow();
      const [row] = await db
        .insert(simMachines)
        .values({
          name: input.name,
          templateId: input.templateId,
          cores: input.cores,
          memoryMb: input.memoryMb,
          diskGb: input.diskGb,
          status: 'stopped',
        })
        .returning({ id: simMachines.id });
      return { machineId: String(row!.id) };
    },

    async start(id) {
      await fault('start');
      const current = await machine(id);
      if (current.status === 'running')
        throw new HypervisorError('failed', `VM ${id} already running`);
      await slow();
      await transition(id, ['stopped'], 'running', `VM ${id} already running`);
    },

    async shutdown(id) {
      await fault('shutdown');
      const current = await machine(id);
      if (current.status !== 'running') throw new HypervisorError('failed', `VM ${id} not running`);
      await slow();
      await transition(id, ['running'], 'stopped', `VM ${id} not running`);
    },

    async reboot(id) {
      await fault('reboot');
      const current = await machine(id);
      if (current.status !== 'running') throw new HypervisorError('failed', `VM ${id} not running`);
      await slow();
      // a reboot ends where it started: running (unless it was shut down meanwhile)
      await transition(id, ['running'], 'running', `VM ${id} not running`);
    },

    async status(id): Promise<MachineStatus> {
      await fault('status');
      return (await machine(id)).status;
    },

    async resize(id, size: MachineSize) {
      await fault('resize');
      const current = await machine(id);
      if (size.diskGb < current.diskGb)
        throw new HypervisorError(
          'failed',
          `shrinking disks is not supported (${current.diskGb}G to ${size.diskGb}G)`,
        );
      if (size.cores < 1 || size.memoryMb < 256)
        throw new HypervisorError('failed', 'the machine size is out of range');
      await slow();
      const [row] = await db
        .update(simMachines)
        .set({ cores: size.cores, memoryMb: size.memoryMb, diskGb: size.diskGb })
        .where(and(eq(simMachines.id, Number(id)), isNull(simMachines.deletedAt)))
        .returning({ id: simMachines.id });
      if (!row)
        throw new HypervisorError('not_found', `Configuration file of VM ${id} does not exist`);
    },

    async delete(id) {
      await fault('delete');
      const current = await machine(id);
      if (current.status === 'running')
        throw new HypervisorError('failed', `VM ${id} is running - destroy failed`);
      await db
        .update(simMachines)
        .set({ deletedAt: sql`now()` })
        .where(and(eq(simMachines.id, Number(id)), isNull(simMachines.deletedAt)));
    },

    async setPassword(id, user, password) {
      await fault('setPassword');
      const current = await machine(id);
      if (current.status !== 'running')
        throw new HypervisorError('failed', 'QEMU guest agent is not running');
      if (!user || !password)
        throw new HypervisorError('failed', 'a user and a password are needed');
      // the password itself is never kept: a real machine holds it, the simulation only notes when
      await db
        .update(simMachines)
        .set({ passwordSetAt: sql`now()` })
        .where(eq(simMachines.id, current.id));
    },
  };
}

/** Faults as the tests insert them (a helper for the tests and the development tools). */
export async function injectFault(
  db: Executor,
  operation: SimulatedOperation,
  kind: HypervisorErrorKind,
  message?: string,
): Promise<void> {
  await db.insert(simFaults).values({ operation, kind, ...(message ? { message } : {}) });
}
