import {
  centsToDollars,
  type AdminOperation,
  type AdminPromocode,
  type AdminRate,
  type AdminServer,
  type AdminTestRequest,
  type Page,
  type PeriodDiscount,
  type ServerStatus,
  type TestRequestStatus,
  DAY_MS,
  MINUTE_MS,
} from '@tradehost/contracts';
import type { Executor } from '../../db/client.ts';
import { inTransaction, type Tx } from '../../db/transaction.ts';
import {
  vpsTestApprovedMail,
  vpsTestRejectedMail,
  type RenderedMail,
} from '../../integrations/mail/templates.ts';
import { AppError, fieldError, isUniqueViolation } from '../../lib/errors.ts';
import { auditRepository } from '../../db/audit.ts';
import { refuseOwnAccount } from '../../db/operators.ts';
import { digitsOf, pageMeta, pagingOf } from '../../db/paging.ts';
import type { ServiceDeps } from '../deps.ts';
import { userRepository } from '../../db/users.ts';
import { rateLabel, serversLink } from '../../lib/vps-labels.ts';
import { notify } from '../../integrations/mail/notify.ts';
import { failEffects, tellFailure } from './vps.failures.ts';
import { toAdminServer, toPeriods, toRate, toTestRequest } from './vps.mapper.ts';
import { insertOperation, type OperationQueue, type OperationRow } from './vps.operations.ts';
import { vpsRepository, type RateRow } from './vps.repository.ts';
import { adminVpsRepository, type OperationStatusFilter } from './vps.admin.repository.ts';

type RateFields = {
  name: string;
  cpu_cores: number;
  ram_gb: number;
  disk_gb: number;
  location: string;
  /** Cents (the contract's transform). */
  monthly_price: number;
  template_id: string;
  active: boolean;
};

export interface AdminVpsDeps extends ServiceDeps {
  operations: OperationQueue;
}

function toAdminRate(row: { rate: RateRow; servers: number }): AdminRate {
  return {
    ...toRate(row.rate),
    active: row.rate.active,
    template_id: row.rate.templateId,
    servers: Number(row.servers),
  };
}

type PromocodeWithOwner = NonNullable<
  Awaited<ReturnType<typeof adminVpsRepository.promocodeWithOwner>>
>;

function toAdminPromocode({ promocode, owner }: PromocodeWithOwner): AdminPromocode {
  return {
    id: promocode.id,
    code: promocode.code,
    discount_percent: promocode.discountPercent,
    active: promocode.active,
    times_used: promocode.timesUsed,
    owner: owner?.id ? owner : null,
    created_at: promocode.createdAt.toISOString(),
  };
}

type TestRequestWithUser = NonNullable<
  Awaited<ReturnType<typeof vpsRepository.testRequestWithUser>>
>;

function toAdminTestRequest({ request, user }: TestRequestWithUser): AdminTestRequest {
  return { ...toTestRequest(request), user, source: request.source };
}

type OperationWithPeople = NonNullable<
  Awaited<ReturnType<typeof adminVpsRepository.operationWithPeople>>
>;

function toAdminOperation(row: OperationWithPeople): AdminOperation {
  const { operation } = row;
  return {
    id: operation.id,
    kind: operation.kind,
    status: operation.status,
    created_at: operation.createdAt.toISOString(),
    started_at: operation.startedAt?.toISOString() ?? null,
    finished_at: operation.finishedAt?.toISOString() ?? null,
    error: operation.error,
    server_id: operation.serverId,
    user: row.user,
    actor: row.actor?.id ? row.actor : null,
    attempts: operation.attempts,
    stuck: Boolean(row.stuck),
  };
}

export type AdminVpsService = ReturnType<typeof createAdminVpsService>;

/** The operator's side of VPS rental. Every change is written with its audit row. */
export function createAdminVpsService(deps: AdminVpsDeps) {
  const { db, config, mailer, now, log, operations } = deps;
  const stuckCutoff = () => new Date(now().getTime() - config.vps.stuckMinutes * MINUTE_MS);

  async function dispatch(id: number) {
    try {
      await operations.dispatch(id);
    } catch (error) {
      log.error({ err: error, operationId: id }, 'operation dispatch failed');
    }
  }

  /** A mail after the change committed: a failure is logged, the change stands. */
  async function mail(
    userId: number,
    render: (language: 'en' | 'ru', name: string) => RenderedMail,
  ) {
    try {
      const user = await userRepository.findById(db, userId);
      if (user) await notify(mailer, log, user, (language) => render(language, user.name));
    } catch (error) {
      log.error({ err: error, userId }, 'a VPS mail could not be sent');
    }
  }

  async function periods(on: Executor): Promise<PeriodDiscount[]> {
    return toPeriods(await vpsRepository.periods(on));
  }

  async function rateOr404(on: Executor, id: number) {
    const row = await adminVpsRepository.rateWithServers(on, id);
    if (!row) throw new AppError(404, 'RATE_NOT_FOUND');
    return toAdminRate(row);
  }

  async function testRequestView(on: Executor, id: number) {
    const row = await vpsRepository.testRequestWithUser(on, id);
    if (!row) throw new AppError(404, 'NOT_FOUND');
    return toAdminTestRequest(row);
  }

  /** A test request to decide, locked: 404 unknown, 403 the operator's own, 409 decided. */
  async function decidable(tx: Tx, adminId: number, id: number) {
    const request = await vpsRepository.lockTestRequest(tx, id);
    if (!request) throw new AppError(404, 'NOT_FOUND');
    refuseOwnAccount(adminId, request.userId);
    if (request.status !== 'under_review') throw new AppError(409, 'TEST_REQUEST_ALREADY_DECIDED');
    return request;
  }

  async function operationView(on: Executor, id: number) {
    const row = await adminVpsRepository.operationWithPeople(on, id, stuckCutoff());
    if (!row) throw new AppError(404, 'NOT_FOUND');
    return toAdminOperation(row);
  }

  /**
   * An operation to retry or fail (a refund, for a create or an upgrade), locked: 404 unknown,
   * 403 on the operator's own server, 409 when it has ended.
   */
  async function unfinishedOperation(tx: Tx, adminId: number, id: number): Promise<OperationRow> {
    const operation = await adminVpsRepository.lockOperation(tx, id);
    if (!operation) throw new AppError(404, 'NOT_FOUND');
    const server = await vpsRepository.lockServer(tx, operation.serverId, null);
    refuseOwnAccount(adminId, server?.userId);
    if (operation.status === 'succeeded' || operation.status === 'failed')
      throw new AppError(409, 'OPERATION_FINISHED');
    return operation;
  }

  /** The operator's audit row of what was done to an operation (as it was before). */
  async function auditOperation(
    tx: Tx,
    adminId: number,
    action: 'vps.operation_retry' | 'vps.operation_fail',
    operation: OperationRow,
    details: Record<string, unknown>,
  ) {
    const server = await vpsRepository.lockServer(tx, operation.serverId, null);
    await auditRepository.insert(tx, {
      actorId: adminId,
      action,
      subjectType: 'vps_operation',
      subjectId: String(operation.id),
      targetUserId: server?.userId ?? null,
      details: {
        server_id: operation.serverId,
        kind: operation.kind,
        was: operation.status,
        ...details,
      },
    });
  }

  return {
    // ---- rates and discounts ----------------------------------------------------------------

    async rates(): Promise<{ rates: AdminRate[]; periods: PeriodDiscount[] }> {
      const rows = await adminVpsRepository.rates(db);
      return { rates: rows.map(toAdminRate), periods: await periods(db) };
    },

    async createRate(adminId: number, input: RateFields): Promise<{ rate: AdminRate }> {
      return inTransaction(db, async (tx) => {
        const rate = await adminVpsRepository.insertRate(tx, {
          name: input.name,
          cpuCores: input.cpu_cores,
          ramGb: input.ram_gb,
          diskGb: input.disk_gb,
          location: input.location,
          monthlyPriceCents: input.monthly_price,
          templateId: input.template_id,
          active: input.active,
        });
        await auditRepository.insert(tx, {
          actorId: adminId,
          action: 'vps.rate_create',
          subjectType: 'vps_rate',
          subjectId: String(rate.id),
          details: { ...input, monthly_price: centsToDollars(input.monthly_price) },
        });
        return { rate: await rateOr404(tx, rate.id) };
      });
    },

    /** Changes what is given; servers on the rate keep running (an inactive rate is not offered). */
    async updateRate(
      adminId: number,
      id: number,
      input: Partial<RateFields>,
    ): Promise<{ rate: AdminRate }> {
      return inTransaction(db, async (tx) => {
        const before = await adminVpsRepository.lockRate(tx, id);
        if (!before) throw new AppError(404, 'RATE_NOT_FOUND');
        const values = {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.cpu_cores !== undefined ? { cpuCores: input.cpu_cores } : {}),
          ...(input.ram_gb !== undefined ? { ramGb: input.ram_gb } : {}),
          ...(input.disk_gb !== undefined ? { diskGb: input.disk_gb } : {}),
          ...(input.location !== undefined ? { location: input.location } : {}),
          ...(input.monthly_price !== undefined ? { monthlyPriceCents: input.monthly_price } : {}),
          ...(input.template_id !== undefined ? { templateId: input.template_id } : {}),
          ...(input.active !== undefined ? { active: input.active } : {}),
        };
        if (Object.keys(values).length > 0) {
          await adminVpsRepository.updateRate(tx, id, values);
          await auditRepository.insert(tx, {
            actorId: adminId,
            action: 'vps.rate_update',
            subjectType: 'vps_rate',
            subjectId: String(id),
            details: {
              ...input,
              ...(input.monthly_price !== undefined
                ? { monthly_price: centsToDollars(input.monthly_price) }
                : {}),
              before: { ...toRate(before), active: before.active, template_id: before.templateId },
            },
          });
        }
        return { rate: await rateOr404(tx, id) };
      });
    },

    async updateDiscounts(
      adminId: number,
      input: { periods: { months: number; discount_percent: number }[] },
    ): Promise<{ periods: PeriodDiscount[] }> {
      const seen = new Set<number>();
      for (const [index, period] of input.periods.entries()) {
        if (seen.has(period.months)) throw fieldError(422, `periods.${index}.months`, 'VALIDATION');
        seen.add(period.months);
      }
      return inTransaction(db, async (tx) => {
        const before = await periods(tx);
        for (const period of input.periods)
          await adminVpsRepository.upsertDiscount(tx, period.months, period.discount_percent);
        const after = await periods(tx);
        await auditRepository.insert(tx, {
          actorId: adminId,
          action: 'vps.discounts_update',
          subjectType: 'vps_rate',
          subjectId: null,
          details: { before, after },
        });
        return { periods: after };
      });
    },

    // ---- promocodes -------------------------------------------------------------------------

    async promocodes(filter: { page: number; per_page: number }): Promise<Page<AdminPromocode>> {
      const { rows, total } = await adminVpsRepository.promocodesPage(
        db,
        pagingOf(filter.page, filter.per_page),
      );
      return {
        data: rows.map(toAdminPromocode),
        meta: pageMeta(filter.page, filter.per_page, total),
      };
    },

    async createPromocode(
      adminId: number,
      input: { code: string; discount_percent: number },
    ): Promise<{ promocode: AdminPromocode }> {
      return inTransaction(db, async (tx) => {
        let row;
        try {
          row = await adminVpsRepository.insertPromocode(tx, {
            code: input.code,
            discountPercent: input.discount_percent,
            createdBy: adminId,
          });
        } catch (error) {
          if (isUniqueViolation(error, 'promocodes_code_key'))
            throw fieldError(409, 'code', 'PROMOCODE_TAKEN');
          throw error;
        }
        await auditRepository.insert(tx, {
          actorId: adminId,
          action: 'vps.promocode_create',
          subjectType: 'promocode',
          subjectId: String(row.id),
          details: { code: row.code, discount_percent: row.discountPercent },
        });
        const view = await adminVpsRepository.promocodeWithOwner(tx, row.id);
        return { promocode: toAdminPromocode(view!) };
      });
    },

    async updatePromocode(
      adminId: number,
      id: number,
      input: { active: boolean },
    ): Promise<{ promocode: AdminPromocode }> {
      return inTransaction(db, async (tx) => {
        const row = await adminVpsRepository.updatePromocode(tx, id, { active: input.active });
        if (!row) throw new AppError(404, 'NOT_FOUND');
        await auditRepository.insert(tx, {
          actorId: adminId,
          action: 'vps.promocode_update',
          subjectType: 'promocode',
          subjectId: String(id),
          targetUserId: row.ownerUserId,
          details: { code: row.code, active: input.active },
        });
        const view = await adminVpsRepository.promocodeWithOwner(tx, id);
        return { promocode: toAdminPromocode(view!) };
      });
    },

    // ---- test servers -----------------------------------------------------------------------

    async testRequests(filter: {
      status: TestRequestStatus;
      page: number;
      per_page: number;
    }): Promise<Page<AdminTestRequest>> {
      const { rows, total } = await vpsRepository.testRequestsPage(
        db,
        filter.status,
        pagingOf(filter.page, filter.per_page),
      );
      return {
        data: rows.map(toAdminTestRequest),
        meta: pageMeta(filter.page, filter.per_page, total),
      };
    },

    /**
     * Approves a test request: a trial server on the cheapest active rate (Provisioning, no
     * charge, paid until trialDays from now) and its `create` operation, in one transaction;
     * then the operation is dispatched and the user told.
     */
    async approveTestRequest(
      adminId: number,
      id: number,
    ): Promise<{ test_request: AdminTestRequest; server: AdminServer }> {
      const result = await inTransaction(db, async (tx) => {
        const request = await decidable(tx, adminId, id);
        const rate = await vpsRepository.cheapestRate(tx);
        if (!rate) throw new AppError(409, 'RATE_NOT_FOUND');
        const at = now();
        const server = await vpsRepository.insertServer(tx, {
          createdAt: at,
          userId: request.userId,
          rateId: rate.id,
          status: 'provisioning',
          isTrial: true,
          paidUntil: new Date(at.getTime() + config.vps.trialDays * DAY_MS),
          renewMonths: 1,
          source: request.source,
        });
        const operation = await insertOperation(tx, {
          serverId: server.id,
          kind: 'create',
          actorId: adminId,
        });
        await vpsRepository.updateTestRequest(tx, id, {
          status: 'approved',
          decidedBy: adminId,
          decidedAt: at,
          serverId: server.id,
        });
        await auditRepository.insert(tx, {
          actorId: adminId,
          action: 'vps.test_approve',
          subjectType: 'vps_test_request',
          subjectId: String(id),
          targetUserId: request.userId,
          details: {
            server_id: server.id,
            rate_id: rate.id,
            paid_until: server.paidUntil.toISOString(),
            operation_id: operation.id,
          },
        });
        const view = await vpsRepository.serverView(tx, server.id, now());
        return {
          operation,
          server,
          rate,
          body: {
            test_request: await testRequestView(tx, id),
            server: toAdminServer(view!),
          },
        };
      });
      await dispatch(result.operation.id);
      const { server, rate } = result;
      await mail(server.userId, (language, name) =>
        vpsTestApprovedMail(language, {
          name,
          serverId: server.id,
          rate: rateLabel(rate),
          link: serversLink(config),
          trialDays: config.vps.trialDays,
          paidUntil: server.paidUntil,
        }),
      );
      return result.body;
    },

    /** Declines a test request with a reason the user sees. */
    async rejectTestRequest(
      adminId: number,
      id: number,
      reason: string,
    ): Promise<{ test_request: AdminTestRequest }> {
      const result = await inTransaction(db, async (tx) => {
        const request = await decidable(tx, adminId, id);
        await vpsRepository.updateTestRequest(tx, id, {
          status: 'rejected',
          reason,
          decidedBy: adminId,
          decidedAt: now(),
        });
        await auditRepository.insert(tx, {
          actorId: adminId,
          action: 'vps.test_reject',
          subjectType: 'vps_test_request',
          subjectId: String(id),
          targetUserId: request.userId,
          details: { reason },
        });
        return { userId: request.userId, body: { test_request: await testRequestView(tx, id) } };
      });
      await mail(result.userId, (language, name) =>
        vpsTestRejectedMail(language, { name, reason, link: serversLink(config) }),
      );
      return result.body;
    },

    // ---- servers and operations -------------------------------------------------------------

    /** Every server, newest first: by number (a prefix) or the owner's e-mail, and status. */
    async servers(filter: {
      search?: string | undefined;
      status?: ServerStatus | undefined;
      page: number;
      per_page: number;
    }): Promise<Page<AdminServer>> {
      const search = filter.search?.trim() ?? '';
      const { rows, total } = await vpsRepository.serverViews(
        db,
        { search: digitsOf(search), email: search || undefined, status: filter.status },
        pagingOf(filter.page, filter.per_page),
        now(),
      );
      return {
        data: rows.map(toAdminServer),
        meta: pageMeta(filter.page, filter.per_page, total),
      };
    },

    async operations(filter: {
      status?: OperationStatusFilter | undefined;
      server_id?: number | undefined;
      page: number;
      per_page: number;
    }): Promise<Page<AdminOperation>> {
      const { rows, total } = await adminVpsRepository.operationsPage(
        db,
        { status: filter.status, serverId: filter.server_id },
        stuckCutoff(),
        pagingOf(filter.page, filter.per_page),
      );
      return {
        data: rows.map(toAdminOperation),
        meta: pageMeta(filter.page, filter.per_page, total),
      };
    },

    /** A stuck operation queued again (its attempts kept) and dispatched. */
    async retryOperation(adminId: number, id: number): Promise<{ operation: AdminOperation }> {
      const result = await inTransaction(db, async (tx) => {
        const operation = await unfinishedOperation(tx, adminId, id);
        const since = operation.startedAt ?? operation.createdAt;
        if (since.getTime() >= stuckCutoff().getTime())
          throw new AppError(409, 'OPERATION_NOT_STUCK');
        await adminVpsRepository.updateOperation(tx, id, {
          status: 'queued',
          startedAt: null,
          error: null,
        });
        await auditOperation(tx, adminId, 'vps.operation_retry', operation, {
          attempts: operation.attempts,
        });
        return { operation: await operationView(tx, id) };
      });
      await dispatch(id);
      return result;
    },

    /**
     * A queued or running operation failed by hand, with the reason: as a failed run of its
     * kind (a create's server Failed and refunded, an upgrade refunded).
     */
    async failOperation(
      adminId: number,
      id: number,
      reason: string,
    ): Promise<{ operation: AdminOperation }> {
      const result = await inTransaction(db, async (tx) => {
        const operation = await unfinishedOperation(tx, adminId, id);
        const at = now();
        const failed = await adminVpsRepository.updateOperation(tx, id, {
          status: 'failed',
          error: reason,
          finishedAt: at,
        });
        const notice = await failEffects(tx, failed, { error: reason, reason }, at);
        await auditOperation(tx, adminId, 'vps.operation_fail', operation, {
          reason,
          refunded_cents: notice?.refundedCents ?? 0,
        });
        return { notice, body: { operation: await operationView(tx, id) } };
      });
      if (result.notice) await tellFailure(deps, result.notice, reason);
      return result.body;
    },
  };
}
