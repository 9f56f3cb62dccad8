/**
 * The hypervisor port: what the server lifecycle asks of the machine that runs a customer's VPS.
 *
 * Why one small interface: the lifecycle (order, renew, reboot, expire) and the customer's self
 * service (charts, snapshots, reinstall, the web console, the terminal guardian) must not know
 * whether a server is a row the simulated driver completes after a delay or a Proxmox VE guest, so
 * both drivers answer the same calls with the same failure kinds.
 *
 * Semantics every driver keeps:
 * - A call returns only when the operation is done on the hypervisor (a started machine is
 *   started, a deleted one is gone); there is no "accepted, check later" answer.
 * - Otherwise it throws a HypervisorError whose `kind` says what the caller may believe:
 *   - 'failed': the hypervisor ran or refused the operation and it did not happen (a failed task,
 *     a refused parameter, a guest agent that is not running). Retrying as-is fails again.
 *   - 'timeout': the operation was asked for but its end was not seen in time. It may still
 *     complete: the machine's state is unknown until `status` is read again.
 *   - 'not_found': the machine (or the template) does not exist on the hypervisor.
 *   - 'unavailable': the hypervisor could not be reached or refused our credentials; nothing was
 *     done, and a retry later (or an operator fixing the settings) may succeed.
 * - `message` is honest and short enough to show an operator; it never carries a credential.
 */

/** The hypervisor's own id of a machine (a Proxmox VMID as a string). */
export type MachineId = string;

/** What a new machine is cloned from and how large it is. */
export interface CreateMachineInput {
  /** The hypervisor's id of the template (a Proxmox template VMID as a string). */
  templateId: string;
  /** The machine's name on the hypervisor (Proxmox wants a DNS name: letters, digits, '-', '.'). */
  name: string;
  cores: number;
  memoryMb: number;
  /** The system disk's absolute size; it only grows (Proxmox cannot shrink a disk). */
  diskGb: number;
}

/** A machine's size after a resize: all three are absolute values, not increments. */
export interface MachineSize {
  cores: number;
  memoryMb: number;
  /** Must be at least the current size: disks only grow. */
  diskGb: number;
}

/**
 * What the hypervisor says of a machine: 'unknown' for anything else (paused, suspended,
 * migrating), which the caller must not read as either.
 */
export type MachineStatus = 'running' | 'stopped' | 'unknown';

/** How far back `metrics` looks; each has Proxmox's RRD resolution (see METRICS_STEP_SECONDS). */
export type MetricsTimeframe = 'hour' | 'day' | 'week';

/**
 * Seconds between two points of a timeframe, 70 points each, as Proxmox's RRD keeps them: an
 * hour of minutes, a day of half hours, a week of three hours.
 */
export const METRICS_STEP_SECONDS: Readonly<Record<MetricsTimeframe, number>> = {
  hour: 60,
  day: 1800,
  week: 10_800,
};
export const METRICS_POINTS = 70;

/**
 * One point of a machine's load, averaged over its step. A figure is null where the hypervisor
 * has none: the machine was off (load and traffic are null, the totals stay) or did not exist yet
 * (all null). A chart draws a gap there rather than a zero.
 */
export interface MachineMetricsPoint {
  /** The start of the step. */
  at: Date;
  /** The share of all the machine's cores in use, 0..1. */
  cpu: number | null;
  memoryBytes: number | null;
  memoryTotalBytes: number | null;
  netInBps: number | null;
  netOutBps: number | null;
  diskReadBps: number | null;
  diskWriteBps: number | null;
}

/** A disk-only snapshot (no RAM state): a rollback to it leaves the machine stopped. */
export interface MachineSnapshot {
  name: string;
  description: string;
  createdAt: Date;
}

/** Proxmox's snapshot names (pve-configid, at most 40 characters). */
export const SNAPSHOT_NAME = /^[A-Za-z][A-Za-z0-9_-]{1,39}$/;

/**
 * Why Proxmox would refuse a snapshot name, or undefined for a good one. 'current' names the
 * machine's present state in Proxmox's list and 'pending' its pending changes, so neither can
 * name a snapshot. Both drivers refuse such a name as 'failed' before doing anything, for every
 * snapshot call: such a snapshot cannot exist.
 */
export function snapshotNameProblem(name: string): string | undefined {
  if (!SNAPSHOT_NAME.test(name))
    return `invalid snapshot name '${name}': a letter, then 1 to 39 letters, digits, '_' or '-'`;
  if (name === 'current' || name.toLowerCase() === 'pending')
    return `unable to use snapshot name '${name}' (reserved name)`;
  return undefined;
}

/** What a reinstall puts on the machine: the template's system disk, at this size. */
export interface ReinstallInput {
  /** The hypervisor's id of the template whose system disk is copied. */
  templateId: string;
  cores: number;
  memoryMb: number;
  /** The new system disk's size; at least the template's own disk. */
  diskGb: number;
}

export interface ExecOptions {
  /** How long the command may run before the call is a 'timeout' (the driver's own limit). */
  timeoutMs?: number;
}

/** A guest command's end, as the guest agent reports it. */
export interface ExecResult {
  /** The process's exit code; -1 when the guest reports none (it was killed). */
  exitCode: number;
  stdout: string;
  stderr: string;
  /**
   * The guest agent kept only the start of stdout or stderr (QEMU's agent caps what it
   * captures): a listing read from it may miss its last lines, so the caller must not conclude
   * anything from an absence.
   */
  truncated: boolean;
}

/**
 * What opens the machine's screen: Proxmox's VNC proxy waiting on `port` of the node for a
 * websocket (vncwebsocket?port=&vncticket=) authenticated by `ticket`, issued to `user`. It waits
 * a few seconds only, so a ticket is asked for just before the relay connects.
 */
export interface ConsoleTicket {
  ticket: string;
  port: number;
  user: string;
}

/**
 * The machine's screen as an RFB (VNC, RFC 6143) byte stream, already past the version and
 * security handshake: the next bytes the machine expects are the client's ClientInit, after which
 * it answers ServerInit and serves the screen. Whoever holds it speaks RFB 3.8 from there on (the
 * relay passes the browser's bytes through). Bytes that arrive before a data listener is attached
 * are kept for it; `onClose` fires once, when either side ends the stream.
 */
export interface ConsoleStream {
  write(bytes: Uint8Array): void;
  onData(listener: (bytes: Buffer) => void): void;
  onClose(listener: () => void): void;
  close(): void;
}

export type HypervisorErrorKind = 'failed' | 'timeout' | 'not_found' | 'unavailable';

/** A hypervisor operation that did not (or not visibly) complete; see the kinds above. */
export class HypervisorError extends Error {
  readonly kind: HypervisorErrorKind;
  /**
   * The machine the operation left behind, when it is not the one the caller named: a create
   * whose clone succeeded and whose later steps failed, so the caller can delete it.
   */
  readonly machineId: MachineId | undefined;

  constructor(kind: HypervisorErrorKind, message: string, machineId?: MachineId) {
    super(message);
    this.name = 'HypervisorError';
    this.kind = kind;
    this.machineId = machineId;
  }
}

export const isHypervisorError = (error: unknown): error is HypervisorError =>
  error instanceof HypervisorError;

/** One hypervisor; every call returns when done or throws a HypervisorError. */
export interface Hypervisor {
  /** Clones the template into a new machine of this size, left stopped. */
  createFromTemplate(input: CreateMachineInput): Promise<{ machineId: MachineId }>;
  /** Boots a stopped machine. */
  start(id: MachineId): Promise<void>;
  /** Asks the guest OS to shut down (ACPI) and waits until it has. */
  shutdown(id: MachineId): Promise<void>;
  /** Asks the guest OS to reboot and waits until the hypervisor reports it done. */
  reboot(id: MachineId): Promise<void>;
  status(id: MachineId): Promise<MachineStatus>;
  /** Sets cores and memory (applied on the next boot if running) and grows the disk. */
  resize(id: MachineId, size: MachineSize): Promise<void>;
  /** Destroys the machine and its disks; a running machine must be shut down first. */
  delete(id: MachineId): Promise<void>;
  /** Sets a guest OS user's password through the guest agent; the machine must be running. */
  setPassword(id: MachineId, user: string, password: string): Promise<void>;

  /**
   * The machine's load over the timeframe: METRICS_POINTS points METRICS_STEP_SECONDS apart,
   * oldest first, with nulls where the machine was off or did not exist yet.
   */
  metrics(id: MachineId, timeframe: MetricsTimeframe): Promise<MachineMetricsPoint[]>;
  /** The machine's snapshots, oldest first. */
  snapshots(id: MachineId): Promise<MachineSnapshot[]>;
  /**
   * Takes a disk-only snapshot of the machine, running or not. A name Proxmox would refuse
   * (snapshotNameProblem) or one already used is 'failed'.
   */
  createSnapshot(id: MachineId, name: string, description: string): Promise<void>;
  /**
   * Returns the machine's disk and configuration (cores, memory, disk size) to the snapshot's: a
   * running machine is stopped first and stays stopped. A missing snapshot is 'not_found'.
   */
  rollbackSnapshot(id: MachineId, name: string): Promise<void>;
  /** Deletes a snapshot; the machine's present state is not touched. Missing: 'not_found'. */
  deleteSnapshot(id: MachineId, name: string): Promise<void>;
  /**
   * Replaces the system disk with a fresh copy of the template's, at the given size, and sets
   * cores and memory. The machine keeps its id (its RDP address derives from it), its other
   * configuration and its snapshots (a rollback still returns to a snapshot's disk); what was
   * installed on the old disk (the terminals) is gone. The machine must be stopped ('failed'
   * otherwise) and is left stopped; a missing template is 'not_found'.
   */
  reinstall(id: MachineId, input: ReinstallInput): Promise<void>;
  /**
   * Runs a program in the guest through the guest agent and waits for it to exit: `command` is
   * the program and its arguments, passed as they are (no shell). A stopped machine or a guest
   * agent that is not (yet) running is 'failed'; a program still running at the deadline is a
   * 'timeout' (it may still be running in the guest).
   */
  exec(id: MachineId, command: string[], options?: ExecOptions): Promise<ExecResult>;
  /** A ticket for the machine's screen (see ConsoleTicket); the machine must be running. */
  consoleTicket(id: MachineId): Promise<ConsoleTicket>;
  /**
   * Opens the machine's screen (see ConsoleStream): the ticket, the connection and the RFB
   * handshake with the hypervisor's authentication. A stopped machine is 'failed', a refused
   * handshake 'failed' or 'unavailable' (credentials), one that does not end in time 'timeout'.
   */
  openConsole(id: MachineId): Promise<ConsoleStream>;
}
