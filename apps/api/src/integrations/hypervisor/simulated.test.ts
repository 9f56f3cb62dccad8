import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers.ts';
import type { Config } from '../../config.ts';
import { createHypervisor, machineAddress } from './index.ts';
import { HypervisorError, type Hypervisor } from './port.ts';
import { createSimulatedHypervisor, injectFault } from './simulated.ts';

const t = useTestApp();

const SIZE = { templateId: '9000', name: 'vps-1', cores: 2, memoryMb: 4096, diskGb: 60 };

function sim(delayMs = { min: 1, max: 3 }): Hypervisor {
  return createSimulatedHypervisor(t.app.db, { delayMs });
}

async function failure(promise: Promise<unknown>): Promise<HypervisorError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HypervisorError) return error;
    throw error;
  }
  throw new Error('expected a HypervisorError');
}

async function machineRow(id: string) {
  const { rows } = await t.sql.query('select * from sim_machines where id = $1', [Number(id)]);
  return rows[0];
}

describe('simulated hypervisor', () => {
  it('creates a stopped machine of the asked size and drives it as Proxmox would', async () => {
    const hv = sim();
    const { machineId } = await hv.createFromTemplate(SIZE);
    expect(await machineRow(machineId)).toMatchObject({
      name: 'vps-1',
      template_id: '9000',
      cores: 2,
      memory_mb: 4096,
      disk_gb: 60,
      status: 'stopped',
      deleted_at: null,
    });
    expect(await hv.status(machineId)).toBe('stopped');

    await hv.start(machineId);
    expect(await hv.status(machineId)).toBe('running');
    expect((await failure(hv.start(machineId))).kind).toBe('failed');

    await hv.reboot(machineId);
    expect(await hv.status(machineId)).toBe('running');

    await hv.shutdown(machineId);
    expect(await hv.status(machineId)).toBe('stopped');
    expect((await failure(hv.shutdown(machineId))).message).toMatch(/not running/);
    expect((await failure(hv.reboot(machineId))).kind).toBe('failed');
  });

  it('sets a password only on a running machine and never keeps it', async () => {
    const hv = sim();
    const { machineId } = await hv.createFromTemplate(SIZE);
    const refused = await failure(hv.setPassword(machineId, 'Administrator', 'S3cret-Pass!'));
    expect(refused.kind).toBe('failed');
    expect(refused.message).toMatch(/guest agent/);
    await hv.start(machineId);
    await hv.setPassword(machineId, 'Administrator', 'S3cret-Pass!');
    const row = await machineRow(machineId);
    expect(row.password_set_at).toBeInstanceOf(Date);
    expect(JSON.stringify(row)).not.toContain('S3cret');
  });

  it('grows a machine and refuses to shrink its disk', async () => {
    const hv = sim();
    const { machineId } = await hv.createFromTemplate(SIZE);
    const shrink = await failure(hv.resize(machineId, { cores: 4, memoryMb: 8192, diskGb: 30 }));
    expect(shrink.kind).toBe('failed');
    expect(await machineRow(machineId)).toMatchObject({ cores: 2, disk_gb: 60 });
    await hv.resize(machineId, { cores: 4, memoryMb: 8192, diskGb: 120 });
    expect(await machineRow(machineId)).toMatchObject({ cores: 4, memory_mb: 8192, disk_gb: 120 });
  });

  it('deletes only a stopped machine; a deleted or unknown one is not_found', async () => {
    const hv = sim();
    const { machineId } = await hv.createFromTemplate(SIZE);
    await hv.start(machineId);
    expect((await failure(hv.delete(machineId))).message).toMatch(/running/);
    await hv.shutdown(machineId);
    await hv.delete(machineId);
    expect((await machineRow(machineId)).deleted_at).toBeInstanceOf(Date);
    for (const call of [
      () => hv.status(machineId),
      () => hv.start(machineId),
      () => hv.delete(machineId),
      () => hv.status('987654'),
      () => hv.reboot('not-a-vmid'),
      () => hv.resize('0', { cores: 1, memoryMb: 1024, diskGb: 10 }),
    ]) {
      expect((await failure(call())).kind).toBe('not_found');
    }
  });

  it('refuses an unknown template', async () => {
    expect((await failure(sim().createFromTemplate({ ...SIZE, templateId: 'x' }))).kind).toBe(
      'not_found',
    );
  });

  it('throws an injected fault once, for its operation only, in the order injected', async () => {
    const hv = sim();
    const { machineId } = await hv.createFromTemplate(SIZE);
    await injectFault(t.app.db, 'start', 'timeout', 'no answer in time');
    await injectFault(t.app.db, 'start', 'unavailable');
    // another operation is not affected
    expect(await hv.status(machineId)).toBe('stopped');
    const first = await failure(hv.start(machineId));
    expect([first.kind, first.message]).toEqual(['timeout', 'no answer in time']);
    const second = await failure(hv.start(machineId));
    expect([second.kind, second.message]).toEqual([
      'unavailable',
      'The simulated hypervisor refused the operation',
    ]);
    // the faults did not change the machine; now the call works
    expect(await hv.status(machineId)).toBe('stopped');
    await hv.start(machineId);
    expect(await hv.status(machineId)).toBe('running');
    const { rows } = await t.sql.query('select count(*)::int as n from sim_faults');
    expect(rows[0].n).toBe(0);
  });

  it('makes no machine when create is faulted', async () => {
    const hv = sim();
    const before = await t.sql.query('select count(*)::int as n from sim_machines');
    await injectFault(t.app.db, 'createFromTemplate', 'failed', 'storage full');
    const error = await failure(hv.createFromTemplate(SIZE));
    expect([error.kind, error.message, error.machineId]).toEqual([
      'failed',
      'storage full',
      undefined,
    ]);
    const after = await t.sql.query('select count(*)::int as n from sim_machines');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('takes its delay for slow calls and answers status at once', async () => {
    const hv = sim({ min: 120, max: 150 });
    let started = Date.now();
    const { machineId } = await hv.createFromTemplate(SIZE);
    expect(Date.now() - started).toBeGreaterThanOrEqual(115);
    started = Date.now();
    await hv.start(machineId);
    expect(Date.now() - started).toBeGreaterThanOrEqual(115);
    started = Date.now();
    await hv.status(machineId);
    expect(Date.now() - started).toBeLessThan(100);
  });

  it('lets only one of two simultaneous starts succeed', async () => {
    const hv = sim({ min: 30, max: 30 });
    const { machineId } = await hv.createFromTemplate(SIZE);
    const results = await Promise.allSettled([hv.start(machineId), hv.start(machineId)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await hv.status(machineId)).toBe('running');
  });
});

describe('createHypervisor and machineAddress', () => {
  const proxmoxConfig = (): Config => ({
    ...t.config,
    vps: {
      ...t.config.vps,
      hypervisor: 'proxmox',
      proxmox: {
        baseUrl: 'http://127.0.0.1:1/api2/json',
        tokenId: 'a@pve!b',
        tokenSecret: 'secret-secret',
        node: 'pve',
        pollIntervalMs: 5,
        timeoutMs: 2000,
        rdpHost: 'rdp.example.com',
        rdpPortBase: 40_000,
      },
    },
  });

  it('gives simulated machines a documentation address on 3389', () => {
    expect(machineAddress(t.config, '1')).toEqual({ host: '203.0.113.2', port: 3389 });
    expect(machineAddress(t.config, '254')).toEqual({ host: '203.0.113.1', port: 3389 });
    expect(machineAddress(t.config, '300')).toEqual({ host: '203.0.113.47', port: 3389 });
  });

  it('gives Proxmox machines the RDP host and port base + VMID, and refuses a port past 65535', () => {
    expect(machineAddress(proxmoxConfig(), '101')).toEqual({
      host: 'rdp.example.com',
      port: 40_101,
    });
    expect(() => machineAddress(proxmoxConfig(), '30000')).toThrow(/past the last port/);
    expect(() => machineAddress(t.config, 'abc')).toThrow(/not a machine id/);
  });

  it('chooses the driver from the config', async () => {
    const simulated = createHypervisor(t.config, t.app.db);
    expect((await failure(simulated.status('999999'))).kind).toBe('not_found');
    // the Proxmox driver asks the (unreachable) node
    const proxmox = createHypervisor(proxmoxConfig(), t.app.db);
    const error = await failure(proxmox.status('101'));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/127\.0\.0\.1:1/);
  });
});
