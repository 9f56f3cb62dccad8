/**
 * The hypervisor port: what the server lifecycle asks of the machine that runs a customer's VPS.
 *
 * Why one small interface: the lifecycle (order, renew, reboot, expire) must not know whether a
 * server is a row the simulated driver completes after a delay or a Proxmox VE guest, so both
 * drivers answer the same eight calls with the same failure kinds.
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
}
