import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer } from 'ws';
import {
  METRICS_STEP_SECONDS,
  type MetricsTimeframe,
} from '../src/integrations/hypervisor/port.ts';
import {
  serveScreen,
  socketStream,
  type ScreenSession,
} from '../src/integrations/hypervisor/rfb.ts';
import { metricsSteps, syntheticLoad } from '../src/integrations/hypervisor/synthetic-load.ts';
import {
  TERMINAL_IMAGE,
  freePid,
  runGuestCommand,
  terminalsToStart,
  type GuestProcess,
} from '../src/integrations/hypervisor/windows-guest.ts';

/**
 * A Proxmox VE node on loopback, for the hypervisor driver's tests and local development. It
 * speaks the API the driver uses (`/api2/json/...`, an API token in `Authorization:
 * PVEAPIToken=USER@REALM!TOKENID=SECRET`, form bodies with a repeated key for an array, `{data}`
 * answers, an error as its HTTP status with the message as reason phrase, plus `{errors: {param:
 * message}}` for a refused parameter) and keeps the state behind it: VMs with their config
 * (cores, memory, name, the system disk's volume and size, unusedN, the template flag), their
 * power, snapshots, the storage's volumes, tasks, the RRD history, a guest agent per VM and a
 * Windows guest (windows-guest.ts: the processes, tasklist and schtasks), the VNC tickets
 * handed out and the screens opened with them. The terminals installed are data on a volume: a clone or an import copies them
 * with the disk, a snapshot keeps the disk's, a rollback restores them.
 *
 * A task's work happens when it stops: it answers 'running' to `taskReads` status reads first
 * (1 by default), then does its work and stops with exitstatus 'OK', or with the error that work
 * raised (the messages are Proxmox's own, from qemu-server and pve-guest-common). A refusal that
 * Proxmox makes before it starts a task (a running VM's destroy, a bad parameter) is the HTTP
 * error instead.
 *
 * Its awkward habits, as named scenarios: a task that never finishes (`taskNeverEnds`), a task
 * that ends with an error exit status (`taskFails`), a guest agent that does not answer right
 * after boot (`agentBootCalls`, `agentNotReady`), the proxy's 595 when the node is unreachable
 * (`unreachable`), RRD data with gaps where the VM was off (`wasOff`, and every real stop),
 * output the agent cut short (`truncateOutput`), a command that never exits (`commandsHang`),
 * PVE 7's synchronous resize (`pveVersion`), a VM that stops between its vncproxy and the
 * websocket (`stopsBeforeConsole`), vncproxy tickets that have aged past their few seconds
 * (`ageVncTickets`) and screens that drop mid-session (`dropConsoles`).
 *
 * The screen: `vncwebsocket` upgrades to a websocket only with the API token, a vncticket this
 * node issued for that VM and port, unused and at most VNC_TICKET_SECONDS old (Proxmox's proxy
 * waits that long, then is gone), and the 'binary' subprotocol when one is asked; else it answers
 * the HTTP error Proxmox would. Through it the VM's screen (rfb.ts's sign-in screen) speaks RFB
 * 3.8 with VNC authentication whose password is the ticket; a VM that is not running closes the
 * socket at once, as Proxmox's proxy does when it cannot reach QEMU.
 *
 * Simplification: a disk change of a running VM is refused (Proxmox would hot-plug it or keep it
 * pending); cores and memory of a running VM are pending until its next boot, as in Proxmox.
 *
 * Run it alone (local development):
 *   node apps/api/test/proxmox-fake.ts [port]
 */

export interface ProxmoxFakeOptions {
  port?: number;
  node?: string;
  tokenId?: string;
  tokenSecret?: string;
  /** The storage of the VMs' disks. */
  storage?: string;
  /** Status reads a task answers 'running' before it stops (1 unless told). */
  taskReads?: number;
  /** exec-status reads that answer "not exited yet" before the command's end (1 unless told). */
  execReads?: number;
  /** Agent calls after each boot answered "QEMU guest agent is not running" (0 unless told). */
  agentBootCalls?: number;
  /** 7: resize answers null, done at once; 8 (the default): resize is a task. */
  pveVersion?: 7 | 8;
}

/** One request the node received, its parameters as PVE reads them (a repeated key an array). */
export interface ProxmoxRequest {
  method: string;
  path: string;
  params: Record<string, string | string[]>;
}

type Config = Record<string, string | number>;

interface Snapshot {
  snaptime: number;
  description: string;
  config: Config;
  /** The terminals installed on each of the VM's volumes at that moment (the disks' content). */
  disks: Map<string, string[]>;
}

interface Volume {
  sizeGb: number;
  /** The terminals installed on it: what the logon task of a VM booting from it starts. */
  terminals: string[];
}

interface Exec {
  readsLeft: number;
  exitcode: number;
  out: string;
  err: string;
  truncated: boolean;
}

interface Vm {
  vmid: number;
  config: Config;
  /** Cores and memory set while running, applied at the next boot. */
  pending: Config;
  running: boolean;
  createdAt: number;
  /** Power changes (unix s), for rrddata. */
  power: { at: number; running: boolean }[];
  /** Spans (unix s) the RRD has no load for (`wasOff`). */
  gaps: { from: number; to: number }[];
  snapshots: Map<string, Snapshot>;
  parent: string | undefined;
  processes: GuestProcess[];
  agentDown: number;
  execs: Map<number, Exec>;
  truncateAt: number | undefined;
  execsHang: boolean;
}

interface Task {
  upid: string;
  type: string;
  id: string;
  starttime: number;
  readsLeft: number;
  never: boolean;
  /** The work done when the task stops; what it throws is the exit status. */
  work: () => void;
  status: 'running' | 'stopped';
  exitstatus?: string;
}

/** An error answer: the status, the reason phrase, and per-parameter errors for a 400. */
class PveError extends Error {
  readonly status: number;
  readonly errors: Record<string, string> | undefined;

  constructor(status: number, message: string, errors?: Record<string, string>) {
    super(message);
    this.status = status;
    this.errors = errors;
  }
}

const die = (message: string) => new PveError(500, message);
const badParams = (errors: Record<string, string>) =>
  new PveError(400, 'Parameter verification failed.', errors);

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;
const CONFIG_ID = /^[a-z][a-z0-9_-]+$/i;
const DNS_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i;
const DRIVE = /^(ide|sata|scsi|virtio|efidisk|tpmstate)\d+$/;
const UNUSED = /^unused\d+$/;
/** What pveproxy answers (with status 595) when it cannot reach the node a request is for. */
const UNREACHABLE = 'Errors during connection establishment, proxy handshake: No route to host';
const nowSeconds = () => Math.floor(Date.now() / 1000);
/** How long a vncproxy waits for its websocket (Proxmox's: about ten seconds). */
export const VNC_TICKET_SECONDS = 10;

/** "60G" of a drive's `size=` option as GiB. */
function driveSizeGb(value: string | number | undefined): number {
  const match = /(?:^|,)size=(\d+(?:\.\d+)?)([KMGT]?)/.exec(String(value ?? ''));
  if (!match) return 0;
  const factor = { K: 1 / MIB, M: 1 / 1024, G: 1, T: 1024, '': 1 / GIB }[match[2]!]!;
  return Number(match[1]) * factor;
}

const volumeOf = (value: string | number | undefined) =>
  String(value ?? '')
    .split(',')[0]!
    .replace(/^file=/, '');

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Form or query parameters as PVE's HTTP server decodes them: a repeated key is an array. */
function decodeForm(text: string, into: Record<string, string | string[]>): void {
  for (const [key, value] of new URLSearchParams(text)) {
    const old = into[key];
    into[key] = old === undefined ? value : [...(Array.isArray(old) ? old : [old]), value];
  }
}

export class ProxmoxFake {
  /** Every API request, in order. */
  readonly requests: ProxmoxRequest[] = [];
  /** The VNC proxies handed out: VM, port, ticket, when (unix ms) and whether a socket took it. */
  readonly vncTickets: {
    vmid: number;
    port: number;
    ticket: string;
    issuedAt: number;
    used: boolean;
  }[] = [];
  /** The screens opened through vncwebsocket, with what their viewers sent. */
  readonly consoles: { vmid: number; screen: ScreenSession }[] = [];
  readonly node: string;
  readonly tokenId: string;
  readonly tokenSecret: string;
  /** The driver's base URL (`.../api2/json`), once started. */
  url = '';

  private readonly options: ProxmoxFakeOptions;
  private readonly storage: string;
  private readonly vms = new Map<number, Vm>();
  /** The storage's volumes by volume id ("local-lvm:vm-100-disk-0"). */
  private readonly volumes = new Map<string, Volume>();
  private readonly tasks = new Map<string, Task>();
  private readonly taskScenarios: { type: string | undefined; never?: true; error?: string }[] = [];
  private unreachableLeft = 0;
  private taskCounter = 0;
  private server: Server | undefined;
  private readonly sockets = new WebSocketServer({ noServer: true });
  private readonly stopsAtConsole = new Set<number>();
  private vncTicketAgeMs = 0;

  constructor(options: ProxmoxFakeOptions = {}) {
    this.options = options;
    this.node = options.node ?? 'pve1';
    this.tokenId = options.tokenId ?? 'tradehost@pve!console';
    this.tokenSecret = options.tokenSecret ?? '0b9c4f5e-1111-4222-8333-944455556666';
    this.storage = options.storage ?? 'local-lvm';
  }

  async start(): Promise<this> {
    const server = createServer((request, response) => void this.handle(request, response));
    server.on('upgrade', (request, socket: Socket, head) => this.upgrade(request, socket, head));
    this.server = server.listen(this.options.port ?? 0, '127.0.0.1');
    await once(server, 'listening');
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api2/json`;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server?.listening) return;
    // the driver's fetch keeps connections alive, and screens may be open: both would hold
    // close() open
    for (const socket of this.sockets.clients) socket.terminate();
    server.closeAllConnections();
    await Promise.all([once(server, 'close'), server.close()]);
  }

  /** A Windows template to clone VMs from (its disk a base volume, as `qm template` makes). */
  addTemplate(
    vmid: number,
    template: { name?: string; cores?: number; memoryMb?: number; diskGb?: number } = {},
  ): this {
    const volume = `${this.storage}:base-${vmid}-disk-0`;
    const diskGb = template.diskGb ?? 32;
    this.volumes.set(volume, { sizeGb: diskGb, terminals: [] });
    this.vms.set(
      vmid,
      this.newVm(vmid, {
        name: template.name ?? `win2022-mt5-${vmid}`,
        cores: template.cores ?? 2,
        memory: template.memoryMb ?? 4096,
        ostype: 'win11',
        agent: '1',
        scsihw: 'virtio-scsi-single',
        scsi0: `${volume},discard=on,iothread=1,size=${diskGb}G`,
        net0: `virtio=BC:24:11:00:${(vmid >> 8) & 0xff}:${vmid & 0xff},bridge=vmbr0`,
        template: 1,
      }),
    );
    return this;
  }

  /** What a VM is now: its config (pending applied), power, snapshots, processes; for checks. */
  vm(vmid: number) {
    const vm = this.vms.get(vmid);
    if (!vm) return undefined;
    return {
      config: { ...vm.config, ...vm.pending },
      running: vm.running,
      snapshots: [...vm.snapshots.keys()],
      installed: [...this.systemDisk(vm).terminals],
      processes: vm.processes.map((p) => ({ ...p })),
    };
  }

  /** The storage's volumes, e.g. "local-lvm:vm-100-disk-1". */
  volumeList(): string[] {
    return [...this.volumes.keys()];
  }

  // --- the guest ---

  /** Installs terminals on the VM's disk (replacing what was) and starts them if it runs. */
  installTerminals(vmid: number, images: readonly string[] = [TERMINAL_IMAGE]): void {
    const vm = this.mustVm(vmid);
    this.systemDisk(vm).terminals = [...images];
    if (vm.running) this.startTerminals(vm);
  }

  /** A terminal crashes: its process is gone (the lowest pid of the image). Answers its pid. */
  crashTerminal(vmid: number, image = TERMINAL_IMAGE): number | undefined {
    const vm = this.mustVm(vmid);
    const victim = vm.processes
      .filter((p) => p.image.toLowerCase() === image.toLowerCase())
      .sort((a, b) => a.pid - b.pid)[0];
    if (!victim) return undefined;
    vm.processes = vm.processes.filter((p) => p !== victim);
    return victim.pid;
  }

  // --- named scenarios ---

  /** The next task (of this type, e.g. 'qmshutdown': a guest ignoring ACPI) runs forever. */
  taskNeverEnds(type?: string): void {
    this.taskScenarios.push({ type, never: true });
  }

  /** The next task of this type (e.g. 'qmclone') stops with this exit status, its work undone. */
  taskFails(type: string, exitstatus: string): void {
    this.taskScenarios.push({ type, error: exitstatus });
  }

  /** The VM's guest agent answers the next `calls` agent calls "not running" (still booting). */
  agentNotReady(vmid: number, calls: number): void {
    this.mustVm(vmid).agentDown = calls;
  }

  /**
   * The next `requests` requests get the proxy's 595: pveproxy could not reach the node the
   * request is for (it is down, or the cluster network is).
   */
  unreachable(requests = 1): void {
    this.unreachableLeft = requests;
  }

  /** The RRD has no load for the VM between these times (it was off, or pvestatd was). */
  wasOff(vmid: number, from: Date, to: Date): void {
    this.mustVm(vmid).gaps.push({ from: from.getTime() / 1000, to: to.getTime() / 1000 });
  }

  /**
   * The VM's agent keeps only `bytes` of a command's stdout and stderr and says so
   * (`out-truncated`), as qemu-ga does past its capture limit.
   */
  truncateOutput(vmid: number, bytes: number): void {
    this.mustVm(vmid).truncateAt = bytes;
  }

  /** The VM's next commands never exit (a program waiting for input, a hung guest). */
  commandsHang(vmid: number, hang = true): void {
    this.mustVm(vmid).execsHang = hang;
  }

  /**
   * The VM's history moves `seconds` back: created, and powered on and off, that much earlier
   * (a VM started just now has run for that long), so rrddata has a past to show.
   */
  backdate(vmid: number, seconds: number): void {
    const vm = this.mustVm(vmid);
    vm.createdAt -= seconds;
    for (const change of vm.power) change.at -= seconds;
  }

  /** The VM stops right as its next vncwebsocket arrives (after its vncproxy answered). */
  stopsBeforeConsole(vmid: number): void {
    this.stopsAtConsole.add(vmid);
  }

  /**
   * The vncproxy tickets, those handed out and those to come, are `seconds` older: the caller is
   * that slow to come back with the websocket, and the proxies may be gone.
   */
  ageVncTickets(seconds: number): void {
    this.vncTicketAgeMs += seconds * 1000;
    for (const ticket of this.vncTickets) ticket.issuedAt -= seconds * 1000;
  }

  /** The VM's open screens drop now, as when its VNC proxy or the node's network goes. */
  dropConsoles(vmid: number): void {
    for (const open of this.consoles) if (open.vmid === vmid) open.screen.close();
  }

  // --- the HTTP side ---

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const answer = (status: number, reason: string, body: unknown) => {
      // a reason phrase is one line of Latin-1 (Node refuses others)
      response.statusMessage = reason.replace(/[^\x20-\x7e]/g, ' ').slice(0, 500);
      response.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' });
      response.end(JSON.stringify(body));
    };
    try {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const text = await readBody(request);
      const authorization = request.headers.authorization;
      if (!authorization) return answer(401, 'No ticket', { data: null });
      if (authorization !== `PVEAPIToken=${this.tokenId}=${this.tokenSecret}`)
        return answer(401, 'authentication failure', { data: null });
      const params: Record<string, string | string[]> = {};
      const type = request.headers['content-type'] ?? '';
      if (text && type.startsWith('application/json')) Object.assign(params, JSON.parse(text));
      else if (text && type.startsWith('application/x-www-form-urlencoded'))
        decodeForm(text, params);
      else if (text) return answer(415, 'unsupported content type', { data: null });
      decodeForm(url.search, params);
      const path = url.pathname.replace(/^\/api2\/json/, '');
      const method = request.method ?? 'GET';
      this.requests.push({ method, path, params });
      if (this.unreachableLeft > 0) {
        this.unreachableLeft -= 1;
        return answer(595, UNREACHABLE, { data: null });
      }
      answer(200, 'OK', { data: this.route(method, path, params) ?? null });
    } catch (error) {
      if (error instanceof PveError)
        return answer(error.status, error.message, {
          data: null,
          ...(error.errors ? { errors: error.errors } : {}),
        });
      answer(500, `fake error: ${(error as Error).message}`, { data: null });
    }
  }

  /**
   * GET .../qemu/{vmid}/vncwebsocket?port=&vncticket= as a websocket upgrade (see the header);
   * a refusal is an HTTP answer on the socket, as pveproxy writes one.
   */
  private upgrade(request: IncomingMessage, socket: Socket, head: Buffer): void {
    const refuse = (status: number, reason: string) => {
      socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    };
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/^\/api2\/json/, '');
    const params: Record<string, string | string[]> = {};
    decodeForm(url.search, params);
    this.requests.push({ method: 'GET', path, params });
    const authorization = request.headers.authorization;
    if (!authorization) return refuse(401, 'No ticket');
    if (authorization !== `PVEAPIToken=${this.tokenId}=${this.tokenSecret}`)
      return refuse(401, 'authentication failure');
    const match = /^\/nodes\/([^/]+)\/qemu\/(\d+)\/vncwebsocket$/.exec(path);
    if (!match || match[1] !== this.node) return refuse(501, 'Method not implemented');
    const vm = this.vms.get(Number(match[2]));
    if (!vm) return refuse(500, `Configuration file of VM ${match[2]} does not exist`);
    const protocols = request.headers['sec-websocket-protocol'];
    if (protocols && !protocols.split(',').some((p) => p.trim() === 'binary'))
      return refuse(400, 'unsupported websocket protocol');
    const issued = this.vncTickets.find(
      (t) =>
        t.vmid === vm.vmid &&
        String(t.port) === params.port &&
        t.ticket === params.vncticket &&
        !t.used &&
        Date.now() - t.issuedAt <= VNC_TICKET_SECONDS * 1000,
    );
    if (!issued) return refuse(401, 'permission denied - invalid vncticket');
    issued.used = true;
    if (this.stopsAtConsole.delete(vm.vmid) && vm.running) this.powerOff(vm);
    this.sockets.handleUpgrade(request, socket, head, (websocket) => {
      // the proxy cannot reach the VM's VNC server: the socket ends before any RFB byte
      if (!vm.running) return websocket.close(1011, `VM ${vm.vmid} not running`);
      const screen = serveScreen(socketStream(websocket), {
        name: String(vm.config.name ?? `VM ${vm.vmid}`),
        password: issued.ticket,
      });
      this.consoles.push({ vmid: vm.vmid, screen });
    });
  }

  private route(method: string, path: string, params: Record<string, string | string[]>): unknown {
    if (method === 'GET' && path === '/cluster/nextid') {
      let id = 100;
      while (this.vms.has(id)) id += 1;
      return String(id);
    }
    const nodePath = /^\/nodes\/([^/]+)(\/.*)$/.exec(path);
    if (!nodePath) throw new PveError(501, `Method '${method} ${path}' not implemented`);
    if (nodePath[1] !== this.node)
      throw die(`hostname lookup '${nodePath[1]}' failed - failed to get address info`);
    const rest = nodePath[2]!;
    const taskPath = /^\/tasks\/([^/]+)\/status$/.exec(rest);
    if (taskPath && method === 'GET') return this.taskStatus(decodeURIComponent(taskPath[1]!));
    const vmPath = /^\/qemu\/(\d+)(\/.*)?$/.exec(rest);
    if (!vmPath) throw new PveError(501, `Method '${method} ${path}' not implemented`);
    const vmid = Number(vmPath[1]);
    const vm = this.vms.get(vmid);
    if (!vm)
      throw die(`Configuration file 'nodes/${this.node}/qemu-server/${vmid}.conf' does not exist`);
    const one = (name: string) => {
      const value = params[name];
      return Array.isArray(value) ? value.at(-1) : value;
    };
    return this.vmRoute(vm, method, vmPath[2] ?? '', params, one);
  }

  private vmRoute(
    vm: Vm,
    method: string,
    sub: string,
    params: Record<string, string | string[]>,
    one: (name: string) => string | undefined,
  ): unknown {
    const route = `${method} ${sub.replace(/^\/snapshot\/[^/]+/, '/snapshot/{name}')}`;
    const snapname = decodeURIComponent(/^\/snapshot\/([^/]+)/.exec(sub)?.[1] ?? '');
    switch (route) {
      case 'POST /clone':
        return this.clone(vm, one);
      case 'GET /config':
        return this.readConfig(vm, one('snapshot'));
      case 'POST /config':
        return this.setConfig(vm, params, one, false);
      case 'PUT /config':
        return this.setConfig(vm, params, one, true);
      case 'PUT /resize':
        return this.resize(vm, one('disk'), one('size'));
      case 'GET /status/current':
        return this.statusCurrent(vm);
      case 'POST /status/start':
        return this.task('qmstart', vm, () => this.powerOn(vm));
      case 'POST /status/shutdown':
      case 'POST /status/stop':
        return this.task(route.endsWith('stop') ? 'qmstop' : 'qmshutdown', vm, () => {
          if (!vm.running) throw die(`VM ${vm.vmid} not running`);
          this.powerOff(vm);
        });
      case 'POST /status/reboot':
        return this.task('qmreboot', vm, () => {
          if (!vm.running) throw die(`VM ${vm.vmid} not running`);
          this.boot(vm);
        });
      case 'DELETE ': // the VM itself
        if (vm.running) throw die(`VM ${vm.vmid} is running - destroy failed`);
        return this.task('qmdestroy', vm, () => this.destroy(vm));
      case 'POST /agent/set-user-password':
        this.agent(vm);
        if (!one('username') || !one('password'))
          throw badParams({ password: 'property is missing and it is not optional' });
        return { result: {} };
      case 'POST /agent/exec':
        return this.exec(vm, params.command);
      case 'GET /agent/exec-status':
        return this.execStatus(vm, one('pid'));
      case 'GET /rrddata':
        return this.rrddata(vm, one('timeframe'), one('cf'));
      case 'GET /snapshot':
        return this.listSnapshots(vm);
      case 'POST /snapshot':
        return this.snapshot(vm, one('snapname'), one('description'));
      case 'POST /snapshot/{name}/rollback':
        return this.rollback(vm, snapname, one('start') === '1');
      case 'DELETE /snapshot/{name}':
        this.checkSnapname(snapname);
        return this.task('qmdelsnapshot', vm, () => {
          if (!vm.snapshots.delete(snapname)) throw die(`snapshot '${snapname}' does not exist`);
        });
      case 'POST /vncproxy':
        return this.vncproxy(vm);
      default:
        throw new PveError(
          501,
          `Method '${method} /nodes/${this.node}/qemu/${vm.vmid}${sub}' not implemented`,
        );
    }
  }

  // --- tasks ---

  private task(type: string, vm: Vm, work: () => void): string {
    const at = this.taskScenarios.findIndex((s) => s.type === undefined || s.type === type);
    const scenario = at >= 0 ? this.taskScenarios.splice(at, 1)[0] : undefined;
    this.taskCounter += 1;
    const starttime = nowSeconds();
    const hex = (n: number) => n.toString(16).toUpperCase().padStart(8, '0');
    // UPID:node:pid:pstart:starttime:type:id:user:, the numbers in hex
    const pid = `${hex(0x1000 + this.taskCounter)}:${hex(0x2000000 + this.taskCounter)}`;
    const upid = `UPID:${this.node}:${pid}:${hex(starttime)}:${type}:${vm.vmid}:${this.tokenId}:`;
    const error = scenario?.error;
    this.tasks.set(upid, {
      upid,
      type,
      id: String(vm.vmid),
      starttime,
      readsLeft: this.options.taskReads ?? 1,
      never: Boolean(scenario?.never),
      work:
        error === undefined
          ? work
          : () => {
              throw die(error);
            },
      status: 'running',
    });
    return upid;
  }

  private taskStatus(upid: string) {
    const task = this.tasks.get(upid);
    if (!task) throw die(`unable to parse worker upid '${upid}'`);
    if (task.status === 'running') {
      if (task.never || task.readsLeft > 0) task.readsLeft -= 1;
      else {
        try {
          task.work();
          task.exitstatus = 'OK';
        } catch (error) {
          task.exitstatus = (error as Error).message;
        }
        task.status = 'stopped';
      }
    }
    const [, node, pid, pstart] = upid.split(':');
    return {
      upid,
      node,
      pid: parseInt(pid!, 16),
      pstart: parseInt(pstart!, 16),
      starttime: task.starttime,
      type: task.type,
      id: task.id,
      user: this.tokenId,
      status: task.status,
      ...(task.status === 'stopped' ? { exitstatus: task.exitstatus } : {}),
    };
  }

  // --- VMs and their disks ---

  private newVm(vmid: number, config: Config): Vm {
    const createdAt = nowSeconds();
    return {
      vmid,
      config,
      pending: {},
      running: false,
      createdAt,
      power: [{ at: createdAt, running: false }],
      gaps: [],
      snapshots: new Map(),
      parent: undefined,
      processes: [],
      agentDown: 0,
      execs: new Map(),
      truncateAt: undefined,
      execsHang: false,
    };
  }

  private mustVm(vmid: number): Vm {
    const vm = this.vms.get(vmid);
    if (!vm) throw new Error(`the fake has no VM ${vmid}`);
    return vm;
  }

  /** A new volume of the VM: empty, or a copy of `source` (a clone, an import). */
  private newVolume(vmid: number, sizeGb: number, source?: Volume): string {
    let n = 0;
    while (this.volumes.has(`${this.storage}:vm-${vmid}-disk-${n}`)) n += 1;
    const volume = `${this.storage}:vm-${vmid}-disk-${n}`;
    this.volumes.set(volume, {
      sizeGb: source?.sizeGb ?? sizeGb,
      terminals: [...(source?.terminals ?? [])],
    });
    return volume;
  }

  /** The volume the VM boots from (its scsi0); a VM without one has a blank disk. */
  private systemDisk(vm: Vm): Volume {
    return this.volumes.get(volumeOf(vm.config.scsi0)) ?? { sizeGb: 0, terminals: [] };
  }

  /** The first free unusedN key, as PVE's add_unused_volume picks it. */
  private addUnused(config: Config, volume: string): void {
    if (Object.entries(config).some(([key, value]) => UNUSED.test(key) && value === volume)) return;
    let n = 0;
    while (config[`unused${n}`] !== undefined) n += 1;
    config[`unused${n}`] = volume;
  }

  private clone(template: Vm, one: (name: string) => string | undefined): string {
    const newid = Number(one('newid'));
    const name = one('name');
    if (!Number.isInteger(newid) || newid < 100)
      throw badParams({ newid: 'invalid format - value must be an integer >= 100' });
    if (name !== undefined && !DNS_NAME.test(name))
      throw badParams({ name: 'invalid format - invalid DNS name' });
    if (this.vms.has(newid)) throw die(`unable to create VM ${newid}: config file already exists`);
    if (!template.config.template && one('full') !== '1')
      throw die("parameter 'full' is required for a VM that is not a template");
    return this.task('qmclone', template, () => {
      const config: Config = {};
      for (const [key, value] of Object.entries(template.config)) {
        if (key === 'template' || UNUSED.test(key)) continue;
        if (DRIVE.test(key) && volumeOf(value).includes(':')) {
          const copy = this.newVolume(newid, driveSizeGb(value), this.volumes.get(volumeOf(value)));
          config[key] = String(value).replace(volumeOf(value), copy);
        } else config[key] = value;
      }
      if (name !== undefined) config.name = name;
      const vm = this.newVm(newid, config);
      this.vms.set(newid, vm);
    });
  }

  private readConfig(vm: Vm, snapshot: string | undefined) {
    if (snapshot !== undefined) {
      const kept = vm.snapshots.get(snapshot);
      if (!kept) throw die(`snapshot '${snapshot}' does not exist`);
      return { ...kept.config, snaptime: kept.snaptime, description: kept.description };
    }
    return {
      ...vm.config,
      ...vm.pending,
      ...(vm.parent ? { parent: vm.parent } : {}),
      digest: randomBytes(20).toString('hex'),
    };
  }

  /** POST config (a task) or PUT config (at once): cores, memory, name, drives, delete. */
  private setConfig(
    vm: Vm,
    params: Record<string, string | string[]>,
    one: (name: string) => string | undefined,
    sync: boolean,
  ): string | null {
    const errors: Record<string, string> = {};
    const cores = one('cores');
    const memory = one('memory');
    if (cores !== undefined && !(/^\d+$/.test(cores) && Number(cores) >= 1))
      errors.cores = "type check ('integer') failed - got '" + cores + "'";
    if (memory !== undefined && !(/^\d+$/.test(memory) && Number(memory) >= 16))
      errors.memory = 'invalid format - value must be at least 16';
    const drives = Object.keys(params).filter((key) => DRIVE.test(key));
    for (const key of drives) {
      const value = one(key)!;
      const importFrom = /(?:^|,)import-from=([^,]+)/.exec(value)?.[1];
      if (importFrom && !/^[a-z][a-z0-9_-]*:0(,|$)/i.test(value))
        errors[key] =
          "'import-from' requires special syntax - use <storage ID>:0,import-from=<source>";
    }
    const toDelete = (one('delete') ?? '').split(/[,;\s]+/).filter(Boolean);
    if (Object.keys(errors).length > 0) throw badParams(errors);
    if (drives.length > 0 && vm.running)
      throw die(`VM ${vm.vmid} is running - the fake changes disks of stopped VMs only`);
    if (
      cores === undefined &&
      memory === undefined &&
      drives.length === 0 &&
      toDelete.length === 0 &&
      one('name') === undefined
    )
      return null;
    const work = () => {
      for (const key of toDelete) {
        const value = vm.config[key];
        if (value === undefined) continue;
        if (UNUSED.test(key)) {
          const volume = volumeOf(value);
          if (this.inUse(vm, volume, key))
            throw die(`unable to delete '${volume}' - volume is still in use (snapshot?)`);
          this.volumes.delete(volume);
        } else if (DRIVE.test(key)) this.addUnused(vm.config, volumeOf(value));
        delete vm.config[key];
      }
      for (const key of drives) {
        const value = one(key)!;
        const importFrom = /(?:^|,)import-from=([^,]+)/.exec(value)?.[1];
        const options = value
          .split(',')
          .slice(1)
          .filter((option) => !/^(import-from|size)=/.test(option));
        let volume = volumeOf(value);
        let size = driveSizeGb(value);
        if (importFrom) {
          const source = this.volumes.get(importFrom);
          if (source === undefined) throw die(`could not get size of ${importFrom}`);
          volume = this.newVolume(vm.vmid, source.sizeGb, source);
          size = source.sizeGb;
        } else if (/:\d+$/.test(volume)) {
          volume = this.newVolume(vm.vmid, Number(volume.split(':')[1]));
          size = this.volumes.get(volume)!.sizeGb;
        }
        const old = vm.config[key];
        if (old !== undefined && volumeOf(old) !== volume) this.addUnused(vm.config, volumeOf(old));
        vm.config[key] = [volume, ...options, `size=${size}G`].join(',');
      }
      const changes: Config = {};
      if (cores !== undefined) changes.cores = Number(cores);
      if (memory !== undefined) changes.memory = Number(memory);
      if (one('name') !== undefined) changes.name = one('name')!;
      Object.assign(vm.running ? vm.pending : vm.config, changes);
    };
    if (sync) {
      work();
      return null;
    }
    return this.task('qmconfig', vm, work);
  }

  private resize(vm: Vm, disk: string | undefined, size: string | undefined): string | null {
    if (!disk || !size)
      throw badParams({ [disk ? 'size' : 'disk']: 'property is missing and it is not optional' });
    const match = /^(\+)?(\d+(?:\.\d+)?)([KMGT])?$/.exec(size);
    if (!match) throw badParams({ size: 'value does not match the regex pattern' });
    const work = () => {
      const value = vm.config[disk];
      if (value === undefined) throw die(`disk '${disk}' does not exist`);
      const volume = volumeOf(value);
      const current = this.volumes.get(volume)?.sizeGb ?? driveSizeGb(value);
      const unit = { K: 1 / MIB, M: 1 / 1024, G: 1, T: 1024 }[match[3] ?? 'G']!;
      const wanted = Number(match[2]) * (match[3] ? unit : 1 / GIB) + (match[1] ? current : 0);
      if (wanted < current) throw die('shrinking disks is not supported');
      this.volumes.set(volume, {
        sizeGb: wanted,
        terminals: this.volumes.get(volume)?.terminals ?? [],
      });
      vm.config[disk] = String(value).replace(/size=[^,]+/, `size=${wanted}G`);
    };
    if (this.options.pveVersion === 7) {
      work();
      return null;
    }
    return this.task('resize', vm, work);
  }

  private statusCurrent(vm: Vm) {
    const config = { ...vm.config, ...vm.pending };
    return {
      vmid: vm.vmid,
      name: config.name,
      status: vm.running ? 'running' : 'stopped',
      qmpstatus: vm.running ? 'running' : 'stopped',
      cpus: Number(config.cores),
      maxmem: Number(config.memory) * MIB,
      mem: vm.running ? Math.round(Number(config.memory) * MIB * 0.4) : 0,
      uptime: vm.running ? nowSeconds() - vm.power.at(-1)!.at : 0,
      agent: 1,
      ...(config.template ? { template: 1 } : {}),
    };
  }

  private powerOn(vm: Vm): void {
    if (vm.config.template) throw die("you can't start a vm if it's a template");
    if (vm.running) throw die(`VM ${vm.vmid} already running`);
    vm.running = true;
    vm.power.push({ at: nowSeconds(), running: true });
    this.boot(vm);
  }

  private powerOff(vm: Vm): void {
    vm.running = false;
    vm.power.push({ at: nowSeconds(), running: false });
    vm.processes = [];
    vm.execs.clear();
  }

  /** A boot: pending config applies, the agent starts (late, if told), logon starts terminals. */
  private boot(vm: Vm): void {
    Object.assign(vm.config, vm.pending);
    vm.pending = {};
    vm.processes = [];
    vm.execs.clear();
    vm.agentDown = this.options.agentBootCalls ?? 0;
    this.startTerminals(vm);
  }

  private startTerminals(vm: Vm): void {
    for (const image of terminalsToStart(this.systemDisk(vm).terminals, vm.processes)) {
      vm.processes.push({
        image,
        pid: freePid(vm.processes.map((p) => p.pid)),
        sessionName: 'Console',
        sessionNumber: 1,
      });
    }
  }

  private destroy(vm: Vm): void {
    for (const [key, value] of Object.entries(vm.config))
      if (DRIVE.test(key) || UNUSED.test(key)) this.volumes.delete(volumeOf(value));
    for (const snapshot of vm.snapshots.values())
      for (const [key, value] of Object.entries(snapshot.config))
        if (DRIVE.test(key)) this.volumes.delete(volumeOf(value));
    this.vms.delete(vm.vmid);
  }

  // --- the guest agent ---

  /** The checks of PVE's agent calls, in its order (PVE::QemuServer::Agent). */
  private agent(vm: Vm): void {
    if (!vm.config.agent || vm.config.agent === '0') throw die('No QEMU guest agent configured');
    if (!vm.running) throw die(`VM ${vm.vmid} is not running`);
    if (vm.agentDown > 0) {
      vm.agentDown -= 1;
      throw die('QEMU guest agent is not running');
    }
  }

  private exec(vm: Vm, command: string | string[] | undefined) {
    this.agent(vm);
    const argv = command === undefined ? [] : Array.isArray(command) ? command : [command];
    if (argv.length === 0) throw die('command or input-data (or both) required');
    const pid = freePid([...vm.processes.map((p) => p.pid), ...vm.execs.keys()]);
    const run = runGuestCommand(argv, vm.processes, pid);
    if (run.startsTerminals) this.startTerminals(vm);
    const cut = (text: string) =>
      vm.truncateAt === undefined || Buffer.byteLength(text) <= vm.truncateAt
        ? text
        : Buffer.from(text).subarray(0, vm.truncateAt).toString();
    vm.execs.set(pid, {
      readsLeft: vm.execsHang ? Infinity : (this.options.execReads ?? 1),
      exitcode: run.exitCode,
      out: cut(run.stdout),
      err: cut(run.stderr),
      truncated: cut(run.stdout) !== run.stdout || cut(run.stderr) !== run.stderr,
    });
    return { pid };
  }

  private execStatus(vm: Vm, pid: string | undefined) {
    this.agent(vm);
    if (pid === undefined) throw badParams({ pid: 'property is missing and it is not optional' });
    const exec = vm.execs.get(Number(pid));
    if (!exec) throw die("Agent error: Invalid parameter 'pid'");
    if (exec.readsLeft > 0) {
      exec.readsLeft -= 1;
      return { exited: 0 };
    }
    // the agent forgets a command once it has reported its end
    vm.execs.delete(Number(pid));
    return {
      exited: 1,
      exitcode: exec.exitcode,
      ...(exec.out ? { 'out-data': exec.out } : {}),
      ...(exec.err ? { 'err-data': exec.err } : {}),
      ...(exec.truncated ? { 'out-truncated': 1 } : {}),
    };
  }

  // --- RRD, snapshots, console ---

  private rrddata(vm: Vm, timeframe: string | undefined, cf: string | undefined) {
    const notIn = (value: string | undefined, values: string[]) =>
      `value '${value ?? ''}' does not have a value in the enumeration '${values.join(', ')}'`;
    const frames = ['hour', 'day', 'week', 'month', 'year'];
    if (!timeframe || !frames.includes(timeframe))
      throw badParams({ timeframe: notIn(timeframe, frames) });
    if (cf !== undefined && cf !== 'AVERAGE' && cf !== 'MAX')
      throw badParams({ cf: notIn(cf, ['AVERAGE', 'MAX']) });
    // month and year are not the driver's: they get the week's steps here
    const frame = (timeframe in METRICS_STEP_SECONDS ? timeframe : 'week') as MetricsTimeframe;
    const step = METRICS_STEP_SECONDS[frame];
    const now = nowSeconds();
    const config = { ...vm.config, ...vm.pending };
    const maxmem = Number(config.memory) * MIB;
    const maxdisk = driveSizeGb(config.scsi0) * GIB;
    return metricsSteps(frame, new Date()).map((time) => {
      // the state the step ends in (the current step: now)
      const at = Math.min(time + step, now);
      if (at < vm.createdAt) return { time };
      const running =
        [...vm.power].reverse().find((change) => change.at <= at)?.running === true &&
        !vm.gaps.some((gap) => gap.from <= at && at < gap.to);
      const totals = { time, maxcpu: Number(config.cores), maxmem, maxdisk, disk: 0 };
      if (!running) return totals;
      const load = syntheticLoad(vm.vmid, time, step, maxmem);
      return {
        ...totals,
        cpu: load.cpu,
        mem: load.memoryBytes,
        netin: load.netInBps,
        netout: load.netOutBps,
        diskread: load.diskReadBps,
        diskwrite: load.diskWriteBps,
      };
    });
  }

  /** Proxmox lists a VM's snapshots in hash order; newest first here, so order is not assumed. */
  private listSnapshots(vm: Vm) {
    const list: Record<string, unknown>[] = [...vm.snapshots].reverse().map(([name, s]) => ({
      name,
      snaptime: s.snaptime,
      vmstate: 0,
      description: s.description,
      ...(s.config.parent ? { parent: s.config.parent } : {}),
    }));
    list.push({
      name: 'current',
      digest: randomBytes(20).toString('hex'),
      running: vm.running ? 1 : 0,
      description: 'You are here!',
      ...(vm.parent ? { parent: vm.parent } : {}),
    });
    return list;
  }

  private checkSnapname(name: string | undefined): asserts name is string {
    if (!name) throw badParams({ snapname: 'property is missing and it is not optional' });
    if (name.length > 40) throw badParams({ snapname: 'value may only be 40 characters long' });
    if (!CONFIG_ID.test(name))
      throw badParams({ snapname: `invalid format - invalid configuration ID '${name}'` });
  }

  private snapshot(vm: Vm, name: string | undefined, description: string | undefined): string {
    this.checkSnapname(name);
    if (name === 'current') throw die("unable to use snapshot name 'current' (reserved name)");
    if (name.toLowerCase() === 'pending')
      throw die("unable to use snapshot name 'pending' (reserved name)");
    return this.task('qmsnapshot', vm, () => {
      if (vm.config.template) throw die("you can't take a snapshot if it's a template");
      if (vm.snapshots.has(name)) throw die(`snapshot name '${name}' already used`);
      const config: Config = {};
      for (const [key, value] of Object.entries(vm.config))
        if (!UNUSED.test(key)) config[key] = value;
      if (vm.parent) config.parent = vm.parent;
      vm.snapshots.set(name, {
        snaptime: nowSeconds(),
        description: description ?? '',
        config,
        disks: new Map(
          Object.entries(vm.config)
            .filter(([key]) => DRIVE.test(key))
            .map(([, value]) => [
              volumeOf(value),
              [...(this.volumes.get(volumeOf(value))?.terminals ?? [])],
            ]),
        ),
      });
      vm.parent = name;
    });
  }

  /**
   * Stops the VM, restores the snapshot's config and disks; without RAM state it stays stopped.
   * As pve-guest-common's snapshot_rollback: the drives the snapshot lacks become unusedN, and
   * the unusedN entries stay, even one whose volume the snapshot attaches again.
   */
  private rollback(vm: Vm, name: string, start: boolean): string {
    this.checkSnapname(name);
    return this.task('qmrollback', vm, () => {
      const snapshot = vm.snapshots.get(name);
      if (!snapshot) throw die(`snapshot '${name}' does not exist`);
      if (vm.running) this.powerOff(vm);
      for (const [key, value] of Object.entries(vm.config))
        if (DRIVE.test(key) && !snapshot.disks.has(volumeOf(value)))
          this.addUnused(vm.config, volumeOf(value));
      const config: Config = {};
      for (const [key, value] of Object.entries(vm.config))
        if (UNUSED.test(key)) config[key] = value;
      for (const [key, value] of Object.entries(snapshot.config))
        if (key !== 'parent') config[key] = value;
      for (const [volume, terminals] of snapshot.disks) {
        const disk = this.volumes.get(volume);
        if (disk) disk.terminals = [...terminals];
      }
      vm.config = config;
      vm.pending = {};
      vm.parent = name;
      if (start) this.powerOn(vm);
    });
  }

  /** Whether a volume is attached to the VM, but as `except`, or to one of its snapshots. */
  private inUse(vm: Vm, volume: string, except: string): boolean {
    const attached = (config: Config) =>
      Object.entries(config).some(
        ([key, value]) => key !== except && DRIVE.test(key) && volumeOf(value) === volume,
      );
    return attached(vm.config) || [...vm.snapshots.values()].some((s) => attached(s.config));
  }

  private vncproxy(vm: Vm) {
    const port = 5900 + this.vncTickets.length;
    const signature = randomBytes(32).toString('base64');
    const ticket = `PVEVNC:${randomBytes(4).toString('hex').toUpperCase()}::${signature}`;
    this.vncTickets.push({
      vmid: vm.vmid,
      port,
      ticket,
      issuedAt: Date.now() - this.vncTicketAgeMs,
      used: false,
    });
    // the proxy's task waits for the websocket; it fails then if the VM does not run
    const upid = this.task('vncproxy', vm, () => {
      if (!vm.running) throw die(`VM ${vm.vmid} not running`);
    });
    return {
      port: String(port),
      ticket,
      user: this.tokenId,
      upid,
      cert: '-----BEGIN CERTIFICATE-----\nMIIB...fake...\n-----END CERTIFICATE-----\n',
    };
  }
}

export async function startProxmoxFake(options: ProxmoxFakeOptions = {}): Promise<ProxmoxFake> {
  return new ProxmoxFake(options).start();
}

// `node apps/api/test/proxmox-fake.ts [port]`: a node with template 9000 for local development
if (import.meta.url === `file://${process.argv[1]}`) {
  const fake = await startProxmoxFake({ port: Number(process.argv[2] ?? 8006) });
  fake.addTemplate(9000);
  console.log(
    `Proxmox fake on ${fake.url} with template 9000: start the API with HYPERVISOR_DRIVER=proxmox ` +
      `PROXMOX_URL=${fake.url} PROXMOX_TOKEN_ID='${fake.tokenId}' ` +
      `PROXMOX_TOKEN_SECRET=${fake.tokenSecret} PROXMOX_NODE=${fake.node} ` +
      'PROXMOX_RDP_HOST=127.0.0.1 PROXMOX_RDP_PORT_BASE=40000',
  );
}
