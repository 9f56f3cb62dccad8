import {
  centsToDollars,
  RENTAL_PERIODS,
  type AdminServer,
  type PeriodDiscount,
  type Rate,
  type Server,
  type OperationKind,
  type ServerActivity,
  type ServerActivityKind,
  type ServerOperation,
  type TestRequest,
  type Upgrade,
} from '@tradehost/contracts';
import type { OperationRow } from './vps.operations.ts';
import type {
  ActivityRow,
  RateRow,
  ServerViewRow,
  TestRequestRow,
  UpgradeRow,
} from './vps.repository.ts';

/** Rows of the database to the contracts' shapes (dollars, ISO-8601, snake_case). */

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

export function toRate(row: RateRow): Rate {
  return {
    id: row.id,
    name: row.name,
    cpu_cores: row.cpuCores,
    ram_gb: row.ramGb,
    disk_gb: row.diskGb,
    location: row.location,
    monthly_price: centsToDollars(row.monthlyPriceCents),
  };
}

/** Every rental period with its discount (0 where none is stored). */
export function toPeriods(rows: { months: number; discountPercent: number }[]): PeriodDiscount[] {
  const discounts = new Map(rows.map((row) => [row.months, row.discountPercent]));
  return RENTAL_PERIODS.map((months) => ({ months, discount_percent: discounts.get(months) ?? 0 }));
}

type OperationFields = Pick<
  OperationRow,
  'id' | 'kind' | 'status' | 'createdAt' | 'startedAt' | 'finishedAt' | 'error'
>;

export function toOperation(row: OperationFields): ServerOperation {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
    error: row.error,
  };
}

export function toUpgrade(
  row: Pick<UpgradeRow, 'id' | 'createdAt' | 'toRateId' | 'scheduledFor' | 'priceCents' | 'status'>,
  names: { fromRate: string; toRate: string },
): Upgrade {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    from_rate: names.fromRate,
    to_rate: names.toRate,
    to_rate_id: row.toRateId,
    scheduled_for: row.scheduledFor,
    price: centsToDollars(row.priceCents),
    status: row.status,
  };
}

/** The machine exists and its login details are stored (a revoked machine is gone). */
export function hasCredentials(server: {
  status: string;
  host: string | null;
  port: number | null;
  username: string | null;
  hasPassword: boolean;
}): boolean {
  return (
    server.host !== null &&
    server.port !== null &&
    server.username !== null &&
    server.hasPassword &&
    server.status !== 'revoked' &&
    server.status !== 'failed'
  );
}

/** A server as its owner sees it: never the password, only whether there is one. */
export function toServer(row: ServerViewRow): Server {
  const { server } = row;
  return {
    id: server.id,
    rate: toRate(row.rate),
    comment: server.comment,
    status: server.status,
    power: server.power,
    issued_at: server.createdAt.toISOString(),
    paid_until: server.paidUntil.toISOString(),
    auto_renew: server.autoRenew,
    renew_months: server.renewMonths,
    is_trial: server.isTrial,
    operation: row.operation ? toOperation(row.operation) : null,
    last_operation: row.lastOperation ? toOperation(row.lastOperation) : null,
    upgrade: row.upgrade ? toUpgrade(row.upgrade, row.upgrade) : null,
    has_credentials: hasCredentials({ ...server, hasPassword: row.hasPassword }),
    failure: server.failure,
    ping_ms: row.pingMs,
    ping_terminals: row.pingMs === null ? 0 : row.pingTerminals,
  };
}

export function toAdminServer(row: ServerViewRow): AdminServer {
  return {
    ...toServer(row),
    user: row.owner,
    machine_id: row.server.machineId,
    source: row.server.source,
  };
}

export function toTestRequest(row: TestRequestRow): TestRequest {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    status: row.status,
    reason: row.reason,
    server_id: row.serverId,
    decided_at: iso(row.decidedAt),
  };
}

/** The activity kind of an audit row's action (ACTIVITY_ACTIONS). */
function actionKind(row: ActivityRow): ServerActivityKind {
  switch (row.kind) {
    case 'vps.renew':
    case 'vps.auto_renew':
      return 'renew';
    case 'vps.auto_renew_set':
      return row.details.enabled === true ? 'auto_renew_on' : 'auto_renew_off';
    case 'vps.console_opened':
      return 'console_opened';
    default:
      return 'credentials_revealed';
  }
}

/** A line of a server's activity as its owner reads it: operators are never named. */
export function toActivity(row: ActivityRow, ownerId: number): ServerActivity {
  return {
    id: `${row.source}-${row.id}`,
    at: row.at.toISOString(),
    kind: row.source === 'operation' ? (row.kind as OperationKind) : actionKind(row),
    by:
      row.details.by === 'guardian'
        ? 'guardian'
        : row.actorId === null
          ? 'system'
          : row.actorId === ownerId
            ? 'you'
            : 'operator',
    status: row.status,
    finished_at: iso(row.finishedAt),
  };
}
