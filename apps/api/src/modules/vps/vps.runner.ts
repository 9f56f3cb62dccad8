import {
  TELEGRAM_PURPOSES,
  type OperationKind,
  type PowerState,
  type TelegramPurpose,
} from '@tradehost/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { publishLive } from '../../db/live.ts';
import { inTransaction } from '../../db/transaction.ts';
import { partnerRewards } from '../../db/partner-rewards.ts';
import {
  isHypervisorError,
  machineAddress,
  type Hypervisor,
  type MachineId,
} from '../../integrations/hypervisor/index.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import type { TelegramOutbox } from '../../integrations/telegram/port.ts';
import {
  vpsReactivatedMail,
  vpsReadyMail,
  vpsUpgradeDoneMail,
} from '../../integrations/mail/templates.ts';
import { SEALED, sealIn } from '../../db/sealed.ts';
import { rateLabel, serversLink } from '../../lib/vps-labels.ts';
import { powerOutcomeMessage, type FailureWhy, type PowerOutcome } from './vps.chat.ts';
import { auditServer } from './vps.effects.ts';
import { createMachineRunner } from './vps.machine.runner.ts';
import { notify } from '../../integrations/mail/notify.ts';
import { failCreate, failUpgrade, tellFailure, upgradeDetails } from './vps.failures.ts';
import type { OperationRow } from './vps.operations.ts';
import { vpsRepository, type ServerContext } from './vps.repository.ts';
import { vpsJobsRepository } from './vps.jobs.repository.ts';
import { randomServerPassword } from './vps.password.ts';

/**
 * The operation runner: runs one `vps_operations` row on the hypervisor and records its outcome.
 *
 * 1. Claim: queued -> running in one conditional UPDATE, so a second delivery of the same job (or
 *    a second instance) finds nothing to do.
 * 2. The hypervisor calls, outside any transaction (they take minutes). Transient failures
 *    ('unavailable', 'timeout') are retried a few times with a growing pause; after a timeout
 *    the machine's status is read first, as the call may have completed after all.
 * 3. One transaction records the outcome and its effects (server state, refunds, audit) only if
 *    the operation is still running: an operator may have failed or re-queued it meanwhile.
 * 4. The mail, after the commit.
 */

export interface RunnerDeps {
  config: Config;
  db: Db;
  hypervisor: Hypervisor;
  mailer: Mailer;
  /** Tells the chat an order came from that it has ended (absent: no chat is told). */
  telegram?: TelegramOutbox;
  now: () => Date;
  log: FastifyBaseLogger;
  /** The pauses before each retry of a transient failure (their count is the retries). */
  retryDelaysMs: readonly number[];
}

export interface Runner {
  run(operationId: number): Promise<void>;
}

/** How an operation ended, once recorded; null when it was taken over meanwhile. */
type Ended = { ok: boolean } | null;

/** A refusal of the runner itself (no machine, an upgrade that is no longer pending). */
class RunnerFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunnerFailure';
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const isTransient = (error: unknown) =>
  isHypervisorError(error) && (error.kind === 'unavailable' || error.kind === 'timeout');

/** The operator's text (operations log): what failed, as the hypervisor said it. */
function errorText(error: unknown): string {
  if (isHypervisorError(error)) return `${error.kind}: ${error.message}`;
  if (error instanceof RunnerFailure) return error.message;
  return `internal error: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * The user's text (the server's `failure`, the mails): why, honestly, without the hypervisor's
 * addresses and internals, which only operators see.
 */
export function reasonText(error: unknown): string {
  if (isHypervisorError(error)) {
    switch (error.kind) {
      case 'unavailable':
        return 'the virtualization host could not be reached.';
      case 'timeout':
        return 'the virtualization host did not finish in time.';
      case 'not_found':
        return 'the machine or its template was not found on the virtualization host.';
      default:
        return 'the virtualization host refused the operation.';
    }
  }
  if (error instanceof RunnerFailure) return `${error.message}.`;
  return 'an internal error stopped the operation.';
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The user's reason as the chat's texts name it (vps.chat.ts). */
function failureWhy(error: unknown): FailureWhy {
  if (!isHypervisorError(error)) return 'internal';
  return error.kind === 'failed' ? 'refused' : error.kind;
}

/**
 * Which part of the runner runs each kind of operation: the one list of it (a new kind must name
 * its part). `power`: a control whose order's chat hears how it ended (vps.chat.ts words those);
 * `machine`: the owner's repairs (vps.machine.runner.ts).
 */
const PART_OF = {
  create: 'create',
  upgrade: 'upgrade',
  start: 'power',
  shutdown: 'power',
  reboot: 'power',
  block: 'control',
  reactivate: 'control',
  revoke: 'control',
  snapshot: 'machine',
  rollback: 'machine',
  snapshot_delete: 'machine',
  reinstall: 'machine',
  password_reset: 'machine',
  terminal_restart: 'machine',
} as const satisfies Record<OperationKind, string>;

type Part = (typeof PART_OF)[OperationKind];

/** An operation that `P` runs, its kind narrowed to that part's. */
export type OperationOf<P extends Part> = OperationRow & {
  kind: { [K in OperationKind]: (typeof PART_OF)[K] extends P ? K : never }[OperationKind];
};

const runBy = <P extends Part>(op: OperationRow, part: P): op is OperationOf<P> =>
  PART_OF[op.kind] === part;

/** The chat an operation's order came from (its payload's `tell_chat`), if any. */
function chatToTell(op: OperationRow): TelegramPurpose | undefined {
  const purpose = op.payload.tell_chat;
  return TELEGRAM_PURPOSES.find((p) => p === purpose);
}

export function createRunner(deps: RunnerDeps): Runner {
  const { config, db, hypervisor: hv, mailer, now, log } = deps;
  const link = serversLink(config);

  /** Runs `call`, retrying transient failures (and those `retryAlso` names) after a pause. */
  async function withRetry<T>(
    what: string,
    call: () => Promise<T>,
    retryAlso: (error: unknown) => boolean = () => false,
  ): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await call();
      } catch (error) {
        const delay = deps.retryDelaysMs[attempt];
        if (delay === undefined || !(isTransient(error) || retryAlso(error))) throw error;
        log.warn({ err: error, attempt: attempt + 1 }, `${what} failed; retrying in ${delay} ms`);
        await sleep(delay);
      }
    }
  }

  /** The machine's power as the hypervisor says it; 'unknown' when it cannot say. */
  async function readPower(id: MachineId | null | undefined): Promise<PowerState> {
    if (!id) return 'unknown';
    try {
      return await hv.status(id);
    } catch {
      return 'unknown';
    }
  }

  /**
   * Starts or shuts down a machine until it is in `target`. A call that failed or timed out is
   * checked against the status first: a start of a machine that is already running (the user's
   * view was stale, or a timed-out start completed) has reached what was asked.
   */
  async function ensurePower(id: MachineId, target: 'running' | 'stopped'): Promise<void> {
    await withRetry(`${target === 'running' ? 'start' : 'shutdown'} of ${id}`, async () => {
      try {
        if (target === 'running') await hv.start(id);
        else await hv.shutdown(id);
      } catch (error) {
        if (isHypervisorError(error) && error.kind !== 'not_found') {
          if ((await readPower(id)) === target) return;
        }
        throw error;
      }
    });
  }

  async function reboot(id: MachineId): Promise<void> {
    await withRetry(`reboot of ${id}`, async () => {
      try {
        await hv.reboot(id);
      } catch (error) {
        // a timed-out reboot that has come back is done; a refused one is not
        if (isHypervisorError(error) && error.kind === 'timeout') {
          if ((await readPower(id)) === 'running') return;
        }
        throw error;
      }
    });
  }

  /** Shuts the machine down if it runs, then deletes it; a machine already gone is done. */
  async function removeMachine(id: MachineId): Promise<void> {
    try {
      if ((await withRetry(`status of ${id}`, () => hv.status(id))) === 'running')
        await ensurePower(id, 'stopped');
      await withRetry(`delete of ${id}`, () => hv.delete(id));
    } catch (error) {
      if (isHypervisorError(error) && error.kind === 'not_found') return;
      throw error;
    }
  }

  const machine = createMachineRunner({
    config,
    db,
    hypervisor: hv,
    mailer,
    now,
    log,
    withRetry,
    ensurePower,
    readPower,
    finish: (tx, op, error) =>
      vpsJobsRepository.finish(tx, op, error === null ? null : errorText(error), now()),
    refuse: (message) => new RunnerFailure(message),
  });

  async function finishOnly(op: OperationRow, error: unknown): Promise<void> {
    await inTransaction(db, (tx) => vpsJobsRepository.finish(tx, op, errorText(error), now()));
  }

  // ---- create ----------------------------------------------------------------------------

  async function create(op: OperationRow, ctx: ServerContext): Promise<Ended> {
    const { server, rate, owner } = ctx;
    const username = config.vps.rdpUsername;
    let machineId: MachineId | undefined;
    let outcome: { ok: true } | { ok: false; error: unknown };
    let sealed = '';
    let address = { host: '', port: 0 };
    try {
      if (server.status !== 'provisioning')
        throw new RunnerFailure(`the server is ${server.status}, not being created`);
      const created = await withRetry(`create of server ${server.id}`, async () => {
        try {
          return await hv.createFromTemplate({
            templateId: rate.templateId,
            name: `vps-${server.id}`,
            cores: rate.cpuCores,
            memoryMb: rate.ramGb * 1024,
            diskGb: rate.diskGb,
          });
        } catch (error) {
          // a half-made machine of a failed attempt goes before the next attempt
          if (isHypervisorError(error) && error.machineId && isTransient(error))
            await discard(error.machineId);
          throw error;
        }
      });
      machineId = created.machineId;
      await ensurePower(machineId, 'running');
      const password = randomServerPassword();
      // the guest agent answers a little after the boot: a refusal is retried too
      await withRetry(
        `password of ${machineId}`,
        () => hv.setPassword(machineId!, username, password),
        (error) => isHypervisorError(error) && error.kind === 'failed',
      );
      address = machineAddress(config, machineId);
      sealed = sealIn(config, SEALED.vpsPassword, server.id, password);
      outcome = { ok: true };
    } catch (error) {
      outcome = { ok: false, error };
    }

    if (outcome.ok) {
      const recorded = await inTransaction(db, async (tx) => {
        if (!(await vpsJobsRepository.finish(tx, op, null, now()))) return false;
        await vpsRepository.updateServer(tx, server.id, {
          status: 'active',
          power: 'running',
          machineId: machineId!,
          host: address.host,
          port: address.port,
          username,
          passwordEnc: sealed,
          failure: null,
        });
        // the order's charge is final now that its server exists: its partner rewards
        await partnerRewards.grant(tx, server.chargeId, now());
        await auditServer(tx, 'vps.created', server, {
          operation_id: op.id,
          machine_id: machineId,
          host: address.host,
        });
        return true;
      });
      if (!recorded) {
        // an operator failed (and refunded) or re-queued it meanwhile: this machine is nobody's
        log.warn({ operationId: op.id, machineId }, 'create finished after it was taken over');
        await discard(machineId!);
        return null;
      }
      await notify(mailer, log, owner, (language) =>
        vpsReadyMail(language, {
          name: owner.name,
          serverId: server.id,
          rate: rateLabel(rate),
          link,
          host: address.host,
          port: address.port,
          username,
        }),
      );
      return { ok: true };
    }

    const { error } = outcome;
    let operatorText = errorText(error);
    const leftover = machineId ?? (isHypervisorError(error) ? error.machineId : undefined);
    if (leftover) {
      try {
        await discard(leftover);
      } catch (cleanupError) {
        operatorText += `; the half-made machine ${leftover} could not be deleted (${errorText(cleanupError)})`;
      }
    }
    const failed = await inTransaction(db, async (tx) => {
      if (!(await vpsJobsRepository.finish(tx, op, operatorText, now()))) return null;
      return failCreate(tx, op, { error: operatorText, reason: reasonText(error) });
    });
    if (failed) await tellFailure(deps, failed, capitalize(reasonText(error)));
    return failed ? { ok: false } : null;
  }

  /** Deletes a machine this runner made and will not hand over (best effort, logged). */
  async function discard(id: MachineId): Promise<void> {
    try {
      await removeMachine(id);
    } catch (error) {
      log.error({ err: error, machineId: id }, 'a half-made machine could not be deleted');
      throw error;
    }
  }

  // ---- start, shutdown, reboot, block, reactivate, revoke ----------------------------------

  async function control(op: OperationOf<'power' | 'control'>, ctx: ServerContext): Promise<Ended> {
    const { server, rate, owner } = ctx;
    const id = server.machineId;
    let error: unknown = null;
    let power: PowerState;
    try {
      if (!id) throw new RunnerFailure('the server has no machine');
      switch (op.kind) {
        case 'start':
        case 'reactivate':
          await ensurePower(id, 'running');
          power = 'running';
          break;
        case 'shutdown':
        case 'block':
          await ensurePower(id, 'stopped');
          power = 'stopped';
          break;
        case 'reboot':
          await reboot(id);
          power = 'running';
          break;
        case 'revoke':
          await removeMachine(id);
          power = 'stopped';
          break;
      }
    } catch (caught) {
      error = caught;
      // the state stays true: what the hypervisor says now
      power = op.kind === 'revoke' && !id ? 'stopped' : await readPower(id);
    }

    const at = now();
    const recorded = await inTransaction(db, async (tx) => {
      if (!(await vpsJobsRepository.finish(tx, op, error ? errorText(error) : null, at)))
        return null;
      // the machine is gone: nothing to log in to any more
      const updated = await vpsRepository.updateServer(
        tx,
        server.id,
        op.kind === 'revoke' && !error ? { power, passwordEnc: null } : { power },
      );
      if (op.kind !== 'reactivate' || error) return { reactivated: null };
      // renewed in time: active again (the renewal has usually done it already)
      const unblocked = await vpsRepository.unblockServer(tx, server.id);
      await auditServer(tx, 'vps.reactivate', server, {
        operation_id: op.id,
        unblocked_here: unblocked,
      });
      const status = unblocked ? 'active' : updated.status;
      return { reactivated: { status, paidUntil: updated.paidUntil } };
    });
    if (!recorded) return null;
    const { reactivated } = recorded;
    const chat = chatToTell(op);
    if (chat && runBy(op, 'power')) {
      const outcome = {
        serverId: server.id,
        action: op.kind,
        failed: error ? failureWhy(error) : null,
        power,
      };
      await tellChat(owner, chat, outcome);
    }
    if (reactivated?.status === 'active') {
      await notify(mailer, log, owner, (language) =>
        vpsReactivatedMail(language, {
          name: owner.name,
          serverId: server.id,
          rate: rateLabel(rate),
          link,
          paidUntil: reactivated.paidUntil,
        }),
      );
    }
    return { ok: !error };
  }

  /** The chat the order came from hears how it ended; a chat that cannot be told is logged. */
  async function tellChat(
    owner: ServerContext['owner'],
    purpose: TelegramPurpose,
    outcome: PowerOutcome,
  ): Promise<void> {
    if (!deps.telegram?.enabled) return;
    try {
      await deps.telegram.sendToUser(
        owner.id,
        purpose,
        powerOutcomeMessage(owner.language, outcome),
      );
    } catch (error) {
      log.warn({ err: error, serverId: outcome.serverId }, 'the chat was not told of an operation');
    }
  }

  // ---- upgrade -----------------------------------------------------------------------------

  async function upgrade(op: OperationRow, ctx: ServerContext): Promise<Ended> {
    const { server, owner } = ctx;
    const upgradeId = Number(op.payload.upgradeId);
    const pending = Number.isSafeInteger(upgradeId)
      ? await vpsRepository.upgrade(db, upgradeId)
      : undefined;
    if (!pending || pending.serverId !== server.id) {
      await finishOnly(op, new RunnerFailure('the operation names no upgrade of this server'));
      return { ok: false };
    }
    const target = await vpsRepository.rate(db, pending.toRateId);
    const id = server.machineId;
    /** null: resized; else why not (the upgrade fails and is refunded). */
    let resizeError: unknown = null;
    /** After a resize, a machine that would not start again (the upgrade still stands). */
    let startError: unknown = null;
    let wasRunning = false;
    try {
      if (pending.status !== 'pending')
        throw new RunnerFailure(`the upgrade is ${pending.status}, not pending`);
      if (!target) throw new RunnerFailure('the new rate no longer exists');
      if (!id) throw new RunnerFailure('the server has no machine');
      wasRunning = (await withRetry(`status of ${id}`, () => hv.status(id))) === 'running';
      if (wasRunning) await ensurePower(id, 'stopped');
      await withRetry(`resize of ${id}`, () =>
        hv.resize(id, {
          cores: target.cpuCores,
          memoryMb: target.ramGb * 1024,
          diskGb: target.diskGb,
        }),
      );
    } catch (error) {
      resizeError = error;
    }
    if (id && wasRunning) {
      // back to how the user left it, upgraded or not
      try {
        await ensurePower(id, 'running');
      } catch (error) {
        if (!resizeError) startError = error;
      }
    }
    const power = await readPower(id);
    const upgraded = resizeError === null;
    const failure = resizeError ?? startError;

    const result = await inTransaction(db, async (tx) => {
      const error = failure
        ? upgraded
          ? `resized, but the machine did not start again: ${errorText(failure)}`
          : errorText(failure)
        : null;
      if (!(await vpsJobsRepository.finish(tx, op, error, now()))) return null;
      if (!upgraded) {
        await vpsRepository.updateServer(tx, server.id, { power });
        const cause = { error: errorText(resizeError), reason: reasonText(resizeError) };
        // null: the upgrade was decided elsewhere; the operation's outcome stands recorded
        return (await failUpgrade(tx, op, cause, now())) ?? ('recorded' as const);
      }
      // only a pending upgrade is decided here (once)
      const decided = await vpsRepository.decideUpgrade(tx, pending.id, server.id, 'done', now());
      await vpsRepository.updateServer(
        tx,
        server.id,
        decided ? { power, rateId: decided.toRateId } : { power },
      );
      if (!decided) return 'recorded' as const;
      await partnerRewards.grant(tx, decided.chargeId, now());
      await auditServer(tx, 'vps.upgrade_done', server, {
        ...upgradeDetails(op.id, decided),
        ...(failure ? { error: errorText(failure) } : {}),
      });
      return 'done' as const;
    });
    if (result === null) return null;
    if (result === 'done') {
      await notify(mailer, log, owner, (language) =>
        vpsUpgradeDoneMail(language, {
          name: owner.name,
          serverId: server.id,
          rate: rateLabel(target!),
          link,
          running: power === 'running',
        }),
      );
    } else if (result !== 'recorded') {
      await tellFailure(deps, result, capitalize(reasonText(resizeError)));
    }
    return { ok: failure === null };
  }

  /**
   * The owner's consoles learn the server's state now its operation has ended, and how it ended
   * (live update): the console says so wherever the owner is.
   */
  async function tellConsoles(op: OperationRow, ended: Ended): Promise<void> {
    try {
      const ctx = await vpsRepository.serverContext(db, op.serverId);
      if (ctx)
        publishLive(db, ctx.server.userId, {
          event: 'server',
          data: {
            id: ctx.server.id,
            status: ctx.server.status,
            power: ctx.server.power,
            ...(ended ? { operation: { kind: op.kind, ok: ended.ok } } : {}),
          },
        });
    } catch (error) {
      log.warn({ err: error, serverId: op.serverId }, 'the live update of a server was not sent');
    }
  }

  const parts: { [P in Part]: (op: OperationOf<P>, ctx: ServerContext) => Promise<Ended> } = {
    create,
    upgrade,
    power: control,
    control,
    machine: machine.run,
  };
  const runPart = <P extends Part>(part: P, op: OperationOf<P>, ctx: ServerContext) =>
    parts[part](op, ctx);

  return {
    async run(operationId) {
      const op = await inTransaction(db, (tx) => vpsJobsRepository.claim(tx, operationId, now()));
      if (!op) return;
      try {
        const ctx = await vpsRepository.serverContext(db, op.serverId);
        if (!ctx) {
          await finishOnly(op, new RunnerFailure('the server no longer exists'));
          return;
        }
        const ended = await runPart(PART_OF[op.kind], op, ctx);
        await tellConsoles(op, ended);
      } catch (error) {
        // the recording itself failed (the database went away): the operation stays running and
        // shows as stuck, for an operator to retry or fail
        log.error({ err: error, operationId }, 'a VPS operation could not be recorded');
      }
    },
  };
}
