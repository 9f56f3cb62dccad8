/**
 * The behaviour every hypervisor driver keeps for the self-service calls, as one `describe` run
 * against each (contract.test.ts: the simulated driver on PostgreSQL, the Proxmox driver against
 * the loopback fake of test/proxmox-fake.ts), so the two cannot drift apart: what the simulated
 * driver lets the console and the terminal guardian do in development is what Proxmox does.
 */
import { describe, expect, it } from 'vitest';
import {
  HypervisorError,
  METRICS_POINTS,
  METRICS_STEP_SECONDS,
  type Hypervisor,
  type HypervisorErrorKind,
  type MachineId,
  type MetricsTimeframe,
} from './port.ts';
import { RfbViewer } from '../../../test/rfb-viewer.ts';
import { SCREEN_HEIGHT, SCREEN_WIDTH } from './rfb.ts';
import { START_TERMINALS_TASK, TERMINAL_IMAGE } from './windows-guest.ts';

/** A driver under the contract, and the hands that reach into its guests. */
export interface ContractSubject {
  hypervisor: Hypervisor;
  /** A template the machines are created from. */
  templateId: string;
  /** Installs terminals on the machine's disk and starts them if it runs. */
  putTerminals(id: MachineId, images: string[]): Promise<void>;
  /** Kills the machine's terminal with the lowest pid, as a crash does; answers its pid. */
  crashTerminal(id: MachineId): Promise<number | undefined>;
}

/** The rejection of `promise`, which must be a HypervisorError. */
export async function failure(promise: Promise<unknown>): Promise<HypervisorError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HypervisorError);
  return error as HypervisorError;
}

async function expectKind(promise: Promise<unknown>, kind: HypervisorErrorKind, message?: RegExp) {
  const error = await failure(promise);
  expect([error.kind, error.message]).toEqual([kind, expect.stringMatching(message ?? /./)]);
}

/** A machine id no driver has: a VMID nobody made. */
export const MISSING = '987654';

const TASKLIST = ['tasklist', '/fo', 'csv', '/nh', '/fi', `IMAGENAME eq ${TERMINAL_IMAGE}`];
const RUN_TASK = ['schtasks', '/run', '/tn', START_TERMINALS_TASK];
const NO_TASKS = 'INFO: No tasks are running which match the specified criteria.\r\n';
/** One line of `tasklist /fo csv /nh`, as Windows prints it. */
const TERMINAL_LINE = /^"terminal64\.exe","(\d+)","Console","1","\d{1,3}(,\d{3})* K"$/;

export function describeHypervisorContract(name: string, subject: () => ContractSubject): void {
  const hv = () => subject().hypervisor;
  let made = 0;

  async function machine(state: 'running' | 'stopped' = 'running'): Promise<MachineId> {
    made += 1;
    const { machineId } = await hv().createFromTemplate({
      templateId: subject().templateId,
      name: `contract-${made}`,
      cores: 2,
      memoryMb: 4096,
      diskGb: 40,
    });
    if (state === 'running') await hv().start(machineId);
    return machineId;
  }

  /** The pids of the terminals `tasklist` shows (none: the INFO line, checked). */
  async function terminalPids(id: MachineId): Promise<number[]> {
    const run = await hv().exec(id, TASKLIST);
    expect([run.exitCode, run.stderr, run.truncated]).toEqual([0, '', false]);
    if (run.stdout === NO_TASKS) return [];
    expect(run.stdout.endsWith('\r\n')).toBe(true);
    return run.stdout
      .slice(0, -2)
      .split('\r\n')
      .map((line) => {
        const match = TERMINAL_LINE.exec(line);
        expect(match, line).not.toBeNull();
        return Number(match![1]);
      });
  }

  describe(`${name}: the hypervisor contract`, () => {
    describe('metrics', () => {
      const timeframes: MetricsTimeframe[] = ['hour', 'day', 'week'];

      it('gives the load of a running machine as points a step apart, oldest first', async () => {
        const id = await machine();
        for (const timeframe of timeframes) {
          const points = await hv().metrics(id, timeframe);
          expect(points).toHaveLength(METRICS_POINTS);
          for (let i = 1; i < points.length; i++)
            expect(points[i]!.at.getTime() - points[i - 1]!.at.getTime()).toBe(
              METRICS_STEP_SECONDS[timeframe] * 1000,
            );
          // the step now running holds the load; older ones may be gaps (the machine is new)
          const now = points.at(-1)!;
          expect(now.at.getTime()).toBeLessThanOrEqual(Date.now());
          expect(now.cpu).toBeGreaterThanOrEqual(0);
          expect(now.cpu).toBeLessThanOrEqual(1);
          expect(now.memoryTotalBytes).toBe(4096 * 1024 * 1024);
          expect(now.memoryBytes).toBeLessThanOrEqual(now.memoryTotalBytes!);
          for (const point of points) {
            expect(point.at).toBeInstanceOf(Date);
            if (point.cpu !== null) expect(point.cpu).toBeLessThanOrEqual(1);
            for (const figure of [point.netInBps, point.netOutBps, point.diskReadBps]) {
              expect(figure === null || figure >= 0).toBe(true);
            }
          }
        }
      });

      it('has no load for a stopped machine but keeps its memory total', async () => {
        const id = await machine('stopped');
        const now = (await hv().metrics(id, 'hour')).at(-1)!;
        expect(now).toMatchObject({
          cpu: null,
          memoryBytes: null,
          netInBps: null,
          diskWriteBps: null,
          memoryTotalBytes: 4096 * 1024 * 1024,
        });
      });

      it('a missing machine is not_found', async () => {
        await expectKind(hv().metrics(MISSING, 'day'), 'not_found');
      });
    });

    describe('snapshots', () => {
      it('takes, lists oldest first, rolls back to and deletes snapshots', async () => {
        const id = await machine();
        expect(await hv().snapshots(id)).toEqual([]);
        const before = Date.now() - 2_000;
        await hv().createSnapshot(id, 'alpha', 'Before the EA update');
        await hv().createSnapshot(id, 'beta', '');
        const list = await hv().snapshots(id);
        expect(list.map((s) => [s.name, s.description])).toEqual([
          ['alpha', 'Before the EA update'],
          ['beta', ''],
        ]);
        for (const snapshot of list) {
          expect(snapshot.createdAt.getTime()).toBeGreaterThanOrEqual(before);
          expect(snapshot.createdAt.getTime()).toBeLessThanOrEqual(Date.now() + 1_000);
        }
        // a running machine is stopped by the rollback and stays so (no RAM state)
        await hv().rollbackSnapshot(id, 'alpha');
        expect(await hv().status(id)).toBe('stopped');
        await hv().deleteSnapshot(id, 'beta');
        expect((await hv().snapshots(id)).map((s) => s.name)).toEqual(['alpha']);
      });

      it('refuses a name Proxmox would refuse, before anything changes', async () => {
        const id = await machine('stopped');
        await hv().createSnapshot(id, 'kept', '');
        const bad = ['1st', 'a', 'has space', 'x'.repeat(41), 'current', 'Pending', 'dot.ted'];
        for (const snapname of bad) {
          await expectKind(hv().createSnapshot(id, snapname, ''), 'failed', /snapshot name/);
          await expectKind(hv().rollbackSnapshot(id, snapname), 'failed', /snapshot name/);
          await expectKind(hv().deleteSnapshot(id, snapname), 'failed', /snapshot name/);
        }
        // the longest name Proxmox takes is 40 characters
        await hv().createSnapshot(id, `a${'b'.repeat(39)}`, '');
        expect((await hv().snapshots(id)).map((s) => s.name)).toEqual([
          'kept',
          `a${'b'.repeat(39)}`,
        ]);
      });

      it('refuses a name already used', async () => {
        const id = await machine('stopped');
        await hv().createSnapshot(id, 'daily', 'first');
        await expectKind(hv().createSnapshot(id, 'daily', 'second'), 'failed', /already used/);
        expect(await hv().snapshots(id)).toMatchObject([{ name: 'daily', description: 'first' }]);
      });

      it('a missing snapshot is not_found for rollback and delete', async () => {
        const id = await machine();
        await expectKind(hv().rollbackSnapshot(id, 'nothing'), 'not_found', /does not exist/);
        await expectKind(hv().deleteSnapshot(id, 'nothing'), 'not_found', /does not exist/);
        // the rollback that found nothing stopped nothing
        expect(await hv().status(id)).toBe('running');
      });

      it('a missing machine is not_found for every snapshot call', async () => {
        await expectKind(hv().snapshots(MISSING), 'not_found');
        await expectKind(hv().createSnapshot(MISSING, 'daily', ''), 'not_found');
        await expectKind(hv().rollbackSnapshot(MISSING, 'daily'), 'not_found');
        await expectKind(hv().deleteSnapshot(MISSING, 'daily'), 'not_found');
      });

      it('a rollback returns the disk of its moment: terminals installed since are gone', async () => {
        const id = await machine('stopped');
        await hv().createSnapshot(id, 'clean', 'fresh from the template');
        await subject().putTerminals(id, [TERMINAL_IMAGE]);
        await hv().start(id);
        expect(await terminalPids(id)).toHaveLength(1);
        await hv().createSnapshot(id, 'with-terminal', '');

        await hv().rollbackSnapshot(id, 'clean');
        await hv().start(id);
        expect(await terminalPids(id)).toEqual([]);
        await hv().shutdown(id);
        await hv().rollbackSnapshot(id, 'with-terminal');
        await hv().start(id);
        expect(await terminalPids(id)).toHaveLength(1);
      });
    });

    describe('reinstall', () => {
      const fresh = () => ({
        templateId: subject().templateId,
        cores: 4,
        memoryMb: 8192,
        diskGb: 60,
      });

      it('refuses a running machine and changes nothing', async () => {
        const id = await machine();
        await subject().putTerminals(id, [TERMINAL_IMAGE]);
        await expectKind(hv().reinstall(id, fresh()), 'failed', /running/);
        expect(await hv().status(id)).toBe('running');
        expect(await terminalPids(id)).toHaveLength(1);
      });

      it('gives a stopped machine a fresh disk, keeping its id and snapshots', async () => {
        const id = await machine();
        await subject().putTerminals(id, [TERMINAL_IMAGE, TERMINAL_IMAGE]);
        await hv().createSnapshot(id, 'before-reinstall', '');
        await hv().shutdown(id);

        await hv().reinstall(id, fresh());
        expect(await hv().status(id)).toBe('stopped');
        expect((await hv().snapshots(id)).map((s) => s.name)).toEqual(['before-reinstall']);
        // the template's disk has no terminals: the logon task has nothing to start
        await hv().start(id);
        expect(await terminalPids(id)).toEqual([]);
        expect((await hv().exec(id, RUN_TASK)).exitCode).toBe(0);
        expect(await terminalPids(id)).toEqual([]);
        // the snapshot still returns to the disk before the reinstall
        await hv().rollbackSnapshot(id, 'before-reinstall');
        await hv().start(id);
        expect(await terminalPids(id)).toHaveLength(2);
      });

      it('a missing machine or template is not_found', async () => {
        await expectKind(hv().reinstall(MISSING, fresh()), 'not_found');
        const id = await machine('stopped');
        // no template of either driver has that id (the simulated one takes any number)
        await expectKind(hv().reinstall(id, { ...fresh(), templateId: 'no-such' }), 'not_found');
        expect(await hv().status(id)).toBe('stopped');
      });
    });

    describe('guest commands', () => {
      it('lists the terminals as tasklist prints them', async () => {
        const id = await machine();
        await subject().putTerminals(id, [TERMINAL_IMAGE, TERMINAL_IMAGE]);
        const run = await hv().exec(id, TASKLIST, { timeoutMs: 10_000 });
        expect(run.exitCode).toBe(0);
        const lines = run.stdout.split('\r\n');
        expect(lines.at(-1)).toBe('');
        expect(lines.slice(0, -1)).toEqual([
          expect.stringMatching(TERMINAL_LINE),
          expect.stringMatching(TERMINAL_LINE),
        ]);
        // with a header and no filter: Windows' own processes and tasklist itself too
        const all = await hv().exec(id, ['tasklist', '/FO', 'CSV']);
        const rows = all.stdout.trimEnd().split('\r\n');
        expect(rows[0]).toBe('"Image Name","PID","Session Name","Session#","Mem Usage"');
        expect(rows.filter((row) => row.startsWith('"terminal64.exe"'))).toHaveLength(2);
        expect(rows.some((row) => row.startsWith('"tasklist.exe"'))).toBe(true);
      });

      it('a crashed terminal is missing from tasklist and back after the logon task runs', async () => {
        const id = await machine();
        await subject().putTerminals(id, [TERMINAL_IMAGE, TERMINAL_IMAGE]);
        const pids = await terminalPids(id);
        expect(pids).toHaveLength(2);
        const crashed = await subject().crashTerminal(id);
        expect(pids).toContain(crashed);
        expect(await terminalPids(id)).toEqual(pids.filter((pid) => pid !== crashed));

        const run = await hv().exec(id, RUN_TASK);
        expect(run).toEqual({
          exitCode: 0,
          stdout: `SUCCESS: Attempted to run the scheduled task "${START_TERMINALS_TASK}".\r\n`,
          stderr: '',
          truncated: false,
        });
        const after = await terminalPids(id);
        expect(after).toHaveLength(2);
        expect(after).toEqual(expect.arrayContaining(pids.filter((pid) => pid !== crashed)));
        // running the task again starts no third terminal
        await hv().exec(id, RUN_TASK);
        expect(await terminalPids(id)).toHaveLength(2);
      });

      it('says when no process matches, with exit code 0', async () => {
        const id = await machine();
        expect(await hv().exec(id, TASKLIST)).toEqual({
          exitCode: 0,
          stdout: NO_TASKS,
          stderr: '',
          truncated: false,
        });
      });

      it('an unknown task or program exits 1 with an error text', async () => {
        const id = await machine();
        const task = await hv().exec(id, ['schtasks', '/run', '/tn', 'TradeHost\\Nothing']);
        expect(task).toMatchObject({
          exitCode: 1,
          stdout: '',
          stderr: 'ERROR: The system cannot find the file specified.\r\n',
        });
        const other = await hv().exec(id, ['powershell', '-Command', 'Get-Process']);
        expect(other.exitCode).toBe(1);
        expect(other.stderr).not.toBe('');
        const filter = await hv().exec(id, ['tasklist', '/fi', 'WINDOWTITLE eq x y']);
        expect(filter).toMatchObject({
          exitCode: 1,
          stderr: 'ERROR: The search filter cannot be recognized.\r\n',
        });
      });

      it('a boot starts the installed terminals, a shutdown ends them', async () => {
        const id = await machine('stopped');
        await subject().putTerminals(id, [TERMINAL_IMAGE]);
        await hv().start(id);
        expect(await terminalPids(id)).toHaveLength(1);
        await subject().crashTerminal(id);
        await hv().reboot(id);
        expect(await terminalPids(id)).toHaveLength(1);
        await hv().shutdown(id);
        await expectKind(hv().exec(id, TASKLIST), 'failed', /not running/);
      });

      it('refuses an empty command, and a missing machine is not_found', async () => {
        const id = await machine();
        await expectKind(hv().exec(id, []), 'failed', /command/);
        await expectKind(hv().exec(MISSING, TASKLIST), 'not_found');
      });
    });

    describe('console ticket', () => {
      it('gives a running machine a ticket and a port, refuses a stopped one', async () => {
        const id = await machine();
        const ticket = await hv().consoleTicket(id);
        expect(ticket.ticket).toMatch(/^PVEVNC:/);
        expect(Number.isInteger(ticket.port) && ticket.port >= 5900).toBe(true);
        expect(ticket.user).not.toBe('');
        await hv().shutdown(id);
        await expectKind(hv().consoleTicket(id), 'failed', /not running/);
        await expectKind(hv().consoleTicket(MISSING), 'not_found');
      });
    });

    describe('console', () => {
      it("opens a running machine's screen: its size, its name and the sign-in picture", async () => {
        const id = await machine();
        const viewer = await RfbViewer.open(await hv().openConsole(id));
        try {
          expect([viewer.width, viewer.height, viewer.name]).toEqual([
            SCREEN_WIDTH,
            SCREEN_HEIGHT,
            `contract-${made}`,
          ]);
          await viewer.update();
          expect(viewer.shows('sign_in', 0)).toBe(true);
          // what a trader does at the sign-in screen shows on it
          viewer.type('S3cret');
          await viewer.update(true);
          expect(viewer.shows('sign_in', 6)).toBe(true);
          viewer.ctrlAltDel();
          await viewer.update(true);
          expect(viewer.shows('security', 6)).toBe(true);
        } finally {
          viewer.close();
        }
      });

      it('a stopped machine is failed, a missing one not_found', async () => {
        const id = await machine('stopped');
        await expectKind(hv().openConsole(id), 'failed', /not running/);
        await expectKind(hv().openConsole(MISSING), 'not_found');
      });
    });
  });
}
