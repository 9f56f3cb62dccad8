import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HypervisorError } from './port.ts';
import { createProxmoxHypervisor, type ProxmoxSettings } from './proxmox.ts';

const TOKEN_ID = 'tradehost@pve!console';
const TOKEN_SECRET = '0b9c4f5e-1111-4222-8333-944455556666';
const NODE = 'pve1';

/** One request the fake node received: method, path, query and form body as plain objects. */
interface Received {
  method: string;
  path: string;
  query: Record<string, string>;
  form: Record<string, string>;
}

/** What a route answers: status (200 unless told), reason phrase, and the JSON body. */
interface Answer {
  status?: number;
  reason?: string;
  body: unknown;
}

type Route = (request: Received) => Answer;

/**
 * A Proxmox VE node as far as the driver sees it: routes keyed "METHOD /path" under /api2/json,
 * and tasks whose successive status reads are scripted (the last one repeats).
 */
const routes = new Map<string, Route>();
const tasks = new Map<string, { status: string; exitstatus?: string }[]>();
const received: Received[] = [];
let server: Server;
let baseUrl: string;

const upid = (type: string, id: string) =>
  `UPID:${NODE}:0000ABCD:01234567:6740A0B0:${type}:${id}:${TOKEN_ID}:`;

/** A task that runs for one read and then stops with `exitstatus`. */
function task(type: string, id: string, exitstatus = 'OK'): string {
  const name = upid(type, id);
  tasks.set(name, [{ status: 'running' }, { status: 'stopped', exitstatus }]);
  return name;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}

async function handle(request: IncomingMessage, response: ServerResponse) {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const text = await readBody(request);
  const answer = (status: number, reason: string, body: unknown) => {
    response.statusMessage = reason;
    response.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' });
    response.end(JSON.stringify(body));
  };
  // Proxmox answers a missing or wrong token 401 "No ticket" / "authentication failure"
  if (request.headers.authorization !== `PVEAPIToken=${TOKEN_ID}=${TOKEN_SECRET}`) {
    return answer(401, 'authentication failure', { data: null });
  }
  if (
    text &&
    request.headers['content-type'] !== 'application/x-www-form-urlencoded;charset=UTF-8'
  ) {
    return answer(415, 'unsupported content type', { data: null });
  }
  const path = url.pathname.replace(/^\/api2\/json/, '');
  const got: Received = {
    method: request.method ?? 'GET',
    path,
    query: Object.fromEntries(url.searchParams),
    form: Object.fromEntries(new URLSearchParams(text)),
  };
  received.push(got);
  const taskPath = path.match(/^\/nodes\/[^/]+\/tasks\/([^/]+)\/status$/);
  if (got.method === 'GET' && taskPath) {
    const steps = tasks.get(decodeURIComponent(taskPath[1]!));
    if (!steps) return answer(500, 'no such task', { data: null });
    const step = steps.length > 1 ? steps.shift()! : steps[0]!;
    return answer(200, 'OK', { data: { upid: taskPath[1], node: NODE, ...step } });
  }
  const route = routes.get(`${got.method} ${path}`);
  if (!route) {
    return answer(500, `Configuration file 'nodes/${NODE}/qemu-server/x.conf' does not exist`, {
      data: null,
    });
  }
  const { status = 200, reason = 'OK', body } = route(got);
  answer(status, reason, body);
}

beforeAll(async () => {
  server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api2/json`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  routes.clear();
  tasks.clear();
  received.length = 0;
});

function hypervisor(overrides: Partial<ProxmoxSettings> = {}) {
  return createProxmoxHypervisor({
    baseUrl,
    tokenId: TOKEN_ID,
    tokenSecret: TOKEN_SECRET,
    node: NODE,
    pollIntervalMs: 5,
    timeoutMs: 2_000,
    ...overrides,
  });
}

/** The rejection of `promise`, which must be a HypervisorError. */
async function failure(promise: Promise<unknown>): Promise<HypervisorError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HypervisorError);
  return error as HypervisorError;
}

const qemu = `/nodes/${NODE}/qemu`;
const taskReads = () => received.filter((r) => r.path.includes('/tasks/')).length;

describe('Proxmox driver: create from template', () => {
  it('takes nextid, full-clones the template, sets cores/memory and grows the disk', async () => {
    routes.set('GET /cluster/nextid', () => ({ body: { data: '123' } }));
    routes.set(`POST ${qemu}/9000/clone`, () => ({ body: { data: task('qmclone', '9000') } }));
    routes.set(`POST ${qemu}/123/config`, () => ({ body: { data: task('qmconfig', '123') } }));
    // resize answers null on PVE 7 and a UPID on PVE 8; null is covered here
    routes.set(`PUT ${qemu}/123/resize`, () => ({ body: { data: null } }));

    const result = await hypervisor().createFromTemplate({
      templateId: '9000',
      name: 'vps-42',
      cores: 2,
      memoryMb: 4096,
      diskGb: 60,
    });

    expect(result).toEqual({ machineId: '123' });
    const calls = received.filter((r) => !r.path.includes('/tasks/'));
    expect(calls.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /cluster/nextid',
      `POST ${qemu}/9000/clone`,
      `POST ${qemu}/123/config`,
      `PUT ${qemu}/123/resize`,
    ]);
    expect(calls[1]!.form).toEqual({ newid: '123', name: 'vps-42', full: '1' });
    expect(calls[2]!.form).toEqual({ cores: '2', memory: '4096' });
    expect(calls[3]!.form).toEqual({ disk: 'scsi0', size: '60G' });
    // each of the two tasks was read until it stopped: running, then stopped
    expect(taskReads()).toBe(4);
  });

  it('names the new machine when a step after the clone fails', async () => {
    routes.set('GET /cluster/nextid', () => ({ body: { data: '124' } }));
    routes.set(`POST ${qemu}/9000/clone`, () => ({ body: { data: task('qmclone', '9000') } }));
    routes.set(`POST ${qemu}/124/config`, () => ({ body: { data: null } }));
    routes.set(`PUT ${qemu}/124/resize`, () => ({
      status: 500,
      reason: "can't shrink disks",
      body: { data: null },
    }));

    const error = await failure(
      hypervisor().createFromTemplate({
        templateId: '9000',
        name: 'vps-43',
        cores: 1,
        memoryMb: 2048,
        diskGb: 10,
      }),
    );
    expect(error.kind).toBe('failed');
    expect(error.message).toContain("can't shrink disks");
    expect(error.machineId).toBe('124');
  });

  it('reports a failed clone task with its exit status', async () => {
    routes.set('GET /cluster/nextid', () => ({ body: { data: '125' } }));
    routes.set(`POST ${qemu}/9000/clone`, () => ({
      body: { data: task('qmclone', '9000', "clone failed: storage 'local-lvm' is full") },
    }));

    const error = await failure(
      hypervisor().createFromTemplate({
        templateId: '9000',
        name: 'vps-44',
        cores: 1,
        memoryMb: 2048,
        diskGb: 40,
      }),
    );
    expect(error.kind).toBe('failed');
    expect(error.message).toContain("clone failed: storage 'local-lvm' is full");
    expect(error.machineId).toBeUndefined();
  });

  it('reports a refused parameter with the per-parameter message', async () => {
    routes.set('GET /cluster/nextid', () => ({ body: { data: '126' } }));
    routes.set(`POST ${qemu}/9000/clone`, () => ({
      status: 400,
      reason: 'Parameter verification failed.',
      body: { data: null, errors: { name: 'invalid format - invalid DNS name' } },
    }));

    const error = await failure(
      hypervisor().createFromTemplate({
        templateId: '9000',
        name: 'not a dns name',
        cores: 1,
        memoryMb: 2048,
        diskGb: 40,
      }),
    );
    expect(error.kind).toBe('failed');
    expect(error.message).toContain('Parameter verification failed.');
    expect(error.message).toContain('name: invalid format - invalid DNS name');
  });
});

describe('Proxmox driver: power operations and tasks', () => {
  for (const action of ['start', 'shutdown', 'reboot'] as const) {
    it(`${action}: posts the action and waits for its task to stop with OK`, async () => {
      routes.set(`POST ${qemu}/123/status/${action}`, () => ({
        body: { data: task(`qm${action}`, '123') },
      }));

      await hypervisor()[action]('123');

      expect(received.map((r) => `${r.method} ${r.path.replace(/tasks\/.*/, 'tasks/…')}`)).toEqual([
        `POST ${qemu}/123/status/${action}`,
        `GET /nodes/${NODE}/tasks/…`,
        `GET /nodes/${NODE}/tasks/…`,
      ]);
      // the UPID (with its ':' and '@' and '!') reaches the node intact
      expect(decodeURIComponent(received[1]!.path.split('/')[4]!)).toBe(upid(`qm${action}`, '123'));
    });
  }

  it('a task that stops with an error is failed, with the error as message', async () => {
    routes.set(`POST ${qemu}/123/status/start`, () => ({
      body: { data: task('qmstart', '123', 'command failed') },
    }));

    const error = await failure(hypervisor().start('123'));
    expect(error.kind).toBe('failed');
    expect(error.message).toContain('command failed');
  });

  it('a task that never stops is a timeout after timeoutMs', async () => {
    const name = upid('qmshutdown', '123');
    tasks.set(name, [{ status: 'running' }]);
    routes.set(`POST ${qemu}/123/status/shutdown`, () => ({ body: { data: name } }));

    const started = Date.now();
    // 300 ms of 10 ms polls: room for several reads even when a loaded machine slows each one
    const error = await failure(hypervisor({ timeoutMs: 300, pollIntervalMs: 10 }).shutdown('123'));
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/did not finish within 300 ms/);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(taskReads()).toBeGreaterThan(2);
  });

  it('a node that does not answer in time is a timeout too', async () => {
    routes.set(`POST ${qemu}/123/status/reboot`, () => ({
      body: { data: upid('qmreboot', '123') },
    }));
    const slow: typeof fetch = (input, init) =>
      new Promise((resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason));
        void input;
      });
    const error = await failure(hypervisor({ timeoutMs: 50, fetch: slow }).reboot('123'));
    expect(error.kind).toBe('timeout');
  });
});

describe('Proxmox driver: errors', () => {
  it('a VM the node answers 404 for is not_found', async () => {
    routes.set(`POST ${qemu}/404/status/start`, () => ({
      status: 404,
      reason: 'no such VM',
      body: { data: null },
    }));
    const error = await failure(hypervisor().start('404'));
    expect(error.kind).toBe('not_found');
  });

  it('a VM whose configuration does not exist (500, as Proxmox answers) is not_found', async () => {
    const error = await failure(hypervisor().status('777'));
    expect(error.kind).toBe('not_found');
    expect(error.message).toContain('does not exist');
  });

  it('a machine id that is no VMID is not_found without a request', async () => {
    const error = await failure(hypervisor().delete('../../cluster'));
    expect(error.kind).toBe('not_found');
    expect(received).toHaveLength(0);
  });

  it('a refused connection is unavailable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const error = await failure(
      hypervisor({ baseUrl: `http://127.0.0.1:${port}/api2/json` }).status('123'),
    );
    expect(error.kind).toBe('unavailable');
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('a wrong token is unavailable, and the secret appears in no message', async () => {
    const error = await failure(hypervisor({ tokenSecret: 'wrong-secret' }).status('123'));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toContain('401');
    expect(error.message).not.toContain('wrong-secret');
  });
});

describe('Proxmox driver: status, resize, delete, password', () => {
  it('maps the current status: running, stopped, anything else unknown', async () => {
    const answers: Record<string, string> = { '201': 'running', '202': 'stopped', '203': 'paused' };
    for (const [id, status] of Object.entries(answers)) {
      routes.set(`GET ${qemu}/${id}/status/current`, () => ({
        body: { data: { vmid: Number(id), status, qmpstatus: status, cpus: 2 } },
      }));
    }
    const pve = hypervisor();
    expect(await pve.status('201')).toBe('running');
    expect(await pve.status('202')).toBe('stopped');
    expect(await pve.status('203')).toBe('unknown');
  });

  it('resizes: config, then resize waiting for its task (PVE 8)', async () => {
    routes.set(`POST ${qemu}/123/config`, () => ({ body: { data: null } }));
    routes.set(`PUT ${qemu}/123/resize`, () => ({ body: { data: task('resize', '123') } }));

    await hypervisor({ disk: 'virtio0' }).resize('123', { cores: 4, memoryMb: 8192, diskGb: 80 });

    const calls = received.filter((r) => !r.path.includes('/tasks/'));
    expect(calls.map((r) => [r.method, r.path, r.form])).toEqual([
      ['POST', `${qemu}/123/config`, { cores: '4', memory: '8192' }],
      ['PUT', `${qemu}/123/resize`, { disk: 'virtio0', size: '80G' }],
    ]);
    expect(taskReads()).toBe(2);
  });

  it('deletes with DELETE and waits for the destroy task', async () => {
    routes.set(`DELETE ${qemu}/123`, () => ({ body: { data: task('qmdestroy', '123') } }));

    await hypervisor().delete('123');

    expect(received[0]).toMatchObject({ method: 'DELETE', path: `${qemu}/123`, form: {} });
    expect(taskReads()).toBe(2);
  });

  it('sets a password through the guest agent', async () => {
    routes.set(`POST ${qemu}/123/agent/set-user-password`, () => ({
      body: { data: { result: {} } },
    }));

    await hypervisor().setPassword('123', 'Administrator', 'S3cret&=+pass');

    expect(received[0]!.form).toEqual({ username: 'Administrator', password: 'S3cret&=+pass' });
  });

  it('a guest agent that is not running fails the password change', async () => {
    routes.set(`POST ${qemu}/123/agent/set-user-password`, () => ({
      status: 500,
      reason: 'QEMU guest agent is not running',
      body: { data: null },
    }));
    const error = await failure(hypervisor().setPassword('123', 'root', 'x'));
    expect(error.kind).toBe('failed');
    expect(error.message).toContain('QEMU guest agent is not running');
  });
});
