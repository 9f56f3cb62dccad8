import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { useTestApp } from '../../../test/helpers.ts';
import {
  startProxmoxFake,
  VNC_TICKET_SECONDS,
  type ProxmoxFake,
  type ProxmoxFakeOptions,
} from '../../../test/proxmox-fake.ts';
import { RfbViewer } from '../../../test/rfb-viewer.ts';
import { describeHypervisorContract, failure, MISSING } from './hypervisor-contract.ts';
import type { Hypervisor, MachineId } from './port.ts';
import { createProxmoxHypervisor, type ProxmoxSettings } from './proxmox.ts';
import {
  createSimulatedHypervisor,
  crashTerminal,
  injectFault,
  putTerminals,
  type SimulatedOperation,
} from './simulated.ts';
import { START_TERMINALS_TASK, TERMINAL_IMAGE } from './windows-guest.ts';

const TEMPLATE = 9000;

describe('simulated driver', () => {
  const t = useTestApp();
  const sim = () => createSimulatedHypervisor(t.app.db, { delayMs: { min: 1, max: 3 } });

  describeHypervisorContract('simulated', () => ({
    hypervisor: sim(),
    templateId: String(TEMPLATE),
    putTerminals: (id, images) => putTerminals(t.app.db, id, images),
    crashTerminal: (id) => crashTerminal(t.app.db, id),
  }));

  const row = async (id: MachineId) =>
    (await t.sql.query('select * from sim_machines where id = $1', [Number(id)])).rows[0];
  const SMALL = { templateId: String(TEMPLATE), cores: 1, memoryMb: 1024, diskGb: 20 };
  const simMachine = async (name: string) =>
    (await sim().createFromTemplate({ ...SMALL, name })).machineId;

  it('throws an injected fault once for each new call', async () => {
    const hv = sim();
    const machineId = await simMachine('faulty');
    await hv.start(machineId);
    const calls: [SimulatedOperation, () => Promise<unknown>][] = [
      ['metrics', () => hv.metrics(machineId, 'hour')],
      ['snapshots', () => hv.snapshots(machineId)],
      ['createSnapshot', () => hv.createSnapshot(machineId, 'faulty', '')],
      ['rollbackSnapshot', () => hv.rollbackSnapshot(machineId, 'faulty')],
      ['deleteSnapshot', () => hv.deleteSnapshot(machineId, 'faulty')],
      ['exec', () => hv.exec(machineId, ['tasklist'])],
      ['consoleTicket', () => hv.consoleTicket(machineId)],
      ['openConsole', () => hv.openConsole(machineId)],
      ['reinstall', () => hv.reinstall(machineId, SMALL)],
    ];
    for (const [operation, call] of calls) {
      await injectFault(t.app.db, operation, 'unavailable', `${operation} is down`);
      const error = await failure(call());
      expect([error.kind, error.message]).toEqual(['unavailable', `${operation} is down`]);
    }
    // each fault was consumed by its own call; the calls work again
    await hv.createSnapshot(machineId, 'faulty', '');
    expect((await hv.snapshots(machineId)).map((s) => s.name)).toEqual(['faulty']);
    expect((await hv.exec(machineId, ['tasklist'])).exitCode).toBe(0);
  });

  it('a reinstall counts itself and takes the installed terminals and the new size', async () => {
    const hv = sim();
    const machineId = await simMachine('reinstalled');
    await putTerminals(t.app.db, machineId, [TERMINAL_IMAGE]);
    await hv.reinstall(machineId, { templateId: '9001', cores: 2, memoryMb: 2048, diskGb: 30 });
    expect(await row(machineId)).toMatchObject({
      template_id: '9001',
      cores: 2,
      memory_mb: 2048,
      disk_gb: 30,
      terminals: [],
      generation: 1,
      status: 'stopped',
    });
    expect((await row(machineId)).reinstalled_at).toBeInstanceOf(Date);
  });

  it('metrics are steady, and absent before the machine existed', async () => {
    const hv = sim();
    const machineId = await simMachine('charted');
    await hv.start(machineId);
    // created 30 minutes ago, running since
    await t.sql.query(
      `update sim_machines set created_at = now() - interval '30 minutes',
         status_since = now() - interval '30 minutes' where id = $1`,
      [Number(machineId)],
    );
    const first = await hv.metrics(machineId, 'hour');
    const withLoad = first.filter((point) => point.cpu !== null);
    expect(withLoad.length).toBeGreaterThanOrEqual(30);
    expect(withLoad.length).toBeLessThanOrEqual(32);
    expect(first.slice(0, 30).every((point) => point.memoryTotalBytes === null)).toBe(true);
    // read again: the same figures for the same steps
    const again = await hv.metrics(machineId, 'hour');
    const byTime = new Map(again.map((point) => [point.at.getTime(), point]));
    for (const point of withLoad.slice(0, -1))
      expect(byTime.get(point.at.getTime())).toEqual(point);
    // stopped: the load ends with the stop, the history before it stays
    await hv.shutdown(machineId);
    const stopped = await hv.metrics(machineId, 'hour');
    const since = (await row(machineId)).status_since as Date;
    expect(since.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(stopped.at(-1)!.cpu).toBeNull();
    expect(stopped.filter((point) => point.cpu !== null).length).toBeGreaterThanOrEqual(28);
  });

  it('crashing a terminal where none runs crashes nothing', async () => {
    expect(await crashTerminal(t.app.db, MISSING)).toBeUndefined();
    await expect(putTerminals(t.app.db, MISSING, [TERMINAL_IMAGE])).rejects.toMatchObject({
      kind: 'not_found',
    });
  });
});

describe('Proxmox driver against the fake node', () => {
  let fake: ProxmoxFake;
  const settings = (overrides: Partial<ProxmoxSettings> = {}): ProxmoxSettings => ({
    baseUrl: fake.url,
    tokenId: fake.tokenId,
    tokenSecret: fake.tokenSecret,
    node: fake.node,
    pollIntervalMs: 5,
    timeoutMs: 5_000,
    ...overrides,
  });
  const pve = (overrides: Partial<ProxmoxSettings> = {}): Hypervisor =>
    createProxmoxHypervisor(settings(overrides));

  beforeAll(async () => {
    fake = await startProxmoxFake();
    fake.addTemplate(TEMPLATE, { diskGb: 32 });
  });
  afterAll(() => fake.close());

  describeHypervisorContract('Proxmox', () => ({
    hypervisor: pve(),
    templateId: String(TEMPLATE),
    putTerminals: async (id, images) => fake.installTerminals(Number(id), images),
    crashTerminal: async (id) => fake.crashTerminal(Number(id)),
  }));

  async function vm(state: 'running' | 'stopped' = 'running'): Promise<MachineId> {
    const hv = pve();
    const { machineId } = await hv.createFromTemplate({
      templateId: String(TEMPLATE),
      name: 'scenario',
      cores: 2,
      memoryMb: 4096,
      diskGb: 40,
    });
    if (state === 'running') await hv.start(machineId);
    return machineId;
  }

  /** The volume of the VM's system disk now. */
  const systemVolume = (id: MachineId) => String(fake.vm(Number(id))!.config.scsi0).split(',')[0]!;

  /** A stopped VM with a snapshot 'pre', then reinstalled: its disk before, and its disk now. */
  async function reinstalledAfterSnapshot() {
    const id = await vm('stopped');
    const before = systemVolume(id);
    await pve().createSnapshot(id, 'pre', '');
    await pve().reinstall(id, {
      templateId: String(TEMPLATE),
      cores: 2,
      memoryMb: 4096,
      diskGb: 40,
    });
    return { id, before, after: systemVolume(id) };
  }

  /** The requests since `from`, without the task status reads, as "METHOD path". */
  const callsSince = (from: number) =>
    fake.requests
      .slice(from)
      .filter((r) => !r.path.includes('/tasks/'))
      .map((r) => `${r.method} ${r.path}`);

  it('the lifecycle calls meet the same node: resize, password, delete', async () => {
    const id = await vm();
    const hv = pve();
    await hv.resize(id, { cores: 4, memoryMb: 8192, diskGb: 80 });
    // as GET config shows them: a running VM's new cores and memory pending until its next boot
    expect(fake.vm(Number(id))!.config).toMatchObject({ cores: 4, memory: 8192 });
    expect(String(fake.vm(Number(id))!.config.scsi0)).toMatch(/size=80G$/);
    await expect(hv.resize(id, { cores: 4, memoryMb: 8192, diskGb: 60 })).rejects.toMatchObject({
      kind: 'failed',
      message: expect.stringContaining('shrinking disks is not supported'),
    });
    await hv.setPassword(id, 'Administrator', 'S3cret&=+pass');
    expect(fake.requests.at(-1)!.params).toEqual({
      username: 'Administrator',
      password: 'S3cret&=+pass',
    });
    expect((await failure(hv.delete(id))).message).toMatch(/is running - destroy failed/);
    await hv.shutdown(id);
    expect((await failure(hv.setPassword(id, 'Administrator', 'x'))).message).toMatch(
      /VM \d+ is not running/,
    );
    const volume = systemVolume(id);
    await hv.delete(id);
    expect(await failure(hv.status(id))).toMatchObject({ kind: 'not_found' });
    expect(fake.volumeList()).not.toContain(volume);
  });

  /** A node of its own with these habits, and a machine of `diskGb` made on it; then closed. */
  async function onOwnNode(
    options: ProxmoxFakeOptions,
    diskGb: number,
    use: (node: ProxmoxFake, hv: Hypervisor, id: MachineId) => Promise<void>,
  ): Promise<void> {
    const node = await startProxmoxFake(options);
    try {
      node.addTemplate(TEMPLATE);
      const hv = createProxmoxHypervisor({ ...settings(), baseUrl: node.url });
      const { machineId } = await hv.createFromTemplate({
        templateId: String(TEMPLATE),
        name: 'own-node',
        cores: 1,
        memoryMb: 2048,
        diskGb,
      });
      await use(node, hv, machineId);
    } finally {
      await node.close();
    }
  }

  it("PVE 7's resize, done at once without a task, serves as well", async () => {
    await onOwnNode({ pveVersion: 7, taskReads: 3 }, 48, async (seven, _hv, id) => {
      expect(String(seven.vm(Number(id))!.config.scsi0)).toMatch(/size=48G$/);
      const resize = seven.requests.findIndex((r) => r.path.endsWith('/resize'));
      expect(seven.requests.slice(resize + 1)).toEqual([]);
    });
  });

  it('metrics: rrddata of the timeframe, averaged, with gaps where the VM was off', async () => {
    const id = await vm();
    fake.backdate(Number(id), 3 * 3600);
    const now = Date.now();
    fake.wasOff(Number(id), new Date(now - 50 * 60_000), new Date(now - 30 * 60_000));
    const from = fake.requests.length;
    const points = await pve().metrics(id, 'hour');
    expect(fake.requests[from]).toMatchObject({
      method: 'GET',
      path: `/nodes/${fake.node}/qemu/${id}/rrddata`,
      params: { timeframe: 'hour', cf: 'AVERAGE' },
    });
    const off = points.filter((p) => p.cpu === null);
    // about 20 one-minute steps without load, their totals kept
    expect(off.length).toBeGreaterThanOrEqual(19);
    expect(off.length).toBeLessThanOrEqual(21);
    for (const point of off) {
      expect(point.at.getTime()).toBeGreaterThan(now - 52 * 60_000);
      expect(point.at.getTime()).toBeLessThan(now - 29 * 60_000);
      expect(point).toMatchObject({
        memoryBytes: null,
        netInBps: null,
        memoryTotalBytes: 4096 * 1024 ** 2,
      });
    }
    expect(points.filter((p) => p.cpu !== null).length).toBe(points.length - off.length);
  });

  it('metrics of a VM younger than the timeframe: nothing at all before it existed', async () => {
    const id = await vm();
    const points = await pve().metrics(id, 'day');
    expect(points.at(-1)!.cpu).not.toBeNull();
    expect(points.slice(0, -2).every((p) => p.memoryTotalBytes === null && p.cpu === null)).toBe(
      true,
    );
  });

  it('exec: the command as one form key per argument, exec-status read until it exited', async () => {
    const id = await vm();
    const from = fake.requests.length;
    await pve().exec(id, ['tasklist', '/fo', 'csv', '/fi', 'IMAGENAME eq terminal64.exe']);
    const sent = fake.requests.slice(from);
    expect(sent[0]).toMatchObject({
      method: 'POST',
      path: `/nodes/${fake.node}/qemu/${id}/agent/exec`,
      params: { command: ['tasklist', '/fo', 'csv', '/fi', 'IMAGENAME eq terminal64.exe'] },
    });
    expect(sent.slice(1).map((r) => [r.method, r.path.split('/').at(-1), r.params.pid])).toEqual([
      ['GET', 'exec-status', expect.any(String)],
      ['GET', 'exec-status', expect.any(String)],
    ]);
    // a single argument is one key, which PVE takes as an array of one
    await pve().exec(id, ['tasklist']);
    expect(fake.requests.filter((r) => r.path.endsWith('/agent/exec')).at(-1)?.params).toEqual({
      command: 'tasklist',
    });
  });

  it('exec: an agent that does not answer yet after a boot is failed until it does', async () => {
    await onOwnNode({ agentBootCalls: 2 }, 32, async (_node, hv, id) => {
      await hv.start(id);
      for (let i = 0; i < 2; i++) {
        const error = await failure(hv.exec(id, ['tasklist']));
        expect([error.kind, error.message]).toEqual([
          'failed',
          expect.stringContaining('QEMU guest agent is not running'),
        ]);
      }
      expect((await hv.exec(id, ['tasklist'])).exitCode).toBe(0);
      // and again after a reboot
      await hv.reboot(id);
      expect((await failure(hv.exec(id, ['tasklist']))).kind).toBe('failed');
    });
  });

  it('exec: output the agent cut short is flagged truncated', async () => {
    const id = await vm();
    fake.installTerminals(Number(id), [TERMINAL_IMAGE, TERMINAL_IMAGE, TERMINAL_IMAGE]);
    fake.truncateOutput(Number(id), 60);
    const run = await pve().exec(id, ['tasklist', '/fo', 'csv', '/nh']);
    expect(run.truncated).toBe(true);
    expect(Buffer.byteLength(run.stdout)).toBe(60);
  });

  it('exec: a command that does not exit within its timeout is a timeout', async () => {
    const id = await vm();
    fake.commandsHang(Number(id));
    const started = Date.now();
    const error = await failure(pve().exec(id, ['tasklist'], { timeoutMs: 300 }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/may still be running/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('a task that never finishes is a timeout, and its snapshot is not there', async () => {
    const id = await vm();
    fake.taskNeverEnds('qmsnapshot');
    const error = await failure(
      pve({ timeoutMs: 300, pollIntervalMs: 10 }).createSnapshot(id, 'stuck', ''),
    );
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/did not finish within 300 ms/);
    expect(await pve().snapshots(id)).toEqual([]);
  });

  it('a task that ends with an error is failed, with its exit status', async () => {
    const id = await vm();
    await pve().createSnapshot(id, 'daily', '');
    fake.taskFails('qmrollback', `unable to rollback vm ${id}: vm is running`);
    const error = await failure(pve().rollbackSnapshot(id, 'daily'));
    expect(error.kind).toBe('failed');
    expect(error.message).toContain(`unable to rollback vm ${id}: vm is running`);
    expect(await pve().status(id)).toBe('running');
  });

  it("the proxy's 595 (node unreachable) is unavailable, and nothing was done", async () => {
    const id = await vm();
    fake.unreachable(1);
    const error = await failure(pve().createSnapshot(id, 'daily', ''));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/595/);
    expect(await pve().snapshots(id)).toEqual([]);
  });

  it('reinstall: imports the template disk, frees the old one, grows the new one', async () => {
    const id = await vm('stopped');
    const oldVolume = systemVolume(id);
    const from = fake.requests.length;
    await pve().reinstall(id, {
      templateId: String(TEMPLATE),
      cores: 4,
      memoryMb: 8192,
      diskGb: 50,
    });
    const qemu = `/nodes/${fake.node}/qemu`;
    expect(callsSince(from)).toEqual([
      `GET ${qemu}/${id}/status/current`,
      `GET ${qemu}/${TEMPLATE}/config`,
      `GET ${qemu}/${id}/config`,
      `POST ${qemu}/${id}/config`,
      `GET ${qemu}/${id}/config`,
      `GET ${qemu}/${id}/snapshot`,
      `POST ${qemu}/${id}/config`,
      `PUT ${qemu}/${id}/resize`,
    ]);
    const posts = fake.requests.slice(from).filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.params)).toEqual([
      {
        cores: '4',
        memory: '8192',
        scsi0: `local-lvm:0,import-from=local-lvm:base-${TEMPLATE}-disk-0,discard=on,iothread=1`,
      },
      { delete: 'unused0' },
    ]);
    const config = fake.vm(Number(id))!.config;
    expect(config).toMatchObject({ cores: 4, memory: 8192 });
    expect(String(config.scsi0)).toMatch(new RegExp(`^local-lvm:vm-${id}-disk-1,.*size=50G$`));
    expect(Object.keys(config).filter((key) => key.startsWith('unused'))).toEqual([]);
    expect(fake.volumeList()).not.toContain(oldVolume);
  });

  it('reinstall keeps the old disk while a snapshot needs it and frees it with the snapshot', async () => {
    const { id, before: oldVolume } = await reinstalledAfterSnapshot();
    expect(fake.vm(Number(id))!.config.unused0).toBe(oldVolume);
    expect(fake.volumeList()).toContain(oldVolume);

    await pve().deleteSnapshot(id, 'pre');
    expect(fake.vm(Number(id))!.config.unused0).toBeUndefined();
    expect(fake.volumeList()).not.toContain(oldVolume);
  });

  it('a rollback across a reinstall returns the old disk and frees the newer one', async () => {
    const { id, before: oldVolume, after: newVolume } = await reinstalledAfterSnapshot();
    await pve().rollbackSnapshot(id, 'pre');
    const config = fake.vm(Number(id))!.config;
    expect(systemVolume(id)).toBe(oldVolume);
    expect(fake.volumeList()).not.toContain(newVolume);
    // Proxmox keeps the unused entry of the volume the rollback attached again; it cannot go
    const unused = Object.entries(config).filter(([key]) => key.startsWith('unused'));
    expect(unused.map(([, volume]) => volume)).toEqual([oldVolume]);
  });

  it('reinstall refuses a VM that is not a template, and a disk below the template size', async () => {
    const other = await vm('stopped');
    const id = await vm('stopped');
    const disk = fake.vm(Number(id))!.config.scsi0;
    const input = { templateId: other, cores: 2, memoryMb: 4096, diskGb: 40 };
    expect((await failure(pve().reinstall(id, input))).message).toMatch(/not a template/);
    const small = await failure(
      pve().reinstall(id, { ...input, templateId: String(TEMPLATE), diskGb: 20 }),
    );
    expect([small.kind, small.message]).toEqual(['failed', expect.stringMatching(/32G/)]);
    // refused before anything was touched
    expect(fake.vm(Number(id))!.config.scsi0).toBe(disk);
  });

  it('consoleTicket: vncproxy with websocket=1, the ticket the node issued', async () => {
    const id = await vm();
    const from = fake.requests.length;
    const ticket = await pve().consoleTicket(id);
    const proxy = fake.requests.slice(from).find((r) => r.path.endsWith('/vncproxy'));
    expect(proxy?.params).toEqual({ websocket: '1' });
    expect(ticket).toEqual({
      ticket: fake.vncTickets.at(-1)!.ticket,
      port: fake.vncTickets.at(-1)!.port,
      user: fake.tokenId,
    });
  });

  it('openConsole: vncproxy, the websocket with the token, port and ticket, VNC auth with the ticket', async () => {
    const id = await vm();
    const from = fake.requests.length;
    const viewer = await RfbViewer.open(await pve().openConsole(id));
    const issued = fake.vncTickets.at(-1)!;
    expect(callsSince(from)).toEqual([
      `GET /nodes/${fake.node}/qemu/${id}/status/current`,
      `POST /nodes/${fake.node}/qemu/${id}/vncproxy`,
      `GET /nodes/${fake.node}/qemu/${id}/vncwebsocket`,
    ]);
    expect(fake.requests.at(-1)!.params).toEqual({
      port: String(issued.port),
      vncticket: issued.ticket,
    });
    const { screen } = fake.consoles.at(-1)!;
    expect(screen.authenticated).toBe(true);
    // the bytes pass both ways: a clipboard text arrives, the picture comes back
    viewer.cutText('from the relay');
    await viewer.update();
    expect(viewer.shows('sign_in', 0)).toBe(true);
    expect(screen.cutTexts).toEqual(['from the relay']);
    viewer.close();
  });

  it('openConsole: a ticket is taken once, and one older than its few seconds is refused', async () => {
    const id = await vm();
    const opened = await pve().openConsole(id);
    opened.close();
    // the same ticket again, as a replay would send it: the node refuses the upgrade
    const { port, ticket } = fake.vncTickets.at(-1)!;
    const url = `${fake.url.replace('http:', 'ws:')}/nodes/${fake.node}/qemu/${id}/vncwebsocket?port=${port}&vncticket=${encodeURIComponent(ticket)}`;
    const status = await new Promise<number>((resolve) => {
      const socket = new WebSocket(url, ['binary'], {
        headers: { authorization: `PVEAPIToken=${fake.tokenId}=${fake.tokenSecret}` },
      });
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.on('open', () => resolve(101));
      socket.on('error', () => {});
    });
    expect(status).toBe(401);

    fake.ageVncTickets(VNC_TICKET_SECONDS + 1);
    try {
      const error = await failure(pve().openConsole(id));
      expect([error.kind, error.message]).toEqual([
        'unavailable',
        expect.stringMatching(/401 permission denied - invalid vncticket/),
      ]);
      expect(error.message).not.toContain('PVEVNC');
    } finally {
      fake.ageVncTickets(-(VNC_TICKET_SECONDS + 1));
    }
  });

  it('openConsole: a VM stopped between vncproxy and the websocket is failed', async () => {
    const id = await vm();
    fake.stopsBeforeConsole(Number(id));
    const error = await failure(pve().openConsole(id));
    expect([error.kind, error.message]).toEqual([
      'failed',
      expect.stringMatching(/closed during the version/),
    ]);
    expect(fake.vm(Number(id))!.running).toBe(false);
  });

  it('openConsole: a screen that drops mid-session ends the stream', async () => {
    const id = await vm();
    const viewer = await RfbViewer.open(await pve().openConsole(id));
    await viewer.update();
    const closed = viewer.whenClosed();
    fake.dropConsoles(Number(id));
    await closed;
    expect(viewer.closed).toBe(true);
  });

  it('the logon task is the one the template ships, whatever the case of its name', async () => {
    const id = await vm();
    fake.installTerminals(Number(id), [TERMINAL_IMAGE]);
    fake.crashTerminal(Number(id));
    const run = await pve().exec(id, [
      'C:\\Windows\\System32\\schtasks.exe',
      '/RUN',
      '/TN',
      `\\${START_TERMINALS_TASK.toUpperCase()}`,
    ]);
    expect(run.exitCode).toBe(0);
    expect(fake.vm(Number(id))!.processes).toHaveLength(1);
  });

  it('a missing VM is not_found without a guess: the node says so', async () => {
    const error = await failure(pve().metrics(MISSING, 'hour'));
    expect(error.message).toMatch(/does not exist/);
  });
});
