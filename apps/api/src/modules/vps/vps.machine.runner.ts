import type { PowerState } from '@tradehost/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db, Executor } from '../../db/client.ts';
import { SEALED, openIn, sealIn } from '../../db/sealed.ts';
import { inTransaction } from '../../db/transaction.ts';
import {
  isHypervisorError,
  START_TERMINALS_TASK,
  type Hypervisor,
  type MachineId,
} from '../../integrations/hypervisor/index.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import { notify } from '../../integrations/mail/notify.ts';
import { vpsPasswordChangedMail, vpsReinstalledMail } from '../../integrations/mail/templates.ts';
import { rateLabel, serversLink } from '../../lib/vps-labels.ts';
import { auditServer } from './vps.effects.ts';
import type { OperationRow } from './vps.operations.ts';
import { randomServerPassword } from './vps.password.ts';
import type { OperationOf } from './vps.runner.ts';
import { vpsRepository, type ServerContext } from './vps.repository.ts';
import {
  machineSnapshotName,
  snapshotsRepository,
  type SnapshotRow,
} from './vps.snapshots.repository.ts';

/**
 * The runner's part for the owner's repairs of the machine (vps.machine.service.ts writes them):
 * snapshot, rollback, snapshot_delete, reinstall, password_reset. The same steps as the others:
 * the hypervisor calls outside any transaction (transient failures retried), then one
 * transaction records the outcome with its effects only if the operation is still running.
 */

/** What the runner lends: its retries, its power steps and how it records an outcome. */
export interface MachineRunnerTools {
  config: Config;
  db: Db;
  hypervisor: Hypervisor;
  mailer: Mailer;
  now: () => Date;
  log: FastifyBaseLogger;
  withRetry<T>(
    what: string,
    call: () => Promise<T>,
    retryAlso?: (error: unknown) => boolean,
  ): Promise<T>;
  ensurePower(id: MachineId, target: 'running' | 'stopped'): Promise<void>;
  readPower(id: MachineId | null | undefined): Promise<PowerState>;
  /** Finishes the operation in `tx` (its error's operator text, or success); false if taken over. */
  finish(tx: Executor, op: OperationRow, error: unknown): Promise<boolean>;
  /** A refusal of the runner itself, in the operators' words. */
  refuse(message: string): Error;
}

/** The guest agent answers a little after a boot: its refusal is retried too. */
const agentNotReady = (error: unknown) => isHypervisorError(error) && error.kind === 'failed';

export function createMachineRunner(tools: MachineRunnerTools) {
  const { config, db, hypervisor: hv, mailer, now, log, withRetry, ensurePower } = tools;
  const username = config.vps.rdpUsername;

  async function snapshotOf(op: OperationRow): Promise<SnapshotRow | undefined> {
    const id = Number(op.payload.snapshot_id);
    return Number.isSafeInteger(id) ? snapshotsRepository.find(db, op.serverId, id) : undefined;
  }

  async function takeSnapshot(machineId: MachineId, snapshot: SnapshotRow) {
    await withRetry(`snapshot ${snapshot.id} of ${machineId}`, () =>
      hv.createSnapshot(machineId, machineSnapshotName(snapshot), snapshot.name),
    );
  }

  /** Sets a new password through the guest agent; the sealed password to keep. */
  async function newPassword(serverId: number, machineId: MachineId): Promise<string> {
    const password = randomServerPassword();
    await withRetry(
      `password of ${machineId}`,
      () => hv.setPassword(machineId, username, password),
      agentNotReady,
    );
    return sealIn(config, SEALED.vpsPassword, serverId, password);
  }

  /**
   * After a rollback Windows has the password of the snapshot's moment: the one the console shows
   * is set again, so the login details stay true (best effort: a machine left stopped keeps the
   * snapshot's until the owner asks for a new one).
   */
  async function restorePassword(ctx: ServerContext, machineId: MachineId): Promise<void> {
    const sealed = ctx.server.passwordEnc;
    if (!sealed) return;
    try {
      const password = openIn(config, SEALED.vpsPassword, ctx.server.id, sealed);
      await withRetry(
        `password of ${machineId} after a rollback`,
        () => hv.setPassword(machineId, username, password),
        agentNotReady,
      );
    } catch (error) {
      log.warn(
        { err: error, serverId: ctx.server.id },
        'the password was not set after a rollback',
      );
    }
  }

  return {
    async run(op: OperationOf<'machine'>, ctx: ServerContext) {
      const { server, rate, owner } = ctx;
      const machineId = server.machineId;
      const snapshot = await snapshotOf(op);
      let error: unknown = null;
      let sealed: string | undefined;
      /** The snapshot of the operation was taken (a take, or the one before a reinstall). */
      let taken = false;
      try {
        if (!machineId) throw tools.refuse('the server has no machine');
        const needsSnapshot = op.kind === 'rollback' || op.kind === 'snapshot_delete';
        if ((needsSnapshot || op.kind === 'snapshot') && !snapshot)
          throw tools.refuse('the operation names no snapshot of this server');
        switch (op.kind) {
          case 'snapshot':
            await takeSnapshot(machineId, snapshot!);
            taken = true;
            break;
          case 'rollback': {
            const wasRunning = (await tools.readPower(machineId)) === 'running';
            await withRetry(`rollback of ${machineId}`, () =>
              hv.rollbackSnapshot(machineId, machineSnapshotName(snapshot!)),
            );
            // back to how the owner left it: a disk-only snapshot leaves the machine stopped
            if (wasRunning) {
              await ensurePower(machineId, 'running');
              await restorePassword(ctx, machineId);
            }
            break;
          }
          case 'snapshot_delete':
            try {
              await withRetry(`deletion of snapshot ${snapshot!.id}`, () =>
                hv.deleteSnapshot(machineId, machineSnapshotName(snapshot!)),
              );
            } catch (caught) {
              // already gone on the hypervisor: what was asked is true
              if (!(isHypervisorError(caught) && caught.kind === 'not_found')) throw caught;
            }
            break;
          case 'reinstall':
            if (snapshot) {
              await takeSnapshot(machineId, snapshot);
              taken = true;
            }
            if ((await tools.readPower(machineId)) !== 'stopped')
              await ensurePower(machineId, 'stopped');
            await withRetry(`reinstall of ${machineId}`, () =>
              hv.reinstall(machineId, {
                templateId: rate.templateId,
                cores: rate.cpuCores,
                memoryMb: rate.ramGb * 1024,
                diskGb: rate.diskGb,
              }),
            );
            await ensurePower(machineId, 'running');
            sealed = await newPassword(server.id, machineId);
            break;
          case 'password_reset':
            sealed = await newPassword(server.id, machineId);
            break;
          case 'terminal_restart': {
            // the template's task starts the terminals in the signed-in trading session: a
            // process the guest agent started would have no desktop
            const run = await withRetry(`terminal restart on ${machineId}`, () =>
              hv.exec(machineId, ['schtasks', '/run', '/tn', START_TERMINALS_TASK]),
            );
            if (run.exitCode !== 0)
              throw tools.refuse(
                `schtasks answered ${run.exitCode}: ${run.stdout}${run.stderr}`.trim(),
              );
            break;
          }
        }
      } catch (caught) {
        error = caught;
      }
      const power = await tools.readPower(machineId);

      const recorded = await inTransaction(db, async (tx) => {
        if (!(await tools.finish(tx, op, error))) return false;
        await vpsRepository.updateServer(
          tx,
          server.id,
          sealed ? { power, passwordEnc: sealed } : { power },
        );
        if (snapshot) {
          if (taken)
            await snapshotsRepository.update(tx, snapshot.id, { status: 'ready', takenAt: now() });
          else if (op.kind === 'snapshot' || op.kind === 'reinstall')
            await snapshotsRepository.remove(tx, snapshot.id); // never taken: nothing to keep
          else if (op.kind === 'snapshot_delete') {
            if (error) await snapshotsRepository.update(tx, snapshot.id, { status: 'ready' });
            else await snapshotsRepository.remove(tx, snapshot.id);
          }
        }
        if (!error && (op.kind === 'reinstall' || op.kind === 'password_reset')) {
          await auditServer(
            tx,
            op.kind === 'reinstall' ? 'vps.reinstalled' : 'vps.password_changed',
            server,
            { operation_id: op.id },
          );
        }
        return true;
      });
      if (!recorded) return null;
      if (!error && (op.kind === 'reinstall' || op.kind === 'password_reset')) {
        const base = {
          name: owner.name,
          serverId: server.id,
          rate: rateLabel(rate),
          link: serversLink(config),
        };
        await notify(mailer, log, owner, (language) =>
          op.kind === 'reinstall'
            ? vpsReinstalledMail(language, { ...base, snapshot: taken })
            : vpsPasswordChangedMail(language, base),
        );
      }
      return { ok: error === null };
    },
  };
}
