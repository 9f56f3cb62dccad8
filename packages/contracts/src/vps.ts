import * as z from 'zod/mini';
import { pageOf, pagingFields } from './balance.ts';
import {
  discountPercentField,
  idSchema,
  personSchema,
  priceCentsField,
  reasonField,
  singleLine,
} from './input.ts';
import { DAY_MS } from './time.ts';

/**
 * VPS rental contracts: the rates catalogue, pricing (one pure computation the console shows and
 * the API charges), ordering, the servers list and its controls, upgrades, test servers.
 * Amounts travel as dollars with two decimals; the database keeps cents.
 */

// ---- constants ----------------------------------------------------------------------------

/** Rental periods in months (the rates page offers exactly these). */
export const RENTAL_PERIODS = [1, 3, 6, 12] as const;
export type RentalPeriod = (typeof RENTAL_PERIODS)[number];

/**
 * A server's status. SPEC 4 names Active, Blocked and Revoked; `provisioning` (being created
 * after payment) and `failed` (could not be created, the charge refunded) are ours, so that a
 * paid order is never invisible and never a half-made server.
 */
export const SERVER_STATUSES = ['provisioning', 'active', 'blocked', 'revoked', 'failed'] as const;
export type ServerStatus = (typeof SERVER_STATUSES)[number];
/** The statuses the list's filter offers. */
export const SERVER_STATUS_FILTERS = ['active', 'blocked', 'revoked'] as const;

/** What the hypervisor last said of the machine. */
export const POWER_STATES = ['running', 'stopped', 'unknown'] as const;
export type PowerState = (typeof POWER_STATES)[number];

/** Controls the user may ask for (answered 202, 1-2 minutes, one at a time per server). */
export const SERVER_ACTIONS = ['start', 'shutdown', 'reboot'] as const;
export type ServerAction = (typeof SERVER_ACTIONS)[number];

/** Everything run on the hypervisor for a server, by the user, an operator or the lifecycle. */
export const OPERATION_KINDS = [
  'create',
  'start',
  'shutdown',
  'reboot',
  'upgrade',
  'block',
  'reactivate',
  'revoke',
  'snapshot',
  'rollback',
  'snapshot_delete',
  'reinstall',
  'password_reset',
  'terminal_restart',
] as const;
export type OperationKind = (typeof OPERATION_KINDS)[number];
export const SERVER_OPERATION_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type ServerOperationStatus = (typeof SERVER_OPERATION_STATUSES)[number];

export const UPGRADE_STATUSES = ['pending', 'done', 'failed', 'cancelled'] as const;
export type UpgradeStatus = (typeof UPGRADE_STATUSES)[number];

export const TEST_REQUEST_STATUSES = ['under_review', 'approved', 'rejected'] as const;
export type TestRequestStatus = (typeof TEST_REQUEST_STATUSES)[number];

/** "How did you hear about us?": stored with each order for statistics. */
export const SOURCE_OPTIONS = [
  'search',
  'friend',
  'forum',
  'social',
  'youtube',
  'telegram',
  'broker',
  'other',
] as const;
export type SourceOption = (typeof SOURCE_OPTIONS)[number];

export const COMMENT_MAX = 200;
export const SOURCE_OTHER_MAX = 200;
export const PROMOCODE_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;
/** An upgrade is priced per day of the remaining period, a month counting as 30 days. */
export const DAYS_PER_MONTH = 30;

// ---- pricing (one computation for the console and the API) --------------------------------

export interface PriceInput {
  monthlyCents: number;
  months: number;
  /** 0-90, the rental period's discount. */
  periodDiscountPercent: number;
  /** 0-90, a promocode's discount; it applies to a 1-month rental only (SPEC 9). */
  promoDiscountPercent?: number;
}

export interface Price {
  baseCents: number;
  periodDiscountCents: number;
  promoDiscountCents: number;
  totalCents: number;
}

/** The price of a rental: monthly price x months, less the period's discount, less a promocode's. */
export function rentalPrice(input: PriceInput): Price {
  const baseCents = input.monthlyCents * input.months;
  const periodDiscountCents = Math.round((baseCents * input.periodDiscountPercent) / 100);
  const afterPeriod = baseCents - periodDiscountCents;
  const promo = input.months === 1 ? (input.promoDiscountPercent ?? 0) : 0;
  const promoDiscountCents = Math.round((afterPeriod * promo) / 100);
  return {
    baseCents,
    periodDiscountCents,
    promoDiscountCents,
    totalCents: afterPeriod - promoDiscountCents,
  };
}

/** Whole days (rounded up) from `from` to `until`; 0 when `until` is not later. */
export function daysBetween(from: Date, until: Date): number {
  return Math.max(0, Math.ceil((until.getTime() - from.getTime()) / DAY_MS));
}

/**
 * An upgrade's price: the difference of the monthly prices for the days from the upgrade date
 * to the paid-until date, a month counting as 30 days, rounded up to a cent.
 */
export function upgradePriceCents(
  fromMonthlyCents: number,
  toMonthlyCents: number,
  upgradeOn: Date,
  paidUntil: Date,
): number {
  const difference = Math.max(0, toMonthlyCents - fromMonthlyCents);
  return Math.ceil((difference * daysBetween(upgradeOn, paidUntil)) / DAYS_PER_MONTH);
}

/** The paid-until date after renewing for `months` from `from` (calendar months, UTC). */
export function addMonths(from: Date, months: number): Date {
  const next = new Date(from.getTime());
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}

// ---- shared fields ------------------------------------------------------------------------

const monthsSchema = z.coerce.number({ error: 'PERIOD_UNKNOWN' }).check(
  z.refine((value) => (RENTAL_PERIODS as readonly number[]).includes(value), {
    error: 'PERIOD_UNKNOWN',
  }),
);

// vps_rates has a serial key
const rateIdSchema = idSchema('serial', 'RATE_NOT_FOUND');

/** `:id` of an operator's rate path. */
export const rateIdParamsSchema = z.object({ id: idSchema('serial') });

export const promocodeSchema = z
  .string({ error: 'PROMOCODE_NOT_FOUND' })
  .check(z.trim(), z.regex(PROMOCODE_PATTERN, { error: 'PROMOCODE_NOT_FOUND' }));

const sourceFields = {
  source: z.enum(SOURCE_OPTIONS, { error: 'SOURCE_REQUIRED' }),
  /** With source `other`: the user's own words. */
  source_other: z.optional(
    z
      .string()
      .check(
        z.trim(),
        z.maxLength(SOURCE_OTHER_MAX, { error: 'SOURCE_OTHER_TOO_LONG' }),
        singleLine(),
      ),
  ),
};

/** YYYY-MM-DD, a calendar date in UTC. */
export const dateSchema = z.string({ error: 'UPGRADE_DATE_INVALID' }).check(
  z.regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'UPGRADE_DATE_INVALID' }),
  z.refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), {
    error: 'UPGRADE_DATE_INVALID',
  }),
);

// ---- rates --------------------------------------------------------------------------------

export const rateSchema = z.object({
  id: z.int(),
  name: z.string(),
  cpu_cores: z.int(),
  ram_gb: z.int(),
  disk_gb: z.int(),
  /** e.g. "London (LD4)". */
  location: z.string(),
  /** Dollars. */
  monthly_price: z.number(),
});
export type Rate = z.infer<typeof rateSchema>;

export const periodDiscountSchema = z.object({
  months: z.int(),
  discount_percent: z.int(),
});
export type PeriodDiscount = z.infer<typeof periodDiscountSchema>;

export const testRequestSchema = z.object({
  id: z.int(),
  created_at: z.iso.datetime(),
  status: z.enum(TEST_REQUEST_STATUSES),
  /** Rejected: the operator's reason. */
  reason: z.nullable(z.string()),
  /** Approved: the server made for it. */
  server_id: z.nullable(z.int()),
  decided_at: z.nullable(z.iso.datetime()),
});
export type TestRequest = z.infer<typeof testRequestSchema>;

/** GET /api/user/vps/rates */
export const ratesResponseSchema = z.object({
  rates: z.array(rateSchema),
  periods: z.array(periodDiscountSchema),
  /** How long an approved test server runs. */
  trial_days: z.int(),
  /** The user's test-server request, null when they have not asked for one. */
  test_request: z.nullable(testRequestSchema),
});
export type RatesResponse = z.infer<typeof ratesResponseSchema>;

/** GET /api/user/vps/promocode?code= : a usable promocode's discount. */
export const promocodeQuerySchema = z.object({ code: promocodeSchema });
export const promocodeResponseSchema = z.object({
  code: z.string(),
  discount_percent: z.int(),
});
export type PromocodeResponse = z.infer<typeof promocodeResponseSchema>;

// ---- servers ------------------------------------------------------------------------------

export const serverOperationSchema = z.object({
  id: z.int(),
  kind: z.enum(OPERATION_KINDS),
  status: z.enum(SERVER_OPERATION_STATUSES),
  created_at: z.iso.datetime(),
  started_at: z.nullable(z.iso.datetime()),
  finished_at: z.nullable(z.iso.datetime()),
  /** Failed: what went wrong, honestly and without internals. */
  error: z.nullable(z.string()),
});
export type ServerOperation = z.infer<typeof serverOperationSchema>;

export const upgradeSchema = z.object({
  id: z.int(),
  created_at: z.iso.datetime(),
  from_rate: z.string(),
  to_rate: z.string(),
  to_rate_id: z.int(),
  /** YYYY-MM-DD. */
  scheduled_for: z.string(),
  /** Dollars charged for the difference. */
  price: z.number(),
  status: z.enum(UPGRADE_STATUSES),
});
export type Upgrade = z.infer<typeof upgradeSchema>;

export const serverSchema = z.object({
  id: z.int(),
  rate: rateSchema,
  comment: z.string(),
  status: z.enum(SERVER_STATUSES),
  power: z.enum(POWER_STATES),
  /** When the server was ordered (SPEC 2 "issued"). */
  issued_at: z.iso.datetime(),
  paid_until: z.iso.datetime(),
  auto_renew: z.boolean(),
  /** The period auto-renewal pays for. */
  renew_months: z.int(),
  is_trial: z.boolean(),
  /** The operation in progress (queued or running), or null. */
  operation: z.nullable(serverOperationSchema),
  /** The last finished operation, so the console can say how the previous one ended. */
  last_operation: z.nullable(serverOperationSchema),
  /** A pending upgrade, or null. */
  upgrade: z.nullable(upgradeSchema),
  /** False until the machine exists; the details modal asks for them only then. */
  has_credentials: z.boolean(),
  /** Failed: why the server could not be created (the charge was refunded). */
  failure: z.nullable(z.string()),
  /**
   * The current ping to the broker of the terminals publishing from the server (the owner's
   * monitored accounts at its address that reported within PUBLISHER_SILENT_AFTER_MS): the
   * highest, as the worst terminal is the one to worry about; null when none publishes from it.
   */
  ping_ms: z.nullable(z.int()),
  /** How many terminals that ping is of (0 with no ping). */
  ping_terminals: z.int(),
});
export type Server = z.infer<typeof serverSchema>;

export const serversQuerySchema = z.object({
  /** Search by ID: digits, matched as a prefix of the server's number. */
  search: z.optional(
    z.string().check(z.trim(), z.maxLength(20), z.regex(/^\d*$/, { error: 'SEARCH_INVALID' })),
  ),
  status: z.optional(z.enum(SERVER_STATUSES)),
  ...pagingFields(20),
});
export type ServersQuery = z.input<typeof serversQuerySchema>;
export const serversPageSchema = pageOf(serverSchema);
export const serverResponseSchema = z.object({ server: serverSchema });
export type ServerResponse = z.infer<typeof serverResponseSchema>;

/**
 * A server's activity (GET /api/user/vps/servers/{id}/activity): every operation on it and the
 * owner's other actions on it (renewals, auto-renewal switched, login details shown, the web
 * console opened), newest
 * first. `by`: the owner ('you'), an operator (never named to the user), the service itself
 * ('system': expiry, auto-renewal, the lifecycle) or the terminal guardian ('guardian'). An
 * operation's `status` is where it stands; a one-off action is 'succeeded' when it happened.
 */
export const ACTIVITY_ACTORS = ['you', 'operator', 'system', 'guardian'] as const;
export type ActivityActor = (typeof ACTIVITY_ACTORS)[number];
export const SERVER_ACTIVITY_KINDS = [
  ...OPERATION_KINDS,
  'renew',
  'auto_renew_on',
  'auto_renew_off',
  'credentials_revealed',
  'console_opened',
] as const;
export type ServerActivityKind = (typeof SERVER_ACTIVITY_KINDS)[number];
export const serverActivitySchema = z.object({
  /** Unique in the list: "operation-<id>" or "action-<id>". */
  id: z.string(),
  at: z.iso.datetime(),
  kind: z.enum(SERVER_ACTIVITY_KINDS),
  by: z.enum(ACTIVITY_ACTORS),
  status: z.enum(SERVER_OPERATION_STATUSES),
  /** When an operation ended; null while it runs, and for a one-off action. */
  finished_at: z.nullable(z.iso.datetime()),
});
export type ServerActivity = z.infer<typeof serverActivitySchema>;
export const activityQuerySchema = z.object({ ...pagingFields(20) });
export type ActivityQuery = z.input<typeof activityQuerySchema>;
export const activityPageSchema = pageOf(serverActivitySchema);

/**
 * A server's load (GET /api/user/vps/servers/{id}/metrics?timeframe=hour|day|week), as the
 * hypervisor measured it: 70 points `step_seconds` apart, oldest first. A figure is null where
 * the machine was off (a chart leaves a gap, not a zero). `pressure`: the server is near a limit
 * over the last quarter of the timeframe (CPU or memory at SERVER_PRESSURE_SHARE or more on
 * average), and the console offers the upgrade.
 */
export const METRICS_TIMEFRAMES = ['hour', 'day', 'week'] as const;
export type MetricsTimeframe = (typeof METRICS_TIMEFRAMES)[number];
export const SERVER_PRESSURE_SHARE = 0.9;
export const metricsQuerySchema = z.object({
  timeframe: z._default(z.enum(METRICS_TIMEFRAMES, { error: 'VALIDATION' }), 'hour'),
});
export type MetricsQuery = z.input<typeof metricsQuerySchema>;
const figure = z.nullable(z.number());
export const metricsPointSchema = z.object({
  at: z.iso.datetime(),
  /** The share of all the server's cores in use, 0..1. */
  cpu: figure,
  /** Memory in use and the machine's memory, bytes. */
  memory: figure,
  memory_total: figure,
  /** Network in and out, disk read and write: bytes a second. */
  net_in: figure,
  net_out: figure,
  disk_read: figure,
  disk_write: figure,
});
export type MetricsPoint = z.infer<typeof metricsPointSchema>;
export const serverMetricsSchema = z.object({
  timeframe: z.enum(METRICS_TIMEFRAMES),
  step_seconds: z.int(),
  points: z.array(metricsPointSchema),
  pressure: z.object({ cpu: z.boolean(), memory: z.boolean() }),
});
export type ServerMetrics = z.infer<typeof serverMetricsSchema>;

/**
 * The server's web console (POST /api/user/vps/servers/{id}/console): a ticket for one WebSocket
 * to GET .../console/socket?ticket=, good for CONSOLE_TICKET_SECONDS and one connection, only for
 * that server and its owner (a browser's WebSocket cannot send the bearer token, so the ticket
 * is what signs the socket in). Over the socket the server's screen speaks RFB 3.8 with security
 * None: noVNC's protocol; the hypervisor's own ticket stays with the API.
 */
export const CONSOLE_TICKET_SECONDS = 30;
export const consoleTicketSchema = z.object({
  ticket: z.string(),
  expires_at: z.iso.datetime(),
});
export type ConsoleTicket = z.infer<typeof consoleTicketSchema>;
export const consoleSocketQuerySchema = z.object({
  ticket: z
    .string({ error: 'CONSOLE_TICKET_INVALID' })
    .check(z.maxLength(100, { error: 'CONSOLE_TICKET_INVALID' })),
});

/**
 * A server's snapshots (GET|POST /api/user/vps/servers/{id}/snapshots, POST
 * .../snapshots/{snapshotId}/rollback, DELETE .../snapshots/{snapshotId}): at most
 * VPS_SNAPSHOTS_MAX a server (`limit` in the list), named by the owner and dated; each is taken,
 * rolled back to or deleted by an operation (202). A rollback returns the disk (and the size) to
 * the snapshot's moment: what was written since is lost. `automatic`: taken before a reinstall.
 */
export const SNAPSHOT_STATUSES = ['creating', 'ready', 'deleting'] as const;
export type SnapshotStatus = (typeof SNAPSHOT_STATUSES)[number];
export const SNAPSHOT_NAME_MAX = 40;
export const snapshotSchema = z.object({
  id: z.int(),
  name: z.string(),
  status: z.enum(SNAPSHOT_STATUSES),
  automatic: z.boolean(),
  created_at: z.iso.datetime(),
  /** When the hypervisor took it; null while it is being taken. */
  taken_at: z.nullable(z.iso.datetime()),
});
export type Snapshot = z.infer<typeof snapshotSchema>;
export const snapshotsResponseSchema = z.object({
  data: z.array(snapshotSchema),
  limit: z.int(),
});
export type SnapshotsResponse = z.infer<typeof snapshotsResponseSchema>;
export const snapshotRequestSchema = z.object({
  name: z
    .string({ error: 'SNAPSHOT_NAME_REQUIRED' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'SNAPSHOT_NAME_REQUIRED' }),
      z.maxLength(SNAPSHOT_NAME_MAX, { error: 'SNAPSHOT_NAME_TOO_LONG' }),
      singleLine(),
    ),
});
export type SnapshotRequest = z.infer<typeof snapshotRequestSchema>;
export const snapshotParamsSchema = z.object({
  id: idSchema('bigserial'),
  snapshotId: idSchema('bigserial'),
});

/**
 * The terminal guardian, per server (PUT /api/user/vps/servers/{id}/guardian): when a terminal
 * publishing from the server falls silent it names the cause and, within this policy, acts:
 * `notify` tells only; `restart` starts the terminal again (or the server, if it is shut down);
 * `restart_then_reboot` also reboots the server when the terminal is still silent
 * `reboot_after_minutes` later, never while positions are open unless `reboot_with_positions`.
 */
export const GUARDIAN_POLICIES = ['notify', 'restart', 'restart_then_reboot'] as const;
export type GuardianPolicy = (typeof GUARDIAN_POLICIES)[number];
export const GUARDIAN_CAUSES = [
  'server_stopped',
  'terminal_closed',
  'broker_disconnected',
  'algo_trading_off',
  'unknown',
] as const;
export type GuardianCause = (typeof GUARDIAN_CAUSES)[number];
export const GUARDIAN_ACTIONS = ['none', 'start', 'terminal_restart', 'reboot'] as const;
export type GuardianAction = (typeof GUARDIAN_ACTIONS)[number];
export const GUARDIAN_STATUSES = ['open', 'resolved', 'escalated', 'notified'] as const;
export type GuardianStatus = (typeof GUARDIAN_STATUSES)[number];
/** At most one action on a server in this many minutes. */
export const GUARDIAN_ACTION_GAP_MINUTES = 15;
export const GUARDIAN_REBOOT_AFTER_MIN = 5;
export const GUARDIAN_REBOOT_AFTER_MAX = 120;
export const guardianSettingsSchema = z.object({
  policy: z.enum(GUARDIAN_POLICIES, { error: 'GUARDIAN_POLICY_INVALID' }),
  reboot_after_minutes: z
    .int({ error: 'GUARDIAN_MINUTES_RANGE' })
    .check(
      z.gte(GUARDIAN_REBOOT_AFTER_MIN, { error: 'GUARDIAN_MINUTES_RANGE' }),
      z.lte(GUARDIAN_REBOOT_AFTER_MAX, { error: 'GUARDIAN_MINUTES_RANGE' }),
    ),
  reboot_with_positions: z.boolean({ error: 'VALIDATION' }),
});
export type GuardianSettings = z.infer<typeof guardianSettingsSchema>;
/** What the guardian found and did once (the last ten on the server's page). */
export const guardianIncidentSchema = z.object({
  id: z.int(),
  opened_at: z.iso.datetime(),
  /** When the terminal last published before the silence. */
  silent_since: z.iso.datetime(),
  cause: z.enum(GUARDIAN_CAUSES),
  action: z.enum(GUARDIAN_ACTIONS),
  acted_at: z.nullable(z.iso.datetime()),
  status: z.enum(GUARDIAN_STATUSES),
  closed_at: z.nullable(z.iso.datetime()),
  positions: z.int(),
});
export type GuardianIncident = z.infer<typeof guardianIncidentSchema>;
export const guardianResponseSchema = z.object({
  settings: guardianSettingsSchema,
  incidents: z.array(guardianIncidentSchema),
});
export type GuardianResponse = z.infer<typeof guardianResponseSchema>;

/** POST /api/user/vps/order (Idempotency-Key) */
export const orderRequestSchema = z.object({
  rate_id: rateIdSchema,
  months: monthsSchema,
  promocode: z.optional(z.union([promocodeSchema, z.literal('')])),
  ...sourceFields,
});
export type OrderRequest = z.input<typeof orderRequestSchema>;

/** Answer of every paid action: what changed and the balance left, in dollars. */
export const paidResponseSchema = z.object({
  server: serverSchema,
  /** Dollars charged. */
  charged: z.number(),
  /** Dollars left on the balance. */
  balance: z.number(),
  message: z.string(),
  code: z.optional(z.string()),
});
export type PaidResponse = z.infer<typeof paidResponseSchema>;

/** PATCH /api/user/vps/servers/:id */
export const commentRequestSchema = z.object({
  comment: z
    .string({ error: 'COMMENT_TOO_LONG' })
    .check(z.trim(), z.maxLength(COMMENT_MAX, { error: 'COMMENT_TOO_LONG' }), singleLine()),
});
export type CommentRequest = z.input<typeof commentRequestSchema>;

/** POST /api/user/vps/servers/:id/credentials: revealed on request, never in the list. */
export const credentialsResponseSchema = z.object({
  host: z.string(),
  port: z.int(),
  username: z.string(),
  password: z.string(),
});
export type Credentials = z.infer<typeof credentialsResponseSchema>;

/** POST /api/user/vps/servers/:id/renew (Idempotency-Key) */
export const renewRequestSchema = z.object({ months: monthsSchema });
export type RenewRequest = z.input<typeof renewRequestSchema>;

/** PUT /api/user/vps/servers/:id/auto-renew */
export const autoRenewRequestSchema = z.object({
  enabled: z.boolean({ error: 'VALIDATION' }),
  months: z.optional(monthsSchema),
});
export type AutoRenewRequest = z.input<typeof autoRenewRequestSchema>;

/** POST /api/user/vps/servers/:id/actions/:action -> 202 */
export const actionParamsSchema = z.object({
  id: idSchema('bigserial'),
  action: z.enum(SERVER_ACTIONS, { error: 'NOT_FOUND' }),
});
export const operationResponseSchema = z.object({
  server: serverSchema,
  operation: serverOperationSchema,
  message: z.string(),
});
export type OperationResponse = z.infer<typeof operationResponseSchema>;

/** POST /api/user/vps/servers/:id/upgrade (Idempotency-Key) -> 202 */
export const upgradeRequestSchema = z.object({
  rate_id: rateIdSchema,
  /** The day the upgrade runs: from today to the day before paid-until. */
  date: dateSchema,
});
export type UpgradeRequest = z.input<typeof upgradeRequestSchema>;
export const upgradeResponseSchema = z.object({
  server: serverSchema,
  upgrade: upgradeSchema,
  charged: z.number(),
  balance: z.number(),
  message: z.string(),
});
export type UpgradeResponse = z.infer<typeof upgradeResponseSchema>;

/** POST /api/user/vps/test-server */
export const testServerRequestSchema = z.object(sourceFields);
export type TestServerRequest = z.input<typeof testServerRequestSchema>;
export const testServerResponseSchema = z.object({
  test_request: testRequestSchema,
  message: z.string(),
});

// ---- operator (/api/admin/vps/...) ---------------------------------------------------------

const ownerSchema = personSchema;

export const adminRateSchema = z.extend(rateSchema, {
  active: z.boolean(),
  template_id: z.string(),
  servers: z.int(),
});
export type AdminRate = z.infer<typeof adminRateSchema>;
export const adminRatesResponseSchema = z.object({
  rates: z.array(adminRateSchema),
  periods: z.array(periodDiscountSchema),
});
export type AdminRatesResponse = z.infer<typeof adminRatesResponseSchema>;

const positiveIntField = (max: number) =>
  z.coerce.number({ error: 'VALIDATION' }).check(z.int(), z.minimum(1), z.maximum(max));

export const rateInputSchema = z.object({
  name: z
    .string({ error: 'NAME_REQUIRED' })
    .check(
      z.trim(),
      z.minLength(1, { error: 'NAME_REQUIRED' }),
      z.maxLength(60, { error: 'NAME_TOO_LONG' }),
      singleLine(),
    ),
  cpu_cores: positiveIntField(128),
  ram_gb: positiveIntField(1024),
  disk_gb: positiveIntField(16_384),
  location: z
    .string({ error: 'REQUIRED' })
    .check(z.trim(), z.minLength(1, { error: 'REQUIRED' }), z.maxLength(60), singleLine()),
  /** Dollars. */
  monthly_price: priceCentsField(),
  template_id: z
    .string({ error: 'REQUIRED' })
    .check(z.trim(), z.regex(/^[A-Za-z0-9_-]{1,40}$/, { error: 'VALIDATION' })),
  active: z._default(z.boolean(), true),
});
export type RateInput = z.input<typeof rateInputSchema>;
/** Only what is sent changes: `active` has no default here (zod 4 applies defaults in partials). */
export const rateUpdateSchema = z.partial(z.extend(rateInputSchema, { active: z.boolean() }));

export const discountsRequestSchema = z.object({
  periods: z.array(
    z.object({
      months: monthsSchema,
      discount_percent: discountPercentField(0),
    }),
  ),
});
export type DiscountsRequest = z.input<typeof discountsRequestSchema>;

export const adminPromocodeSchema = z.object({
  id: z.int(),
  code: z.string(),
  discount_percent: z.int(),
  active: z.boolean(),
  times_used: z.int(),
  /** The partner who made it (partner issue), null for the operator's. */
  owner: z.nullable(ownerSchema),
  created_at: z.iso.datetime(),
});
export type AdminPromocode = z.infer<typeof adminPromocodeSchema>;
export const adminPromocodesQuerySchema = z.object({ ...pagingFields(50) });
export const adminPromocodesPageSchema = pageOf(adminPromocodeSchema);
export const promocodeInputSchema = z.object({
  code: z
    .string({ error: 'PROMOCODE_INVALID' })
    .check(z.trim(), z.regex(PROMOCODE_PATTERN, { error: 'PROMOCODE_INVALID' })),
  discount_percent: discountPercentField(1),
});
export type PromocodeInput = z.input<typeof promocodeInputSchema>;
export const promocodeUpdateSchema = z.object({ active: z.boolean() });

export const adminTestRequestSchema = z.extend(testRequestSchema, {
  user: ownerSchema,
  source: z.string(),
});
export type AdminTestRequest = z.infer<typeof adminTestRequestSchema>;
export const adminTestRequestsQuerySchema = z.object({
  status: z._default(z.enum(TEST_REQUEST_STATUSES), 'under_review'),
  ...pagingFields(20),
});
export const adminTestRequestsPageSchema = pageOf(adminTestRequestSchema);

export const adminServerSchema = z.extend(serverSchema, {
  user: ownerSchema,
  machine_id: z.nullable(z.string()),
  source: z.nullable(z.string()),
});
export type AdminServer = z.infer<typeof adminServerSchema>;
export const adminServersQuerySchema = z.object({
  /** A server number or (part of) the owner's e-mail. */
  search: z.optional(z.string().check(z.trim(), z.maxLength(254))),
  status: z.optional(z.enum(SERVER_STATUSES)),
  ...pagingFields(20),
});
export const adminServersPageSchema = pageOf(adminServerSchema);

export const adminOperationSchema = z.extend(serverOperationSchema, {
  server_id: z.int(),
  user: ownerSchema,
  /** Who asked: a user, an operator, or null for the lifecycle. */
  actor: z.nullable(ownerSchema),
  attempts: z.int(),
  /** Running (or queued) for longer than the stuck threshold. */
  stuck: z.boolean(),
});
export type AdminOperation = z.infer<typeof adminOperationSchema>;
export const adminOperationsQuerySchema = z.object({
  status: z.optional(z.enum([...SERVER_OPERATION_STATUSES, 'stuck'])),
  server_id: z.optional(idSchema('bigserial', 'VALIDATION')),
  ...pagingFields(50),
});
export const adminOperationsPageSchema = pageOf(adminOperationSchema);
export const failOperationRequestSchema = z.object({ reason: reasonField() });
