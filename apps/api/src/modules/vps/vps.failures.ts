import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Executor } from '../../db/client.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import { vpsCreateFailedMail, vpsUpgradeFailedMail } from '../../integrations/mail/templates.ts';
import { billing, type RefundMemo } from '../../db/billing.ts';
import { rateLabel, serversLink } from '../../lib/vps-labels.ts';
import { auditServer } from './vps.effects.ts';
import { notify } from '../../integrations/mail/notify.ts';
import type { OperationRow } from './vps.operations.ts';
import { vpsRepository, type UpgradeRow } from './vps.repository.ts';

/**
 * A failed create or upgrade, whoever fails it: the runner (vps.runner.ts) when the hypervisor
 * did not do it, or an operator failing a stuck operation by hand (modules/admin). The effects
 * are the same either way and are written in the caller's transaction, which has finished the
 * operation: a create leaves its server Failed with an honest `failure` and refunds the order;
 * an upgrade is marked failed and its charge refunded; each with its audit row. The user's mail
 * (tellFailure) follows the commit.
 */

export interface FailureCause {
  /** The operators' text: the audit row's `error` (the operation's, as the caller wrote it). */
  error: string;
  /** The user's: why, as the server's `failure` says it. */
  reason: string;
}

/** Whom to tell what, once the failure is committed. */
export type FailureNotice =
  | { kind: 'create'; serverId: number; refundedCents: number | null }
  | { kind: 'upgrade'; serverId: number; toRateId: number; refundedCents: number | null };

type FailedOperation = Pick<OperationRow, 'id' | 'kind' | 'serverId' | 'payload'>;

/** Refunds a charge (once only); what it gave back, or null when nothing was refunded. */
async function refund(tx: Executor, chargeId: number | null, why: RefundMemo) {
  if (chargeId === null || !(await billing.refund(tx, chargeId, why, null))) return null;
  return vpsRepository.chargeCents(tx, chargeId);
}

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** The audit details of an upgrade's outcome, done or failed. */
export const upgradeDetails = (operationId: number, upgrade: UpgradeRow) => ({
  operation_id: operationId,
  upgrade_id: upgrade.id,
  from_rate_id: upgrade.fromRateId,
  to_rate_id: upgrade.toRateId,
});

/** A failed create: only a server still being created fails (and is refunded) here. */
export async function failCreate(
  tx: Executor,
  operation: FailedOperation,
  cause: FailureCause,
): Promise<FailureNotice | null> {
  const server = await vpsRepository.lockServer(tx, operation.serverId, null);
  if (server?.status !== 'provisioning') return null;
  const refundedCents = await refund(tx, server.chargeId, {
    code: 'vps_create_refund',
    params: { server_id: server.id },
  });
  await vpsRepository.updateServer(tx, server.id, {
    status: 'failed',
    power: 'unknown',
    machineId: null,
    failure: `The server could not be created: ${sentence(cause.reason)}${
      refundedCents === null ? '' : ' The payment was returned to your balance.'
    }`,
  });
  await auditServer(tx, 'vps.create_failed', server, {
    operation_id: operation.id,
    error: cause.error,
    refunded_cents: refundedCents ?? 0,
  });
  return { kind: 'create', serverId: server.id, refundedCents };
}

/** A failed upgrade: only the operation's upgrade, still pending, fails (and is refunded). */
export async function failUpgrade(
  tx: Executor,
  operation: FailedOperation,
  cause: FailureCause,
  at: Date,
): Promise<FailureNotice | null> {
  const upgradeId = Number(operation.payload.upgradeId);
  if (!Number.isSafeInteger(upgradeId)) return null;
  const upgrade = await vpsRepository.decideUpgrade(
    tx,
    upgradeId,
    operation.serverId,
    'failed',
    at,
  );
  if (!upgrade) return null;
  const refundedCents = await refund(tx, upgrade.chargeId, {
    code: 'vps_upgrade_refund',
    params: { server_id: upgrade.serverId },
  });
  await auditServer(
    tx,
    'vps.upgrade_failed',
    { id: upgrade.serverId, userId: upgrade.userId },
    {
      ...upgradeDetails(operation.id, upgrade),
      error: cause.error,
      refunded_cents: refundedCents ?? 0,
    },
  );
  return {
    kind: 'upgrade',
    serverId: upgrade.serverId,
    toRateId: upgrade.toRateId,
    refundedCents,
  };
}

/**
 * The effects of a failed operation of any kind. Control and lifecycle operations have none
 * beyond the operation's own row (the next operation reads the machine's state again).
 */
export async function failEffects(
  tx: Executor,
  operation: FailedOperation,
  cause: FailureCause,
  at: Date,
): Promise<FailureNotice | null> {
  if (operation.kind === 'create') return failCreate(tx, operation, cause);
  if (operation.kind === 'upgrade') return failUpgrade(tx, operation, cause, at);
  return null;
}

export interface FailureMailDeps {
  config: Config;
  db: Executor;
  mailer: Mailer;
  log: FastifyBaseLogger;
}

/**
 * The user's mail of a committed failure, with `reason` after "Reason:". Like every mail after a
 * commit, a failure to send it is logged, never thrown.
 */
export async function tellFailure(
  deps: FailureMailDeps,
  notice: FailureNotice,
  reason: string,
): Promise<void> {
  const { config, db, mailer, log } = deps;
  try {
    const ctx = await vpsRepository.serverContext(db, notice.serverId);
    if (!ctx) return;
    const base = {
      name: ctx.owner.name,
      serverId: notice.serverId,
      link: serversLink(config),
      reason,
      refundedCents: notice.refundedCents,
    };
    if (notice.kind === 'create') {
      await notify(mailer, log, ctx.owner, (language) =>
        vpsCreateFailedMail(language, { ...base, rate: rateLabel(ctx.rate) }),
      );
      return;
    }
    const target = await vpsRepository.rate(db, notice.toRateId);
    const rate = target ? rateLabel(target) : `#${notice.toRateId}`;
    await notify(mailer, log, ctx.owner, (language) =>
      vpsUpgradeFailedMail(language, { ...base, rate }),
    );
  } catch (error) {
    log.error({ err: error, serverId: notice.serverId }, 'a VPS mail could not be sent');
  }
}
