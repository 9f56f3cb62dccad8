/**
 * The simulated hypervisor (development, tests, the browser journeys): the Hypervisor port with
 * each machine a `sim_machines` row, so its state survives restarts and every instance sees the
 * same machines. Slow calls (create, start, shutdown, reboot, resize, the snapshot changes,
 * reinstall) complete after a delay drawn from HYPERVISOR_SIM_DELAY_MS, as a real one takes a
 * minute or two; the reads, delete, setPassword, exec, consoleTicket and openConsole answer at
 * once. It refuses what Proxmox refuses (starting a running machine, deleting one that runs,
 * shrinking a disk, a guest command or password without a running guest, a snapshot name Proxmox
 * would not take) with the same failure kinds.
 *
 * The guest: a running machine has the processes of `sim_processes` besides Windows' own, and
 * `exec` answers `tasklist` and `schtasks /run` from them as Windows would (windows-guest.ts). A
 * boot (start, reboot) starts the terminals installed on the disk (`sim_machines.terminals`), as
 * the template's logon task does; a shutdown, a rollback and a reinstall leave none running. A
 * snapshot keeps the configuration and the installed terminals, which a rollback restores; a
 * reinstall installs none. `putTerminals` and `crashTerminal` below install and kill terminals for
 * the tests and the development tools.
 *
 * The screen (openConsole) is rfb.ts's sign-in screen, served in-process for each viewer: what
 * is typed and the security screen Ctrl+Alt+Del brings up last as long as that connection.
 *
 * Metrics are synthetic (synthetic-load.ts): steady for a machine and a step, none before the
 * machine was created, and no load since it was stopped when it is stopped now.
 *
 * Faults: before each call the next `sim_faults` row whose `operation` is the method's name is
 * consumed and thrown as HypervisorError(kind, message) instead, so tests and the journeys can
 * make any call fail once (`insert into sim_faults (operation, kind) values ('start', 'timeout')`).
 */
import { randomBytes, randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { simFaults, simMachines, simProcesses, simSnapshots } from '../../db/schema/index.ts';
import {
  HypervisorError,
  METRICS_STEP_SECONDS,
  snapshotNameProblem,
  type CreateMachineInput,
  type Hypervisor,
  type HypervisorErrorKind,
  type MachineId,
  type MachineMetricsPoint,
  type MachineSize,
  type MachineStatus,
} from './port.ts';
import { bytePipe, rfbClientHandshake, serveScreen } from './rfb.ts';
import { metricsSteps, syntheticLoad } from './synthetic-load.ts';
import {
  TERMINAL_IMAGE,
  freePid,
  runGuestCommand,
  terminalsToStart,
  type GuestProcess,
} from './windows-guest.ts';

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

/** The Windows account the template signs in automatically, whose session runs the terminals. */
const TRADING_USER = 'Administrator';
const MIB = 1024 * 1024;

type Machine = typeof simMachines.$inferSelect;

const failed = (message: string) => new HypervisorError('failed', message);
const missing = (id: MachineId) =>
  new HypervisorError('not_found', `Configuration file of VM ${id} does not exist`);

/** A machine's row only where the id can name one (a positive int4), as Proxmox's VMIDs are. */
const machineKey = (id: MachineId) =>
  /^[1-9]\d{0,9}$/.test(id) && Number(id) <= 2_147_483_647 ? Number(id) : undefined;

/** The status change's columns: `status_since` moves only when the status does. */
const statusChange = (to: Machine['status']) => ({
  status: to,
  statusSince: sql`case when ${simMachines.status} = ${to}
    then ${simMachines.statusSince} else now() end`,
});

/** Starts the installed terminals that are not running, each under a pid of its own. */
async function startTerminals(
  tx: Executor,
  machine: Pick<Machine, 'id' | 'terminals'>,
  running: readonly Pick<GuestProcess, 'image' | 'pid'>[],
): Promise<void> {
  const taken = running.map((p) => p.pid);
  const rows = terminalsToStart(machine.terminals, running).map((image) => {
    const pid = freePid(taken);
    taken.push(pid);
    return { machineId: machine.id, image, pid, userName: TRADING_USER };
  });
  if (rows.length > 0) await tx.insert(simProcesses).values(rows);
}

const stopAll = (tx: Executor, machineId: number) =>
  tx.delete(simProcesses).where(eq(simProcesses.machineId, machineId));

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

  /**
   * The machine behind an id, or not_found (as Proxmox answers a missing VMID); `lock` holds its
   * row until the transaction ends, so a boot or a crash waits for a guest command.
   */
  async function machine(id: MachineId, executor: Executor = db, lock = false): Promise<Machine> {
    const key = machineKey(id);
    const query = executor
      .select()
      .from(simMachines)
      .where(and(eq(simMachines.id, key ?? 0), isNull(simMachines.deletedAt)));
    const [row] = key === undefined ? [] : await (lock ? query.for('update') : query);
    if (!row) throw missing(id);
    return row;
  }

  /**
   * Moves a machine from one of `from` to `to`, or fails as the hypervisor would: the machine may
   * have changed (or been deleted) during the delay, so the change is conditional. `then` runs in
   * the same transaction (a boot starting the terminals).
   */
  async function transition(
    id: MachineId,
    from: Machine['status'][],
    to: Machine['status'],
    refusal: string,
    then?: (tx: Executor, row: Machine) => Promise<void>,
  ): Promise<void> {
    const moved = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(simMachines)
        .set(statusChange(to))
        .where(
          and(
            eq(simMachines.id, Number(id)),
            isNull(simMachines.deletedAt),
            inArray(simMachines.status, from),
          ),
        )
        .returning();
      if (row) await then?.(tx, row);
      return Boolean(row);
    });
    if (moved) return;
    await machine(id); // not_found if it went away
    throw failed(refusal);
  }

  /** A boot: whatever ran is gone, and the logon task starts the installed terminals. */
  async function boot(tx: Executor, row: Machine): Promise<void> {
    await stopAll(tx, row.id);
    await startTerminals(tx, row, []);
  }

  /** A snapshot name Proxmox would refuse is refused before anything else. */
  function checkSnapshotName(name: string): void {
    const problem = snapshotNameProblem(name);
    if (problem) throw failed(problem);
  }

  async function snapshotRow(machineId: number, name: string, executor: Executor = db) {
    const [row] = await executor
      .select()
      .from(simSnapshots)
      .where(and(eq(simSnapshots.machineId, machineId), eq(simSnapshots.name, name)));
    if (!row) throw new HypervisorError('not_found', `snapshot '${name}' does not exist`);
    return row;
  }

  return {
    async createFromTemplate(input: CreateMachineInput) {
      await fault('createFromTemplate');
      if (!/^\d+$/.test(input.templateId))
        throw new HypervisorError('not_found', `template ${input.templateId} does not exist`);
      if (input.cores < 1 || input.memoryMb < 256 || input.diskGb < 1)
        throw failed('the machine size is out of range');
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
      if (current.status === 'running') throw failed(`VM ${id} already running`);
      await slow();
      await transition(id, ['stopped'], 'running', `VM ${id} already running`, boot);
    },

    async shutdown(id) {
      await fault('shutdown');
      const current = await machine(id);
      if (current.status !== 'running') throw failed(`VM ${id} not running`);
      await slow();
      await transition(id, ['running'], 'stopped', `VM ${id} not running`, async (tx, row) => {
        await stopAll(tx, row.id);
      });
    },

    async reboot(id) {
      await fault('reboot');
      const current = await machine(id);
      if (current.status !== 'running') throw failed(`VM ${id} not running`);
      await slow();
      // a reboot ends where it started: running (unless it was shut down meanwhile)
      await transition(id, ['running'], 'running', `VM ${id} not running`, boot);
    },

    async status(id): Promise<MachineStatus> {
      await fault('status');
      return (await machine(id)).status;
    },

    async resize(id, size: MachineSize) {
      await fault('resize');
      const current = await machine(id);
      if (size.diskGb < current.diskGb)
        throw failed(`shrinking disks is not supported (${current.diskGb}G to ${size.diskGb}G)`);
      if (size.cores < 1 || size.memoryMb < 256) throw failed('the machine size is out of range');
      await slow();
      const [row] = await db
        .update(simMachines)
        .set({ cores: size.cores, memoryMb: size.memoryMb, diskGb: size.diskGb })
        .where(and(eq(simMachines.id, Number(id)), isNull(simMachines.deletedAt)))
        .returning({ id: simMachines.id });
      if (!row) throw missing(id);
    },

    async delete(id) {
      await fault('delete');
      const current = await machine(id);
      if (current.status === 'running') throw failed(`VM ${id} is running - destroy failed`);
      await db
        .update(simMachines)
        .set({ deletedAt: sql`now()` })
        .where(and(eq(simMachines.id, Number(id)), isNull(simMachines.deletedAt)));
    },

    async setPassword(id, user, password) {
      await fault('setPassword');
      const current = await machine(id);
      if (current.status !== 'running') throw failed('QEMU guest agent is not running');
      if (!user || !password) throw failed('a user and a password are needed');
      // the password itself is never kept: a real machine holds it, the simulation only notes when
      await db
        .update(simMachines)
        .set({ passwordSetAt: sql`now()` })
        .where(eq(simMachines.id, current.id));
    },

    async metrics(id, timeframe) {
      await fault('metrics');
      const current = await machine(id);
      if (!Object.hasOwn(METRICS_STEP_SECONDS, timeframe))
        throw failed(`timeframe: value '${timeframe}' is not one of hour, day, week`);
      const step = METRICS_STEP_SECONDS[timeframe];
      const total = current.memoryMb * MIB;
      const created = current.createdAt.getTime() / 1000;
      const stoppedAt =
        current.status === 'stopped' ? current.statusSince.getTime() / 1000 : Infinity;
      return metricsSteps(timeframe, new Date()).map((time): MachineMetricsPoint => {
        const end = time + step;
        const existed = created < end;
        // a step the machine was off for any part of has no load (Proxmox's has a partial one)
        const load =
          existed && stoppedAt >= end ? syntheticLoad(current.id, time, step, total) : null;
        return {
          at: new Date(time * 1000),
          cpu: load?.cpu ?? null,
          memoryBytes: load?.memoryBytes ?? null,
          memoryTotalBytes: existed ? total : null,
          netInBps: load?.netInBps ?? null,
          netOutBps: load?.netOutBps ?? null,
          diskReadBps: load?.diskReadBps ?? null,
          diskWriteBps: load?.diskWriteBps ?? null,
        };
      });
    },

    async snapshots(id) {
      await fault('snapshots');
      const current = await machine(id);
      return db
        .select({
          name: simSnapshots.name,
          description: simSnapshots.description,
          createdAt: simSnapshots.createdAt,
        })
        .from(simSnapshots)
        .where(eq(simSnapshots.machineId, current.id))
        .orderBy(asc(simSnapshots.createdAt), asc(simSnapshots.id));
    },

    async createSnapshot(id, name, description) {
      await fault('createSnapshot');
      checkSnapshotName(name);
      await machine(id);
      await slow();
      await db.transaction(async (tx) => {
        // the configuration of the moment the snapshot is taken, after the delay
        const row = await machine(id, tx, true);
        const [taken] = await tx
          .insert(simSnapshots)
          .values({
            machineId: row.id,
            name,
            description,
            templateId: row.templateId,
            cores: row.cores,
            memoryMb: row.memoryMb,
            diskGb: row.diskGb,
            terminals: row.terminals,
          })
          .onConflictDoNothing()
          .returning({ id: simSnapshots.id });
        if (!taken) throw failed(`snapshot name '${name}' already used`);
      });
    },

    async rollbackSnapshot(id, name) {
      await fault('rollbackSnapshot');
      checkSnapshotName(name);
      await snapshotRow((await machine(id)).id, name);
      await slow();
      await db.transaction(async (tx) => {
        const current = await machine(id, tx, true);
        const snapshot = await snapshotRow(current.id, name, tx);
        // Proxmox stops a running machine first; a disk-only snapshot leaves it stopped
        await tx
          .update(simMachines)
          .set({
            ...statusChange('stopped'),
            templateId: snapshot.templateId,
            cores: snapshot.cores,
            memoryMb: snapshot.memoryMb,
            diskGb: snapshot.diskGb,
            terminals: snapshot.terminals,
          })
          .where(eq(simMachines.id, current.id));
        await stopAll(tx, current.id);
      });
    },

    async deleteSnapshot(id, name) {
      await fault('deleteSnapshot');
      checkSnapshotName(name);
      const current = await machine(id);
      await snapshotRow(current.id, name);
      await slow();
      const [row] = await db
        .delete(simSnapshots)
        .where(and(eq(simSnapshots.machineId, current.id), eq(simSnapshots.name, name)))
        .returning({ id: simSnapshots.id });
      if (!row) throw new HypervisorError('not_found', `snapshot '${name}' does not exist`);
    },

    async reinstall(id, input) {
      await fault('reinstall');
      const current = await machine(id);
      const running = `VM ${id} is running - shut it down before a reinstall`;
      if (current.status !== 'stopped') throw failed(running);
      if (!/^\d+$/.test(input.templateId))
        throw new HypervisorError('not_found', `template ${input.templateId} does not exist`);
      if (input.cores < 1 || input.memoryMb < 256 || input.diskGb < 1)
        throw failed('the machine size is out of range');
      await slow();
      const done = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(simMachines)
          .set({
            templateId: input.templateId,
            cores: input.cores,
            memoryMb: input.memoryMb,
            diskGb: input.diskGb,
            // a fresh disk of the template has none of the customer's terminals
            terminals: [],
            generation: sql`${simMachines.generation} + 1`,
            reinstalledAt: sql`now()`,
          })
          .where(
            and(
              eq(simMachines.id, current.id),
              isNull(simMachines.deletedAt),
              eq(simMachines.status, 'stopped'),
            ),
          )
          .returning({ id: simMachines.id });
        if (row) await stopAll(tx, row.id);
        return Boolean(row);
      });
      if (done) return;
      await machine(id); // not_found if it went away, else it was started meanwhile
      throw failed(running);
    },

    async exec(id, command) {
      await fault('exec');
      await machine(id);
      if (command.length === 0) throw failed('command or input-data (or both) required');
      return db.transaction(async (tx) => {
        // locked: a boot or a crash waits, and the listing is of one moment
        const row = await machine(id, tx, true);
        if (row.status !== 'running') throw failed(`VM ${id} is not running`);
        const processes = await tx
          .select()
          .from(simProcesses)
          .where(eq(simProcesses.machineId, row.id));
        const run = runGuestCommand(command, processes, freePid(processes.map((p) => p.pid)));
        if (run.startsTerminals) await startTerminals(tx, row, processes);
        return { exitCode: run.exitCode, stdout: run.stdout, stderr: run.stderr, truncated: false };
      });
    },

    async consoleTicket(id) {
      await fault('consoleTicket');
      const current = await machine(id);
      if (current.status !== 'running') throw failed(`VM ${id} not running`);
      // Proxmox's look: a VNC ticket, and a port of the node's VNC range (5900 and up)
      const signature = randomBytes(24).toString('base64');
      return {
        ticket: `PVEVNC:${randomBytes(4).toString('hex').toUpperCase()}::${signature}`,
        port: 5900 + randomInt(100),
        user: 'simulated@pve',
      };
    },

    /** The machine's screen is drawn in-process (rfb.ts), its handshake without authentication. */
    async openConsole(id) {
      await fault('openConsole');
      const current = await machine(id);
      if (current.status !== 'running') throw failed(`VM ${id} not running`);
      const [viewer, screen] = bytePipe();
      serveScreen(screen, { name: current.name });
      return rfbClientHandshake(viewer, undefined);
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

/**
 * Installs these terminals on a machine's disk (one image name per process, replacing what was
 * installed) and starts those not running if the machine runs, as an installer leaves them: a
 * helper for the tests and the development tools.
 */
export async function putTerminals(
  db: Executor,
  machineId: MachineId,
  images: readonly string[] = [TERMINAL_IMAGE],
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(simMachines)
      .set({ terminals: [...images] })
      .where(and(eq(simMachines.id, machineKey(machineId) ?? 0), isNull(simMachines.deletedAt)))
      .returning();
    if (!row) throw missing(machineId);
    if (row.status !== 'running') return;
    const running = await tx.select().from(simProcesses).where(eq(simProcesses.machineId, row.id));
    await startTerminals(tx, row, running);
  });
}

/**
 * Ends a running terminal as a crash does (the process is gone, the disk still has it installed):
 * the one of this image with the lowest pid, or the given pid. Answers the pid it ended, or
 * undefined when no such process ran. A helper for the tests and the development tools.
 */
export async function crashTerminal(
  db: Executor,
  machineId: MachineId,
  which: { image?: string; pid?: number } = {},
): Promise<number | undefined> {
  const key = machineKey(machineId) ?? 0;
  const [victim] = await db
    .select({ id: simProcesses.id, pid: simProcesses.pid })
    .from(simProcesses)
    .where(
      and(
        eq(simProcesses.machineId, key),
        which.pid === undefined
          ? sql`lower(${simProcesses.image}) = lower(${which.image ?? TERMINAL_IMAGE})`
          : eq(simProcesses.pid, which.pid),
      ),
    )
    .orderBy(asc(simProcesses.pid))
    .limit(1);
  if (!victim) return undefined;
  await db.delete(simProcesses).where(eq(simProcesses.id, victim.id));
  return victim.pid;
}
