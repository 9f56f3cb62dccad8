/**
 * Proxmox VE driver: the Hypervisor port over the PVE HTTP API (https://host:8006/api2/json).
 *
 * Why an API token: it is made for machines (no ticket to renew, no CSRF token to carry) and can
 * be limited to the VM privileges this driver needs. It goes in one header,
 * `Authorization: PVEAPIToken=USER@REALM!TOKENID=SECRET`, and never in a message or a log line.
 *
 * The calls and their parameters, as the PVE API viewer
 * (https://pve.proxmox.com/pve-docs/api-viewer/) defines them; the names were confirmed against
 * its generated schema, docs.rs clientapi-pve src/models/{qemu_clone_vm_request,
 * qemu_resize_vm_request,qemu_set_user_password_request,pve_nodes_tasks_status_enum}.rs
 * (paths below are under /nodes/{node}/qemu/{vmid} unless they start with '/'):
 * - GET /cluster/nextid -> "101" (a free VMID)
 * - POST {template}/clone: newid, name, full=1 -> UPID
 * - POST config: cores, memory (MiB) -> UPID, or null when nothing changed
 * - PUT resize: disk, size ("60G" absolute, "+10G" added; never smaller) -> null (PVE 7) or
 *   UPID (PVE 8)
 * - POST status/start | status/shutdown | status/reboot -> UPID
 * - GET status/current -> { status: 'running' | 'stopped', qmpstatus, ... }
 * - DELETE (the VM itself) -> UPID
 * - POST agent/set-user-password: username, password -> the agent's answer
 * - GET /nodes/{node}/tasks/{upid}/status -> { status: 'running' | 'stopped', exitstatus:
 *   'OK' or the error once stopped }
 * and for the customer's self service (names read from qemu-server's PVE/API2/Qemu.pm and
 * Qemu/Agent.pm, pve-guest-common's AbstractConfig.pm and pve-http-server's AnyEvent.pm):
 * - GET rrddata: timeframe (hour | day | week | ...), cf=AVERAGE -> [{ time (unix s), cpu (share
 *   of maxcpu), maxcpu, mem, maxmem, netin, netout, diskread, diskwrite (bytes/s), ... }], 70
 *   points; a field is missing where there is no data (the VM was off: only the max* remain)
 * - GET snapshot -> [{ name, description, snaptime (unix s), vmstate, parent }..., { name:
 *   'current', description: 'You are here!', ... }] in no order; 'current' is no snapshot
 * - POST snapshot: snapname, description -> UPID (a used name fails the task)
 * - POST snapshot/{snapname}/rollback -> UPID (it stops a running VM; without `start=1` and
 *   without RAM state the VM stays stopped; the config is the snapshot's; drives not in the
 *   snapshot become unusedN)
 * - DELETE snapshot/{snapname} -> UPID
 * - GET config (snapshot=<name> for a snapshot's) -> { cores, memory, scsi0:
 *   "local-lvm:vm-123-disk-0,size=60G", unused0: "local-lvm:vm-123-disk-1", template: 1, ... }
 * - POST config: scsi0="<storage>:0,import-from=<volume>" (PVE 7.2+) allocates a new disk copied
 *   from the volume and moves the old one to unusedN; delete="unused0,unused1" frees volumes
 *   (refused while a snapshot refers to one: "volume is still in use (snapshot?)") -> UPID
 * - POST agent/exec: command, once per argument (PVE's HTTP server makes a repeated form key an
 *   array; PVE 8 takes the program and its arguments as an array) -> { pid }
 * - GET agent/exec-status: pid -> { exited: 0 | 1, exitcode, 'out-data', 'err-data',
 *   'out-truncated', 'err-truncated' } (output decoded from the agent's base64 by PVE)
 * - POST vncproxy: websocket=1 -> { port, ticket, user, upid, cert }; its task waits a few
 *   seconds for the websocket (vncwebsocket) and is not waited for here
 * - GET vncwebsocket: port, vncticket (a websocket upgrade, with the token as every call) -> the
 *   VM's VNC server, RFB 3.8 with VNC authentication whose password is the vncticket (its first
 *   8 bytes: VNC's DES takes no more), as Proxmox's noVNC sends it on credentialsrequired. Where
 *   that was checked: vncproxy's own schema, whose `generate-password` "Generates a random
 *   password to be used as ticket instead of the API ticket" (so without it the ticket is the
 *   password), and a public relay for PVE that passes `password: vncTicket` to its VNC
 *   connection; the fake (test/proxmox-fake.ts) asks the same.
 * An agent call on a stopped VM is HTTP 500 "VM 123 is not running", and one whose agent does not
 * answer (booting, not installed) 500 "QEMU guest agent is not running": both 'failed'.
 *
 * Reinstall, as the PVE API offers no "reset the disk to the template's" call (PVE 7.2 or later,
 * for import-from): read the VM's status (it must be stopped: a running VM would take the new disk
 * as a pending change), the template's config (its `disk` volume, e.g. base-9000-disk-0) and the
 * VM's (the storage and options of its disk); POST config with cores, memory and
 * `<disk>=<storage>:0,import-from=<template volume>,<the old options>`, which copies the
 * template's disk into a new volume of the same VMID and moves the old one to unusedN; sweep the
 * unused volumes (below); resize the new disk to diskGb. A diskGb below the template's disk is
 * refused before anything changes. The VMID, the rest of the config (network, MAC address) and
 * the snapshots stay. The sweep: every unusedN volume that neither the config nor a snapshot's
 * config attaches is deleted (`delete=unusedN`); one a snapshot still needs stays until a later
 * sweep (after a rollback or a snapshot deletion) finds it free. This driver's machines are its
 * own, so an unused volume is always a leftover of a reinstall or a rollback. A sweep that fails
 * does not fail the call, whose work is done; the next sweep removes what it left.
 *
 * Every answer is wrapped in {data}; an error is an HTTP 4xx/5xx whose reason phrase carries the
 * message, with {errors: {param: message}} for a refused parameter. Bodies are sent as forms
 * (application/x-www-form-urlencoded), as pvesh and the PVE web UI send them.
 *
 * The node's certificate: Proxmox makes a self-signed one. This driver keeps TLS verification on;
 * give Node the node's CA with NODE_EXTRA_CA_CERTS (or put a trusted certificate on the node).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocket } from 'ws';
import {
  HypervisorError,
  snapshotNameProblem,
  type ConsoleStream,
  type ConsoleTicket,
  type CreateMachineInput,
  type ExecResult,
  type Hypervisor,
  type MachineId,
  type MachineMetricsPoint,
  type MachineSize,
  type MachineSnapshot,
  type MachineStatus,
  type ReinstallInput,
} from './port.ts';
import { rfbClientHandshake, socketStream } from './rfb.ts';

export interface ProxmoxSettings {
  /** "https://pve.example:8006/api2/json" */
  baseUrl: string;
  /** "USER@REALM!TOKENID" */
  tokenId: string;
  tokenSecret: string;
  /** The node the templates and machines live on. */
  node: string;
  /** How often a task's status is read. */
  pollIntervalMs: number;
  /** How long one operation (its requests and its task) may take before it is a 'timeout'. */
  timeoutMs: number;
  /** The system disk of the templates, the one `diskGb` sizes; "scsi0" unless told. */
  disk?: string;
  /** Replaces the global fetch (tests). */
  fetch?: typeof fetch;
}

/** Form parameters; an array is sent as its key repeated, which PVE reads as an array. */
type Params = Record<string, string | number | readonly string[]>;

/** One HTTP call: the method, the path under baseUrl, and its form parameters. */
interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  params?: Params;
}

/**
 * A machine id must be a VMID (100 and up): anything else cannot name a Proxmox guest. It throws
 * synchronously, so the driver's methods are async, to turn that into a rejection.
 */
function vmid(id: MachineId): string {
  if (!/^[1-9]\d{2,8}$/.test(id)) throw new HypervisorError('not_found', `no machine ${id}`);
  return id;
}

/** A task's id as Proxmox writes it: "UPID:node:pid:pstart:starttime:type:id:user:". */
export const isUpid = (value: unknown): value is string =>
  typeof value === 'string' && value.startsWith('UPID:');

/** The message of an error answer: its reason phrase, then any per-parameter errors. */
function errorMessage(response: Pick<Response, 'status' | 'statusText'>, body: unknown): string {
  const parts = [`HTTP ${response.status}`];
  if (response.statusText) parts.push(response.statusText);
  if (body && typeof body === 'object') {
    const { message, errors } = body as { message?: unknown; errors?: unknown };
    if (typeof message === 'string' && message.trim()) parts.push(message.trim());
    if (errors && typeof errors === 'object') {
      for (const [name, text] of Object.entries(errors)) parts.push(`${name}: ${String(text)}`);
    }
  }
  return parts.join(' ').replace(/\s+/g, ' ');
}

/**
 * Which kind an error answer is. Proxmox answers a missing VM with 404 from some calls and 500
 * "Configuration file ... does not exist" (or "no such VM") from others, so both are not_found.
 * 401/403 (bad token, missing privilege) and the proxy's 502/503/504 and 595 (node unreachable)
 * are 'unavailable': nothing was done and only a retry or an operator can help.
 */
function errorKind(status: number, message: string): HypervisorError['kind'] {
  if (status === 404 || /does not exist|no such vm/i.test(message)) return 'not_found';
  if ([401, 403, 502, 503, 504, 595].includes(status)) return 'unavailable';
  return 'failed';
}

function form(params: Params | undefined): URLSearchParams {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(params ?? {})) {
    if (typeof value === 'object') for (const item of value) body.append(name, item);
    else body.set(name, String(value));
  }
  return body;
}

const failed = (message: string) => new HypervisorError('failed', message);

/** The keys of a config that attach a volume (unusedN holds one that is attached to nothing). */
const ATTACHED_DRIVE = /^(ide|sata|scsi|virtio|efidisk|tpmstate)\d+$/;
const UNUSED_DRIVE = /^unused\d+$/;

/**
 * A drive's config value, "local-lvm:vm-123-disk-0,discard=on,size=60G": its volume and the
 * options after it (or undefined for an empty drive, a CD-ROM of none).
 */
function parseDrive(value: unknown): { volume: string; options: string[] } | undefined {
  if (typeof value !== 'string') return undefined;
  const [first = '', ...options] = value.split(',');
  const volume = first.replace(/^file=/, '');
  if (!volume || volume === 'none' || volume.includes('=')) return undefined;
  return { volume, options };
}

/** The `size=` option of a drive in GiB ("32G", "512M", "1T"), if it has one. */
function sizeGb(options: readonly string[]): number | undefined {
  for (const option of options) {
    const match = /^size=(\d+(?:\.\d+)?)([KMGT]?)$/.exec(option);
    if (match)
      return (
        Number(match[1]) * { K: 2 ** -20, M: 2 ** -10, G: 1, T: 1024, '': 2 ** -30 }[match[2]!]!
      );
  }
  return undefined;
}

/** A figure of an RRD point: missing (no data for that step) is null. */
function figure(value: unknown): number | null {
  const number = typeof value === 'string' && value !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : null;
}

/** One rrddata point as the port gives it; cpu is clamped to 0..1 (a busy step can round above). */
function metricsPoint(row: Record<string, unknown>): MachineMetricsPoint {
  const cpu = figure(row.cpu);
  return {
    at: new Date(Number(row.time) * 1000),
    cpu: cpu === null ? null : Math.min(1, Math.max(0, cpu)),
    memoryBytes: figure(row.mem),
    memoryTotalBytes: figure(row.maxmem),
    netInBps: figure(row.netin),
    netOutBps: figure(row.netout),
    diskReadBps: figure(row.diskread),
    diskWriteBps: figure(row.diskwrite),
  };
}

/** A snapshot name Proxmox would refuse is refused before any request. */
function checkSnapshotName(name: string): void {
  const problem = snapshotNameProblem(name);
  if (problem) throw failed(problem);
}

type Config = Record<string, unknown>;

export function createProxmoxHypervisor(settings: ProxmoxSettings): Hypervisor {
  const { node, pollIntervalMs, timeoutMs, disk = 'scsi0' } = settings;
  const doFetch = settings.fetch ?? fetch;
  const baseUrl = settings.baseUrl.replace(/\/+$/, '');
  const authorization = `PVEAPIToken=${settings.tokenId}=${settings.tokenSecret}`;
  const qemu = (id: MachineId) => `/nodes/${encodeURIComponent(node)}/qemu/${vmid(id)}`;

  /** One request, bounded by the operation's deadline; answers its `data`. */
  async function request({ method, path, params }: Call, deadline: number): Promise<unknown> {
    const body = form(params);
    // GET and DELETE carry their parameters in the query string, the others in a form body
    const inQuery = method === 'GET' || method === 'DELETE';
    const query = inQuery && params ? `?${body.toString()}` : '';
    const url = `${baseUrl}${path}${query}`;
    let response: Response;
    try {
      response = await doFetch(url, {
        method,
        headers: { authorization, accept: 'application/json' },
        body: inQuery ? undefined : body,
        signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
      });
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new HypervisorError('timeout', `Proxmox did not answer ${method} ${path} in time`);
      }
      // the cause (ECONNREFUSED, a certificate error) says why; the URL has no credential
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (error as Error).message;
      throw new HypervisorError('unavailable', `Proxmox at ${baseUrl} is unreachable: ${why}`);
    }
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // a proxy's HTML page: the status line still says what happened
    }
    if (!response.ok) {
      const message = errorMessage(response, parsed);
      throw new HypervisorError(
        errorKind(response.status, message),
        `Proxmox ${method} ${path}: ${message}`,
      );
    }
    return (parsed as { data?: unknown } | null)?.data ?? null;
  }

  /**
   * Reads `read` until `done` holds, pollIntervalMs apart (from `firstIntervalMs`, doubling up to
   * it, for what usually ends within a second); the deadline reached is `late()`, including
   * during a read: what was started may still complete.
   */
  async function pollUntil<T>(
    read: () => Promise<T>,
    done: (value: T) => boolean,
    deadline: number,
    late: () => HypervisorError,
    firstIntervalMs = pollIntervalMs,
  ): Promise<T> {
    let interval = Math.min(firstIntervalMs, pollIntervalMs);
    for (;;) {
      let value: T;
      try {
        value = await read();
      } catch (error) {
        if (error instanceof HypervisorError && error.kind === 'timeout') throw late();
        throw error;
      }
      if (done(value)) return value;
      if (Date.now() + interval >= deadline) throw late();
      await sleep(interval);
      interval = Math.min(interval * 2, pollIntervalMs);
    }
  }

  /** Reads the task until it stops; 'OK' is success, any other exit status its failure. */
  async function waitForTask(upid: string, what: string, deadline: number): Promise<void> {
    const path = `/nodes/${encodeURIComponent(node)}/tasks/${encodeURIComponent(upid)}/status`;
    const task = await pollUntil(
      async () =>
        (await request({ method: 'GET', path }, deadline)) as {
          status?: string;
          exitstatus?: string;
        } | null,
      (answer) => answer?.status === 'stopped',
      deadline,
      () =>
        new HypervisorError(
          'timeout',
          `Proxmox task ${what} did not finish within ${timeoutMs} ms (it may still complete)`,
        ),
    );
    if (task?.exitstatus === 'OK') return;
    throw failed(`Proxmox task ${what} failed: ${task?.exitstatus ?? 'no exit status'}`);
  }

  /** A call that may start a task (clone, status, delete; config and resize on newer PVE). */
  async function run(call: Call, what: string, deadline: number): Promise<void> {
    const data = await request(call, deadline);
    if (isUpid(data)) await waitForTask(data, what, deadline);
  }

  const deadlineFromNow = () => Date.now() + timeoutMs;

  async function resizeMachine(id: MachineId, size: MachineSize, deadline: number) {
    await run(
      {
        method: 'POST',
        path: `${qemu(id)}/config`,
        params: { cores: size.cores, memory: size.memoryMb },
      },
      `config of ${id}`,
      deadline,
    );
    await run(
      { method: 'PUT', path: `${qemu(id)}/resize`, params: { disk, size: `${size.diskGb}G` } },
      `resize of ${id}`,
      deadline,
    );
  }

  async function readStatus(id: MachineId, deadline: number): Promise<MachineStatus> {
    const current = (await request(
      { method: 'GET', path: `${qemu(id)}/status/current` },
      deadline,
    )) as { status?: string } | null;
    const status = current?.status;
    return status === 'running' || status === 'stopped' ? status : 'unknown';
  }

  const readConfig = async (id: MachineId, deadline: number, snapshot?: string) =>
    ((await request(
      {
        method: 'GET',
        path: `${qemu(id)}/config`,
        ...(snapshot ? { params: { snapshot } } : {}),
      },
      deadline,
    )) ?? {}) as Config;

  /**
   * The snapshots oldest first. Proxmox lists them in no order and `snaptime` counts seconds, so
   * two taken within a second are ordered by their `parent` chain (a snapshot's parent is the
   * one before it), then by name.
   */
  async function listSnapshots(id: MachineId, deadline: number): Promise<MachineSnapshot[]> {
    const answer = await request({ method: 'GET', path: `${qemu(id)}/snapshot` }, deadline);
    const rows = (Array.isArray(answer) ? (answer as Config[]) : []).filter(
      (row) => typeof row.name === 'string' && row.name !== 'current',
    );
    const parents = new Map(rows.map((row) => [row.name as string, row.parent]));
    const depth = (name: string): number => {
      let n = 0;
      for (let at = parents.get(name); typeof at === 'string' && n < parents.size; n++)
        at = parents.get(at);
      return n;
    };
    return rows
      .map((row) => ({
        name: row.name as string,
        description: typeof row.description === 'string' ? row.description : '',
        createdAt: new Date((figure(row.snaptime) ?? 0) * 1000),
      }))
      .sort(
        (a, b) =>
          a.createdAt.getTime() - b.createdAt.getTime() ||
          depth(a.name) - depth(b.name) ||
          a.name.localeCompare(b.name),
      );
  }

  /** The snapshot must exist: Proxmox would only say so from its task, as a failure. */
  async function requireSnapshot(id: MachineId, name: string, deadline: number): Promise<void> {
    checkSnapshotName(name);
    const found = (await listSnapshots(id, deadline)).some((snapshot) => snapshot.name === name);
    if (!found) throw new HypervisorError('not_found', `snapshot '${name}' does not exist`);
  }

  /** Deletes the unused volumes no snapshot refers to (see the header); never fails the call. */
  async function sweepUnused(id: MachineId, deadline: number): Promise<void> {
    try {
      const config = await readConfig(id, deadline);
      const unused = Object.keys(config).filter((key) => UNUSED_DRIVE.test(key));
      if (unused.length === 0) return;
      // attached now (a rollback leaves unusedN naming a volume it attached again) or to a
      // snapshot: Proxmox refuses to free those ("volume is still in use")
      const needed = new Set<string>();
      const need = (attached: Config) => {
        for (const [key, value] of Object.entries(attached)) {
          const volume = ATTACHED_DRIVE.test(key) ? parseDrive(value)?.volume : undefined;
          if (volume) needed.add(volume);
        }
      };
      need(config);
      for (const snapshot of await listSnapshots(id, deadline))
        need(await readConfig(id, deadline, snapshot.name));
      const free = unused.filter((key) => !needed.has(parseDrive(config[key])?.volume ?? ''));
      if (free.length === 0) return;
      await run(
        { method: 'POST', path: `${qemu(id)}/config`, params: { delete: free.join(',') } },
        `removal of ${free.join(', ')} of ${id}`,
        deadline,
      );
    } catch (error) {
      if (!(error instanceof HypervisorError)) throw error;
      // the call's own work is done; what is left here goes with the next sweep
    }
  }

  function power(action: 'start' | 'shutdown' | 'reboot') {
    return async (id: MachineId) =>
      run(
        { method: 'POST', path: `${qemu(id)}/status/${action}` },
        `${action} of ${id}`,
        deadlineFromNow(),
      );
  }

  const driver: Hypervisor = {
    /**
     * nextid, then a full clone (a linked clone would tie the customer's disk to the template),
     * then cores/memory and the disk. A failure after the clone names the new machine in the
     * error, so the caller can delete it. Two creates racing for the same nextid: the second
     * clone fails ('failed', "VM ... already exists") and can be retried.
     */
    async createFromTemplate(input: CreateMachineInput) {
      const deadline = deadlineFromNow();
      const template = vmid(input.templateId);
      const next = await request({ method: 'GET', path: '/cluster/nextid' }, deadline);
      const machineId = String(next);
      vmid(machineId);
      await run(
        {
          method: 'POST',
          path: `${qemu(template)}/clone`,
          params: { newid: machineId, name: input.name, full: 1 },
        },
        `clone of ${template} to ${machineId}`,
        deadline,
      );
      try {
        await resizeMachine(machineId, input, deadline);
      } catch (error) {
        if (error instanceof HypervisorError) {
          throw new HypervisorError(error.kind, error.message, machineId);
        }
        throw error;
      }
      return { machineId };
    },

    start: power('start'),
    shutdown: power('shutdown'),
    reboot: power('reboot'),

    status: async (id) => readStatus(id, deadlineFromNow()),

    resize: async (id, size) => resizeMachine(id, size, deadlineFromNow()),

    delete: async (id) =>
      run({ method: 'DELETE', path: qemu(id) }, `delete of ${id}`, deadlineFromNow()),

    /** Synchronous in Proxmox: the guest agent answers within the request, or the call fails. */
    async setPassword(id: MachineId, user: string, password: string) {
      await request(
        {
          method: 'POST',
          path: `${qemu(id)}/agent/set-user-password`,
          params: { username: user, password },
        },
        deadlineFromNow(),
      );
    },

    async metrics(id, timeframe) {
      const rows = await request(
        { method: 'GET', path: `${qemu(id)}/rrddata`, params: { timeframe, cf: 'AVERAGE' } },
        deadlineFromNow(),
      );
      if (!Array.isArray(rows)) throw failed(`Proxmox rrddata of ${id} is not a list`);
      return (rows as Config[])
        .filter((row) => figure(row.time) !== null)
        .map(metricsPoint)
        .sort((a, b) => a.at.getTime() - b.at.getTime());
    },

    snapshots: async (id) => listSnapshots(id, deadlineFromNow()),

    async createSnapshot(id, name, description) {
      checkSnapshotName(name);
      await run(
        {
          method: 'POST',
          path: `${qemu(id)}/snapshot`,
          params: { snapname: name, ...(description ? { description } : {}) },
        },
        `snapshot ${name} of ${id}`,
        deadlineFromNow(),
      );
    },

    async rollbackSnapshot(id, name) {
      const deadline = deadlineFromNow();
      await requireSnapshot(id, name, deadline);
      await run(
        {
          method: 'POST',
          path: `${qemu(id)}/snapshot/${encodeURIComponent(name)}/rollback`,
        },
        `rollback of ${id} to ${name}`,
        deadline,
      );
      // the drives that were not in the snapshot (a reinstalled disk) are now unused
      await sweepUnused(id, deadline);
    },

    async deleteSnapshot(id, name) {
      const deadline = deadlineFromNow();
      await requireSnapshot(id, name, deadline);
      await run(
        { method: 'DELETE', path: `${qemu(id)}/snapshot/${encodeURIComponent(name)}` },
        `deletion of snapshot ${name} of ${id}`,
        deadline,
      );
      // a volume only this snapshot still needed (the disk before a reinstall) can go now
      await sweepUnused(id, deadline);
    },

    async reinstall(id: MachineId, input: ReinstallInput) {
      const deadline = deadlineFromNow();
      const template = vmid(input.templateId);
      const status = await readStatus(id, deadline);
      if (status !== 'stopped')
        throw failed(`VM ${id} is ${status} - shut it down before a reinstall`);
      const source = await readConfig(template, deadline);
      if (!source.template || source.template === '0')
        throw failed(`VM ${template} is not a template`);
      const sourceDisk = parseDrive(source[disk]);
      if (!sourceDisk) throw failed(`template ${template} has no disk ${disk}`);
      // the copy is the template's size and can only grow: refused before anything changes
      const templateGb = sizeGb(sourceDisk.options);
      if (templateGb !== undefined && input.diskGb < templateGb)
        throw failed(
          `the disk of template ${template} is ${templateGb}G, more than ${input.diskGb}G`,
        );
      const current = parseDrive((await readConfig(id, deadline))[disk]);
      if (!current) throw failed(`VM ${id} has no disk ${disk}`);
      const storage = current.volume.split(':')[0]!;
      // the disk's own options (discard, iothread, ...) stay; its size is the copy's
      const options = current.options.filter((option) => !/^(size|import-from)=/.test(option));
      await run(
        {
          method: 'POST',
          path: `${qemu(id)}/config`,
          params: {
            cores: input.cores,
            memory: input.memoryMb,
            [disk]: [`${storage}:0`, `import-from=${sourceDisk.volume}`, ...options].join(','),
          },
        },
        `copy of ${template}'s ${disk} to ${id}`,
        deadline,
      );
      await sweepUnused(id, deadline);
      await run(
        { method: 'PUT', path: `${qemu(id)}/resize`, params: { disk, size: `${input.diskGb}G` } },
        `resize of ${id}`,
        deadline,
      );
    },

    /**
     * exec, then exec-status until the process has exited: first after 100 ms, as tasklist and
     * schtasks end within a second, then slower up to pollIntervalMs.
     */
    async exec(id, command, options = {}): Promise<ExecResult> {
      const deadline = Date.now() + (options.timeoutMs ?? timeoutMs);
      const agent = `${qemu(id)}/agent`;
      if (command.length === 0) throw failed('command or input-data (or both) required');
      const started = (await request(
        { method: 'POST', path: `${agent}/exec`, params: { command } },
        deadline,
      )) as { pid?: unknown } | null;
      const pid = figure(started?.pid);
      if (pid === null) throw failed(`the guest agent of ${id} gave the command no pid`);
      const end = (await pollUntil(
        async () =>
          (await request(
            { method: 'GET', path: `${agent}/exec-status`, params: { pid } },
            deadline,
          )) as Config | null,
        (status) => status?.exited === 1 || status?.exited === true,
        deadline,
        () =>
          new HypervisorError(
            'timeout',
            `the command ${command[0]} on ${id} did not exit in time (it may still be running)`,
          ),
        100,
      ))!;
      const text = (value: unknown) => (typeof value === 'string' ? value : '');
      return {
        exitCode: figure(end.exitcode) ?? -1,
        stdout: text(end['out-data']),
        stderr: text(end['err-data']),
        truncated: Boolean(end['out-truncated'] || end['err-truncated']),
      };
    },

    consoleTicket: async (id) => vncProxy(id, deadlineFromNow()),

    /**
     * vncproxy, then the node's websocket to it and the RFB handshake, all within the driver's
     * timeout (Proxmox's proxy waits about ten seconds for the websocket).
     */
    async openConsole(id) {
      const deadline = deadlineFromNow();
      const ticket = await vncProxy(id, deadline);
      const socket = await vncSocket(id, ticket, deadline);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => {
            socket.close();
            reject(new HypervisorError('timeout', `the console of ${id} did not open in time`));
          },
          Math.max(1, deadline - Date.now()),
        );
      });
      try {
        return await Promise.race([rfbClientHandshake(socket, ticket.ticket), late]);
      } finally {
        clearTimeout(timer);
      }
    },
  };

  return driver;

  async function vncProxy(id: MachineId, deadline: number): Promise<ConsoleTicket> {
    // vncproxy answers for a stopped VM too, and its task fails only when the relay connects
    if ((await readStatus(id, deadline)) !== 'running') throw failed(`VM ${id} not running`);
    const proxy = (await request(
      { method: 'POST', path: `${qemu(id)}/vncproxy`, params: { websocket: 1 } },
      deadline,
    )) as Config | null;
    const port = figure(proxy?.port);
    if (typeof proxy?.ticket !== 'string' || port === null)
      throw failed(`Proxmox vncproxy of ${id} answered no ticket`);
    return { ticket: proxy.ticket, port, user: typeof proxy.user === 'string' ? proxy.user : '' };
  }

  /**
   * The node's websocket to the VM's VNC proxy (`vncwebsocket?port=&vncticket=`), with the API
   * token and the node's TLS as every other request (the certificate checked against Node's CAs
   * and NODE_EXTRA_CA_CERTS), its frames binary (the 'binary' subprotocol noVNC asks for too). A
   * refusal is classed as an HTTP answer is; the URL, which holds the ticket, is never in a
   * message.
   */
  function vncSocket(
    id: MachineId,
    ticket: ConsoleTicket,
    deadline: number,
  ): Promise<ConsoleStream> {
    const url = new URL(`${baseUrl}${qemu(id)}/vncwebsocket`);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('port', String(ticket.port));
    url.searchParams.set('vncticket', ticket.ticket);
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, ['binary'], {
        headers: { authorization },
        handshakeTimeout: Math.max(1, deadline - Date.now()),
      });
      // listening from the start: the VNC server's first bytes may come with the upgrade's answer
      const stream = socketStream(socket);
      let settled = false;
      const settle = (error?: HypervisorError) => {
        if (settled) return;
        settled = true;
        if (error) reject(error);
        else resolve(stream);
      };
      socket.once('open', () => settle());
      socket.once('unexpected-response', (upgrade, response) => {
        const message = errorMessage(
          { status: response.statusCode ?? 0, statusText: response.statusMessage ?? '' },
          null,
        );
        response.resume();
        upgrade.destroy();
        settle(
          new HypervisorError(
            errorKind(response.statusCode ?? 0, message),
            `Proxmox vncwebsocket of ${id}: ${message}`,
          ),
        );
      });
      socket.on('error', (error) => {
        const timedOut = /timed out/i.test(error.message);
        const code = (error as { code?: string }).code;
        settle(
          new HypervisorError(
            timedOut ? 'timeout' : 'unavailable',
            timedOut
              ? `Proxmox did not open the console of ${id} in time`
              : `Proxmox at ${baseUrl} is unreachable: ${code ?? error.message}`,
          ),
        );
      });
    });
  }
}
