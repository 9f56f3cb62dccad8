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
 *
 * Every answer is wrapped in {data}; an error is an HTTP 4xx/5xx whose reason phrase carries the
 * message, with {errors: {param: message}} for a refused parameter. Bodies are sent as forms
 * (application/x-www-form-urlencoded), as pvesh and the PVE web UI send them.
 *
 * The node's certificate: Proxmox makes a self-signed one. This driver keeps TLS verification on;
 * give Node the node's CA with NODE_EXTRA_CA_CERTS (or put a trusted certificate on the node).
 */
import {
  HypervisorError,
  type CreateMachineInput,
  type Hypervisor,
  type MachineId,
  type MachineSize,
  type MachineStatus,
} from './port.ts';

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

type Params = Record<string, string | number>;

/** One HTTP call: the method, the path under baseUrl, and its form parameters. */
interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  params?: Params;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

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
function errorMessage(response: Response, body: unknown): string {
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
  for (const [name, value] of Object.entries(params ?? {})) body.set(name, String(value));
  return body;
}

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

  /** Reads the task until it stops; 'OK' is success, any other exit status its failure. */
  async function waitForTask(upid: string, what: string, deadline: number): Promise<void> {
    const path = `/nodes/${encodeURIComponent(node)}/tasks/${encodeURIComponent(upid)}/status`;
    const stillRunning = () =>
      new HypervisorError(
        'timeout',
        `Proxmox task ${what} did not finish within ${timeoutMs} ms (it may still complete)`,
      );
    for (;;) {
      let task: { status?: string; exitstatus?: string } | null;
      try {
        task = (await request({ method: 'GET', path }, deadline)) as typeof task;
      } catch (error) {
        // the deadline ran out while reading the task: the task started and may still complete
        if (error instanceof HypervisorError && error.kind === 'timeout') throw stillRunning();
        throw error;
      }
      if (task?.status === 'stopped') {
        if (task.exitstatus === 'OK') return;
        throw new HypervisorError(
          'failed',
          `Proxmox task ${what} failed: ${task.exitstatus ?? 'no exit status'}`,
        );
      }
      if (Date.now() + pollIntervalMs >= deadline) throw stillRunning();
      await sleep(pollIntervalMs);
    }
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

  function power(action: 'start' | 'shutdown' | 'reboot') {
    return async (id: MachineId) =>
      run(
        { method: 'POST', path: `${qemu(id)}/status/${action}` },
        `${action} of ${id}`,
        deadlineFromNow(),
      );
  }

  return {
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

    async status(id: MachineId): Promise<MachineStatus> {
      const current = (await request(
        { method: 'GET', path: `${qemu(id)}/status/current` },
        deadlineFromNow(),
      )) as { status?: string } | null;
      const status = current?.status;
      return status === 'running' || status === 'stopped' ? status : 'unknown';
    },

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
  };
}
