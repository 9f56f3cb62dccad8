import * as z from 'zod/mini';
import { pageOf, pagingFields } from './balance.ts';

/**
 * A monitoring account's alerts and reports: the rules its owner switches on (each with its
 * line), where alerts and reports go, and the alert history.
 *
 * Each rule fires once when its line is crossed and is armed again only when the account has
 * recovered past the line by ALERT_REARM_SHARE of it (so a value hovering at the line never
 * storms): drawdown 20 % re-arms below 19 %, margin level 100 % above 105 %, ping 150 ms below
 * 142.5 ms.
 */

export const ALERT_KINDS = [
  'drawdown',
  'equity_below',
  'margin_level',
  'daily_loss',
  'no_data',
  'positions',
  'ping_above',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export type AlertUnit = 'percent' | 'money' | 'minutes' | 'ms' | 'none';

/** What each kind's threshold is in. */
export const ALERT_UNITS = {
  drawdown: 'percent',
  equity_below: 'money',
  margin_level: 'percent',
  daily_loss: 'money',
  no_data: 'minutes',
  positions: 'none',
  ping_above: 'ms',
} as const satisfies Record<AlertKind, AlertUnit>;

/** The share of the line by which a fired rule's value must recover before it is armed again. */
export const ALERT_REARM_SHARE = 0.05;

export const NO_DATA_MINUTES_MIN = 5;
export const NO_DATA_MINUTES_MAX = 1440;
/** Margin level is equity / margin x 100: a line above 100 % warns before a margin call. */
export const MARGIN_LEVEL_MAX = 10_000;
export const ALERT_AMOUNT_MAX = 1_000_000_000_000;
/** The ping line, milliseconds: a ping to a trade server is a few ms near it, hundreds far off. */
export const PING_ALERT_MS_MIN = 10;
export const PING_ALERT_MS_MAX = 5000;
/**
 * The ping rule fires when every ping point (one a minute) of this many minutes is above the
 * line, and there are at least PING_ALERT_POINTS_MIN of them: a single spike never fires, nor a
 * terminal that stopped telling its ping (the no-data rule is for silence).
 */
export const PING_ALERT_MINUTES = 5;
export const PING_ALERT_POINTS_MIN = 3;

export const REPORT_PERIODS = ['daily', 'weekly', 'monthly'] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];

/** What became of an alert's delivery by one channel (skipped: the channel is off or unlinked). */
export const ALERT_DELIVERIES = ['pending', 'sent', 'failed', 'skipped'] as const;
export type AlertDeliveryStatus = (typeof ALERT_DELIVERIES)[number];

/** A server's state as a silent-terminal alert names it. */
export const ALERT_SERVER_STATES = [
  'running',
  'shut_down',
  'blocked',
  'revoked',
  'provisioning',
  'unknown',
] as const;
export type AlertServerState = (typeof ALERT_SERVER_STATES)[number];

const flag = z.boolean({ error: 'VALIDATION' });

const percentLine = z
  .number({ error: 'MONITORING_ALERT_PERCENT_RANGE' })
  .check(
    z.gt(0, { error: 'MONITORING_ALERT_PERCENT_RANGE' }),
    z.lt(100, { error: 'MONITORING_ALERT_PERCENT_RANGE' }),
  );
const marginLine = z
  .number({ error: 'MONITORING_ALERT_MARGIN_RANGE' })
  .check(
    z.gt(0, { error: 'MONITORING_ALERT_MARGIN_RANGE' }),
    z.lte(MARGIN_LEVEL_MAX, { error: 'MONITORING_ALERT_MARGIN_RANGE' }),
  );
const moneyLine = z
  .number({ error: 'MONITORING_ALERT_AMOUNT_INVALID' })
  .check(
    z.gt(0, { error: 'MONITORING_ALERT_AMOUNT_INVALID' }),
    z.lte(ALERT_AMOUNT_MAX, { error: 'MONITORING_ALERT_AMOUNT_INVALID' }),
  );
const minutesLine = z
  .int({ error: 'MONITORING_ALERT_MINUTES_RANGE' })
  .check(
    z.gte(NO_DATA_MINUTES_MIN, { error: 'MONITORING_ALERT_MINUTES_RANGE' }),
    z.lte(NO_DATA_MINUTES_MAX, { error: 'MONITORING_ALERT_MINUTES_RANGE' }),
  );
const pingLine = z
  .int({ error: 'MONITORING_ALERT_PING_RANGE' })
  .check(
    z.gte(PING_ALERT_MS_MIN, { error: 'MONITORING_ALERT_PING_RANGE' }),
    z.lte(PING_ALERT_MS_MAX, { error: 'MONITORING_ALERT_PING_RANGE' }),
  );

const ruleWith = <T extends z.core.$ZodType>(threshold: T) =>
  z.object({ enabled: flag, threshold });

/** Each kind's rule as the owner sets it: on or off, and its line (none for positions). */
export const alertRulesInputSchema = z.object({
  drawdown: z.optional(ruleWith(percentLine)),
  equity_below: z.optional(ruleWith(moneyLine)),
  margin_level: z.optional(ruleWith(marginLine)),
  daily_loss: z.optional(ruleWith(moneyLine)),
  no_data: z.optional(ruleWith(minutesLine)),
  positions: z.optional(z.object({ enabled: flag })),
  ping_above: z.optional(ruleWith(pingLine)),
});
export type AlertRulesInput = z.infer<typeof alertRulesInputSchema>;

/**
 * PATCH /api/user/monitoring/accounts/:id/alerts: any of the rules, the alert channels and the
 * reports. A rule whose line or switch changes is armed afresh.
 */
export const updateAlertSettingsSchema = z.object({
  alerts_enabled: z.optional(flag),
  alert_email: z.optional(flag),
  alert_telegram: z.optional(flag),
  report_daily: z.optional(flag),
  report_weekly: z.optional(flag),
  report_monthly: z.optional(flag),
  report_email: z.optional(flag),
  report_telegram: z.optional(flag),
  rules: z.optional(alertRulesInputSchema),
});
export type UpdateAlertSettings = z.infer<typeof updateAlertSettingsSchema>;

export const alertRuleSchema = z.object({
  kind: z.enum(ALERT_KINDS),
  enabled: z.boolean(),
  /** Null: never set (and always for positions). */
  threshold: z.nullable(z.number()),
  /** When it fired and has not recovered since; null while armed. */
  fired_at: z.nullable(z.string()),
});
export type AlertRule = z.infer<typeof alertRuleSchema>;

/** GET (and PATCH) /api/user/monitoring/accounts/:id/alerts */
export const alertSettingsSchema = z.object({
  alerts_enabled: z.boolean(),
  alert_email: z.boolean(),
  alert_telegram: z.boolean(),
  report_daily: z.boolean(),
  report_weekly: z.boolean(),
  report_monthly: z.boolean(),
  report_email: z.boolean(),
  report_telegram: z.boolean(),
  /** Every kind, in ALERT_KINDS order. */
  rules: z.array(alertRuleSchema),
  /** Where mails go: the account's e-mail; its currency names the money lines. */
  email: z.string(),
  currency: z.nullable(z.string()),
  /** The chat-bot: whether it runs here, and whether the owner linked a chat for monitoring. */
  telegram: z.object({ available: z.boolean(), linked: z.boolean() }),
});
export type AlertSettings = z.infer<typeof alertSettingsSchema>;

export const alertServerSchema = z.object({
  id: z.int(),
  state: z.enum(ALERT_SERVER_STATES),
  /** The rate's name and location ("Trader, London"). */
  rate: z.string(),
  comment: z.string(),
});
export type AlertServer = z.infer<typeof alertServerSchema>;

export const alertPositionSchema = z.object({
  action: z.enum(['opened', 'closed']),
  ticket: z.int(),
  symbol: z.string(),
  type: z.enum(['buy', 'sell']),
  volume: z.number(),
  price: z.number(),
  profit: z.number(),
});
export type AlertPosition = z.infer<typeof alertPositionSchema>;

/** What an event names besides its value and line. */
export const alertDetailsSchema = z.object({
  /** positions: the position opened or closed. */
  position: z.optional(alertPositionSchema),
  /** no_data: the last data, the market minutes without any, the servers at the publisher's address. */
  last_data_at: z.optional(z.nullable(z.string())),
  minutes: z.optional(z.int()),
  publisher_ip: z.optional(z.nullable(z.string())),
  servers: z.optional(z.array(alertServerSchema)),
  /** ping_above: the trade server pinged (as the hello named it); `minutes` is the window then. */
  server: z.optional(z.nullable(z.string())),
});
export type AlertDetails = z.infer<typeof alertDetailsSchema>;

export const alertEventSchema = z.object({
  id: z.int(),
  kind: z.enum(ALERT_KINDS),
  at: z.string(),
  /** The value that crossed the line (percent, the account's money, minutes, ms), and the line. */
  value: z.nullable(z.number()),
  threshold: z.nullable(z.number()),
  details: alertDetailsSchema,
  email_status: z.enum(ALERT_DELIVERIES),
  telegram_status: z.enum(ALERT_DELIVERIES),
});
export type AlertEvent = z.infer<typeof alertEventSchema>;

/** GET /api/user/monitoring/accounts/:id/alerts/history: newest first, paged. */
export const alertHistoryQuerySchema = z.object(pagingFields(20));
export const alertHistoryResponseSchema = pageOf(alertEventSchema);
export type AlertHistory = z.infer<typeof alertHistoryResponseSchema>;
