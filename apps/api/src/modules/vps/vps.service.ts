import {
  addMonths,
  centsToDollars,
  rentalPrice,
  upgradePriceCents,
  type Credentials,
  type OperationResponse,
  type Page,
  type PaidResponse,
  type PromocodeResponse,
  type RatesResponse,
  type Server,
  type ServerAction,
  type ServerActivity,
  type TelegramPurpose,
  type ServerResponse,
  type ServerStatus,
  type SourceOption,
  type TestRequest,
  type UpgradeResponse,
  DAY_MS,
} from '@tradehost/contracts';
import type { Executor } from '../../db/client.ts';
import { inTransaction, type Tx } from '../../db/transaction.ts';
import { SealedSecretError } from '../../lib/crypto-box.ts';
import { openIn, SEALED } from '../../db/sealed.ts';
import { AppError, fieldError, isUniqueViolation } from '../../lib/errors.ts';
import { auditRepository } from '../../db/audit.ts';
import { securityLog, type SecurityContext } from '../../db/security-events.ts';
import { pagingOf } from '../../db/paging.ts';
import type { ServiceDeps } from '../deps.ts';
import type { Outcome } from '../../plugins/idempotency.ts';
import { userRepository } from '../../db/users.ts';
import { billing } from '../../db/billing.ts';
import { referrals } from '../../db/referrals.ts';
import {
  hasCredentials,
  toActivity,
  toOperation,
  toPeriods,
  toRate,
  toServer,
  toTestRequest,
  toUpgrade,
} from './vps.mapper.ts';
import { insertOperation, type OperationQueue } from './vps.operations.ts';
import { chargeDescriptions, renewServer } from './vps.renewal.ts';
import { vpsRepository, type ServerRow } from './vps.repository.ts';
import { ownServer } from './vps.access.ts';

export interface VpsDeps extends ServiceDeps {
  /** Runs the operations a request wrote, once its transaction has committed. */
  operations: OperationQueue;
}

/**
 * A paid request's answer and the operations it wrote: the route dispatches them after the
 * transaction (and the idempotency record with it) has committed, never on a replay.
 */
export interface Dispatching<T> {
  outcome: Outcome<T>;
  dispatch: number[];
}

/** The texts of the answers (`message`; the console translates `code` where there is one). */
export const VPS_MESSAGES = {
  VPS_ORDERED: 'Payment received. Your server is being created; this takes a few minutes.',
  VPS_RENEWED: 'The server has been renewed',
  VPS_REACTIVATED: 'The server has been renewed and is being started again',
  VPS_COMMENT_SAVED: 'The comment has been saved',
  VPS_START: 'The server is starting. This takes 1-2 minutes.',
  VPS_SHUTDOWN: 'The server is shutting down. This takes 1-2 minutes.',
  VPS_REBOOT: 'The server is rebooting. This takes 1-2 minutes.',
  VPS_UPGRADE_STARTED:
    'The upgrade has started. The server may be offline for up to 1 hour while it is upgraded.',
  VPS_UPGRADE_QUEUED:
    'The upgrade starts as soon as the operation in progress ends. The server may be offline for up to 1 hour while it is upgraded.',
  VPS_UPGRADE_SCHEDULED:
    'The upgrade is scheduled. On that day the server may be offline for up to 1 hour while it is upgraded.',
  VPS_TEST_REQUESTED:
    'Your test server request has been received. It is processed within one business day.',
} as const;

const ACTION_MESSAGES: Record<ServerAction, keyof typeof VPS_MESSAGES> = {
  start: 'VPS_START',
  shutdown: 'VPS_SHUTDOWN',
  reboot: 'VPS_REBOOT',
};

/** A calendar date (UTC) as YYYY-MM-DD. */
export const utcDay = (date: Date): string => date.toISOString().slice(0, 10);

/** The text stored for "How did you hear about us?". */
export function sourceText(source: SourceOption, other?: string): string {
  const words = other?.trim();
  return source === 'other' && words ? `other: ${words}` : source;
}

export interface OrderInput {
  rate_id: number;
  months: number;
  promocode?: string | undefined;
  source: SourceOption;
  source_other?: string | undefined;
}

export interface ServersFilter {
  search?: string | undefined;
  status?: ServerStatus | undefined;
  page: number;
  per_page: number;
}

export type VpsService = ReturnType<typeof createVpsService>;

/** VPS rental for its users: the rates, ordering, the servers list and its controls. */
export function createVpsService(deps: VpsDeps) {
  const { db, config, now, log, operations } = deps;

  async function view(on: Executor, id: number): Promise<Server> {
    const row = await vpsRepository.serverView(on, id, now());
    if (!row) throw new AppError(404, 'SERVER_NOT_FOUND');
    return toServer(row);
  }

  const ownLocked = (tx: Executor, userId: number, id: number) =>
    ownServer(tx, userId, id, { lock: true });
  const own = (userId: number, id: number) => ownServer(db, userId, id);

  /** The machine's login details exist: refusals for a server without them. */
  function withCredentials(server: ServerRow) {
    if (server.status === 'revoked' || server.status === 'failed')
      throw new AppError(409, 'SERVER_NOT_ACTIVE');
    if (!hasCredentials({ ...server, hasPassword: server.passwordEnc !== null }))
      throw new AppError(409, 'SERVER_NOT_READY');
    return {
      host: server.host!,
      port: server.port!,
      username: server.username!,
      sealed: server.passwordEnc!,
    };
  }

  async function balanceOf(tx: Executor, userId: number): Promise<number> {
    const user = await userRepository.findById(tx, userId);
    if (!user) throw new AppError(401, 'UNAUTHORIZED');
    return user.balanceCents;
  }

  /** Hands operations to the queue; a failure is logged (the lifecycle dispatches it again). */
  async function dispatch(ids: number[]): Promise<void> {
    for (const id of ids) {
      try {
        await operations.dispatch(id);
      } catch (error) {
        log.error({ err: error, operationId: id }, 'operation dispatch failed');
      }
    }
  }

  return {
    dispatch,

    async rates(userId: number): Promise<RatesResponse> {
      const [rates, periods, request] = await Promise.all([
        vpsRepository.activeRates(db),
        vpsRepository.periods(db),
        vpsRepository.testRequestOf(db, userId),
      ]);
      return {
        rates: rates.map(toRate),
        periods: toPeriods(periods),
        trial_days: config.vps.trialDays,
        test_request: request ? toTestRequest(request) : null,
      };
    },

    async promocode(userId: number, code: string): Promise<PromocodeResponse> {
      const promo = await vpsRepository.activePromocode(db, code);
      if (!promo) throw fieldError(422, 'code', 'PROMOCODE_NOT_FOUND');
      if (promo.ownerUserId === userId) throw fieldError(422, 'code', 'PROMOCODE_OWN');
      return { code: promo.code, discount_percent: promo.discountPercent };
    },

    /**
     * An order: the price of the rate for the period (less its discount, less a promocode's on a
     * 1-month rental) charged from the balance, the server (Provisioning) and its `create`
     * operation written in the same transaction, so a short balance leaves nothing behind.
     */
    async order(tx: Tx, userId: number, input: OrderInput): Promise<Dispatching<PaidResponse>> {
      const rate = await vpsRepository.rate(tx, input.rate_id);
      if (!rate || !rate.active) throw fieldError(422, 'rate_id', 'RATE_NOT_FOUND');
      const code = input.promocode?.trim();
      let promo;
      if (code) {
        if (input.months !== 1) throw fieldError(422, 'promocode', 'PROMOCODE_ONE_MONTH');
        promo = await vpsRepository.activePromocode(tx, code);
        if (!promo) throw fieldError(422, 'promocode', 'PROMOCODE_NOT_FOUND');
        if (promo.ownerUserId === userId) throw fieldError(422, 'promocode', 'PROMOCODE_OWN');
      }
      const price = rentalPrice({
        monthlyCents: rate.monthlyPriceCents,
        months: input.months,
        periodDiscountPercent: await vpsRepository.periodDiscount(tx, input.months),
        promoDiscountPercent: promo?.discountPercent ?? 0,
      });
      const at = now();
      const serverId = await vpsRepository.nextServerId(tx);
      const charged = await billing.charge(tx, {
        userId,
        amountCents: price.totalCents,
        ...chargeDescriptions(serverId, rate, { months: input.months }),
      });
      // switched off meanwhile: as unknown as a code that never was (the charge rolls back)
      if (promo && !(await vpsRepository.usePromocode(tx, promo.id)))
        throw fieldError(422, 'promocode', 'PROMOCODE_NOT_FOUND');
      // a partner's promocode on a first paid order: its owner becomes the referrer of a user
      // who has none (attach refuses anyone who has one, and loops)
      if (promo?.ownerUserId && !(await vpsRepository.hasPaidBefore(tx, userId, charged.chargeId)))
        await referrals.attach(tx, userId, promo.ownerUserId);
      await vpsRepository.insertServer(tx, {
        id: serverId,
        createdAt: at,
        userId,
        rateId: rate.id,
        status: 'provisioning',
        paidUntil: addMonths(at, input.months),
        renewMonths: input.months,
        source: sourceText(input.source, input.source_other),
        chargeId: charged.chargeId,
        promocodeId: promo?.id ?? null,
      });
      const operation = await insertOperation(tx, {
        serverId,
        kind: 'create',
        actorId: userId,
      });
      await auditRepository.insert(tx, {
        actorId: userId,
        action: 'vps.order',
        subjectType: 'vps_server',
        subjectId: String(serverId),
        targetUserId: userId,
        details: {
          rate_id: rate.id,
          rate: rate.name,
          location: rate.location,
          months: input.months,
          price: centsToDollars(price.totalCents),
          period_discount: centsToDollars(price.periodDiscountCents),
          promocode: promo?.code ?? null,
          promo_discount: centsToDollars(price.promoDiscountCents),
          charge_id: charged.chargeId,
          operation_id: operation.id,
        },
      });
      return {
        outcome: {
          status: 201,
          body: {
            server: await view(tx, serverId),
            charged: centsToDollars(price.totalCents),
            balance: centsToDollars(charged.balanceCents),
            message: VPS_MESSAGES.VPS_ORDERED,
            code: 'VPS_ORDERED',
          },
        },
        dispatch: [operation.id],
      };
    },

    async servers(userId: number, filter: ServersFilter): Promise<Page<Server>> {
      const { rows, total } = await vpsRepository.serverViews(
        db,
        { userId, search: filter.search, status: filter.status },
        pagingOf(filter.page, filter.per_page),
        now(),
      );
      return {
        data: rows.map(toServer),
        meta: { page: filter.page, per_page: filter.per_page, total },
      };
    },

    async server(userId: number, id: number): Promise<ServerResponse> {
      await own(userId, id);
      return { server: await view(db, id) };
    },

    /** A page of the server's activity (the owner's own server only). */
    async activity(
      userId: number,
      id: number,
      query: { page: number; per_page: number },
    ): Promise<Page<ServerActivity>> {
      const server = await own(userId, id);
      const { rows, total } = await vpsRepository.activity(
        db,
        server,
        pagingOf(query.page, query.per_page),
      );
      return {
        data: rows.map((row) => toActivity(row, userId)),
        meta: { page: query.page, per_page: query.per_page, total },
      };
    },

    async comment(userId: number, id: number, comment: string): Promise<ServerResponse> {
      return inTransaction(db, async (tx) => {
        await ownLocked(tx, userId, id);
        await vpsRepository.updateServer(tx, id, { comment });
        return { server: await view(tx, id) };
      });
    },

    /**
     * The login details, the password opened on this request only; audited, and in the owner's
     * security log (vps_password_revealed, from `context`).
     */
    async credentials(userId: number, id: number, context: SecurityContext): Promise<Credentials> {
      const server = await own(userId, id);
      const { sealed, ...details } = withCredentials(server);
      let password: string;
      try {
        password = openIn(config, SEALED.vpsPassword, id, sealed);
      } catch (error) {
        // moved from another server's row, altered, or of a key no longer set: never shown
        if (!(error instanceof SealedSecretError)) throw error;
        log.error({ err: error, serverId: id }, 'a server password does not open');
        throw new AppError(409, 'SERVER_PASSWORD_UNAVAILABLE');
      }
      await db.transaction(async (tx) => {
        await auditRepository.insert(tx, {
          actorId: userId,
          action: 'vps.credentials_revealed',
          subjectType: 'vps_server',
          subjectId: String(id),
          targetUserId: userId,
          details: {},
        });
        await securityLog.record(tx, userId, 'vps_password_revealed', now(), context, {
          server_id: id,
        });
      });
      return { ...details, password };
    },

    /** A Remote Desktop file for the server: the address and the user, never the password. */
    async rdp(userId: number, id: number): Promise<{ filename: string; content: string }> {
      const { host, port, username } = withCredentials(await own(userId, id));
      const lines = [
        `full address:s:${host}:${port}`,
        `username:s:${username}`,
        'prompt for credentials:i:1',
        'administrative session:i:1',
        'screen mode id:i:2',
        'session bpp:i:32',
        'authentication level:i:2',
      ];
      return { filename: `vps-${id}.rdp`, content: `${lines.join('\r\n')}\r\n` };
    },

    /** A renewal for `months` at the rate's price less the period's discount. */
    async renew(
      tx: Tx,
      userId: number,
      id: number,
      months: number,
    ): Promise<Dispatching<PaidResponse>> {
      const server = await ownLocked(tx, userId, id);
      const renewed = await renewServer(tx, { server, months, actorId: userId, now: now() });
      await auditRepository.insert(tx, {
        actorId: userId,
        action: 'vps.renew',
        subjectType: 'vps_server',
        subjectId: String(id),
        targetUserId: userId,
        details: {
          months,
          price: centsToDollars(renewed.chargedCents),
          paid_until: renewed.server.paidUntil.toISOString(),
          previous_paid_until: server.paidUntil.toISOString(),
          reactivate_operation_id: renewed.operation?.id ?? null,
        },
      });
      const code = renewed.operation ? 'VPS_REACTIVATED' : 'VPS_RENEWED';
      return {
        outcome: {
          status: 200,
          body: {
            server: await view(tx, id),
            charged: centsToDollars(renewed.chargedCents),
            balance: centsToDollars(renewed.balanceCents),
            message: VPS_MESSAGES[code],
            code,
          },
        },
        dispatch: renewed.operation ? [renewed.operation.id] : [],
      };
    },

    async autoRenew(
      userId: number,
      id: number,
      input: { enabled: boolean; months?: number | undefined },
    ): Promise<ServerResponse> {
      return inTransaction(db, async (tx) => {
        const server = await ownLocked(tx, userId, id);
        if (input.enabled && server.status === 'revoked') throw new AppError(409, 'SERVER_REVOKED');
        if (input.enabled && server.status === 'failed')
          throw new AppError(409, 'SERVER_NOT_ACTIVE');
        const renewMonths = input.months ?? server.renewMonths;
        await vpsRepository.updateServer(tx, id, { autoRenew: input.enabled, renewMonths });
        await auditRepository.insert(tx, {
          actorId: userId,
          // the owner's switch; 'vps.auto_renew' is the renewal the lifecycle job makes
          action: 'vps.auto_renew_set',
          subjectType: 'vps_server',
          subjectId: String(id),
          targetUserId: userId,
          details: { enabled: input.enabled, months: renewMonths },
        });
        return { server: await view(tx, id) };
      });
    },

    /**
     * Start, shut down or reboot: a queued operation (202), one at a time per server. `tellChat`:
     * the Telegram chat (by its purpose) the order came from, which hears when it has ended.
     */
    async action(
      userId: number,
      id: number,
      action: ServerAction,
      tellChat?: TelegramPurpose,
    ): Promise<OperationResponse> {
      const result = await inTransaction(db, async (tx) => {
        const server = await ownLocked(tx, userId, id);
        if (server.status !== 'active') throw new AppError(409, 'SERVER_NOT_ACTIVE');
        // an operation under way comes first: the power it will leave is not known yet
        if (await vpsRepository.activeOperation(tx, id))
          throw new AppError(409, 'OPERATION_IN_PROGRESS');
        if (action === 'start' && server.power === 'running')
          throw new AppError(409, 'SERVER_ALREADY_RUNNING');
        if (action !== 'start' && server.power === 'stopped')
          throw new AppError(409, 'SERVER_ALREADY_STOPPED');
        // the partial unique index settles two requests racing past the check above
        const operation = await insertOperation(tx, {
          serverId: id,
          kind: action,
          actorId: userId,
          ...(tellChat ? { payload: { tell_chat: tellChat } } : {}),
        });
        await auditRepository.insert(tx, {
          actorId: userId,
          action: 'vps.action',
          subjectType: 'vps_server',
          subjectId: String(id),
          targetUserId: userId,
          details: { action, operation_id: operation.id },
        });
        return { operation, server: await view(tx, id) };
      });
      await dispatch([result.operation.id]);
      return {
        server: result.server,
        operation: toOperation(result.operation),
        message: VPS_MESSAGES[ACTION_MESSAGES[action]],
      };
    },

    /**
     * An upgrade to a larger rate on a day from today to the day before paid-until, paid now as
     * the difference of the monthly prices for the days from that day to paid-until. Today's
     * runs at once (an `upgrade` operation); a later one is started by the lifecycle that day.
     */
    async upgrade(
      tx: Tx,
      userId: number,
      id: number,
      input: { rate_id: number; date: string },
    ): Promise<Dispatching<UpgradeResponse>> {
      const server = await ownLocked(tx, userId, id);
      if (server.isTrial) throw new AppError(422, 'UPGRADE_NOT_FOR_TRIAL');
      if (server.status !== 'active') throw new AppError(409, 'SERVER_NOT_ACTIVE');
      if (await vpsRepository.pendingUpgrade(tx, id)) throw new AppError(409, 'UPGRADE_PENDING');
      const current = (await vpsRepository.rate(tx, server.rateId))!;
      const target = await vpsRepository.rate(tx, input.rate_id);
      if (
        !target ||
        !target.active ||
        target.id === current.id ||
        target.location !== current.location ||
        target.monthlyPriceCents <= current.monthlyPriceCents ||
        target.cpuCores < current.cpuCores ||
        target.ramGb < current.ramGb ||
        target.diskGb < current.diskGb
      )
        throw fieldError(422, 'rate_id', 'UPGRADE_RATE_INVALID');
      const today = utcDay(now());
      const lastDay = utcDay(new Date(server.paidUntil.getTime() - DAY_MS));
      if (input.date < today || input.date > lastDay)
        throw fieldError(422, 'date', 'UPGRADE_DATE_INVALID');

      const priceCents = upgradePriceCents(
        current.monthlyPriceCents,
        target.monthlyPriceCents,
        new Date(`${input.date}T00:00:00Z`),
        server.paidUntil,
      );
      const charged =
        priceCents > 0
          ? await billing.charge(tx, {
              userId,
              amountCents: priceCents,
              ...chargeDescriptions(id, current, { upgradeTo: target.name }),
            })
          : null;
      let upgrade;
      try {
        upgrade = await vpsRepository.insertUpgrade(tx, {
          serverId: id,
          userId,
          fromRateId: current.id,
          toRateId: target.id,
          scheduledFor: input.date,
          priceCents,
          chargeId: charged?.chargeId ?? null,
        });
      } catch (error) {
        if (isUniqueViolation(error, 'vps_upgrades_one_pending_key'))
          throw new AppError(409, 'UPGRADE_PENDING');
        throw error;
      }
      // today's starts now; on a server busy with another operation the lifecycle starts it
      // as soon as that one ends (as it starts a later day's on its day)
      const busy = input.date === today && (await vpsRepository.activeOperation(tx, id));
      const operation =
        input.date === today && !busy
          ? await insertOperation(tx, {
              serverId: id,
              kind: 'upgrade',
              actorId: userId,
              payload: { upgradeId: upgrade.id },
            })
          : null;
      await auditRepository.insert(tx, {
        actorId: userId,
        action: 'vps.upgrade_request',
        subjectType: 'vps_server',
        subjectId: String(id),
        targetUserId: userId,
        details: {
          upgrade_id: upgrade.id,
          from_rate_id: current.id,
          to_rate_id: target.id,
          date: input.date,
          price: centsToDollars(priceCents),
          charge_id: charged?.chargeId ?? null,
          operation_id: operation?.id ?? null,
        },
      });
      const code = operation
        ? 'VPS_UPGRADE_STARTED'
        : busy
          ? 'VPS_UPGRADE_QUEUED'
          : 'VPS_UPGRADE_SCHEDULED';
      return {
        outcome: {
          status: 202,
          body: {
            server: await view(tx, id),
            upgrade: toUpgrade(upgrade, { fromRate: current.name, toRate: target.name }),
            charged: centsToDollars(priceCents),
            balance: centsToDollars(charged?.balanceCents ?? (await balanceOf(tx, userId))),
            message: VPS_MESSAGES[code],
          },
        },
        dispatch: operation ? [operation.id] : [],
      };
    },

    /** A free test server, one per user: under review until an operator decides. */
    async requestTestServer(
      userId: number,
      input: { source: SourceOption; source_other?: string | undefined },
    ): Promise<{ test_request: TestRequest; message: string }> {
      if (await vpsRepository.testRequestOf(db, userId))
        throw new AppError(409, 'TEST_SERVER_TAKEN');
      const request = await inTransaction(db, async (tx) => {
        let row;
        try {
          row = await vpsRepository.insertTestRequest(tx, {
            userId,
            createdAt: now(),
            source: sourceText(input.source, input.source_other),
          });
        } catch (error) {
          // two requests at once: the unique index keeps one
          if (isUniqueViolation(error, 'vps_test_requests_user_key'))
            throw new AppError(409, 'TEST_SERVER_TAKEN');
          throw error;
        }
        await auditRepository.insert(tx, {
          actorId: userId,
          action: 'vps.test_request',
          subjectType: 'vps_test_request',
          subjectId: String(row.id),
          targetUserId: userId,
          details: { source: row.source },
        });
        return row;
      });
      return { test_request: toTestRequest(request), message: VPS_MESSAGES.VPS_TEST_REQUESTED };
    },
  };
}
