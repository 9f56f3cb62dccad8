import {
  ALERT_REARM_SHARE,
  type AlertKind,
  type AlertPosition,
  type IngestPosition,
  MINUTE_MS,
  PING_ALERT_MINUTES,
  PING_ALERT_POINTS_MIN,
} from '@tradehost/contracts';

/**
 * The alert rules' evaluation: pure functions of a rule's state and the account's figures, so
 * each is tested by hand-computed examples. The engine (monitoring.alerts.engine.ts) feeds them
 * the snapshots as they are stored and writes what they decide.
 *
 * A rule is armed (firedAt null) or fired. Armed, it fires when its value crosses the line;
 * fired, it is armed again only once the value is back on the safe side by ALERT_REARM_SHARE of
 * the line (drawdown 20 % re-arms below 19 %; equity below 1,000 above 1,050), so a value
 * hovering at the line fires once, not at every snapshot.
 */

export interface RuleState {
  kind: AlertKind;
  threshold: number | null;
  firedAt: Date | null;
  /** drawdown: the equity peak; daily_loss: the day's opening equity (both without credit). */
  base: number | null;
  /** daily_loss: the start of the day `base` belongs to. */
  baseAt: Date | null;
}

/** The account as a snapshot shows it. */
export interface SnapshotFigures {
  equity: number;
  credit: number;
  margin: number;
  /** The highest equity since the previous snapshot. */
  equityHigh: number;
}

/** What an evaluation decided: the rule's new state, and the event when it fired. */
export interface Decision {
  firedAt: Date | null;
  base: number | null;
  baseAt: Date | null;
  /** The value that crossed the line, when the rule fired now. */
  fired: { value: number } | null;
}

/** Kinds whose line is a floor (fires below it); the others are a ceiling (fires at or above). */
const FLOORS: ReadonlySet<AlertKind> = new Set(['equity_below', 'margin_level']);

export function crosses(kind: AlertKind, value: number, line: number): boolean {
  return FLOORS.has(kind) ? value < line : value >= line;
}

/** Back on the safe side by ALERT_REARM_SHARE of the line. */
export function recovers(kind: AlertKind, value: number, line: number): boolean {
  return FLOORS.has(kind)
    ? value > line * (1 + ALERT_REARM_SHARE)
    : value < line * (1 - ALERT_REARM_SHARE);
}

/**
 * One step of a rule on a value (null: nothing to measure, which counts as recovered: margin
 * level without margin in use).
 */
export function step(
  rule: RuleState,
  value: number | null,
  now: Date,
): Pick<Decision, 'firedAt' | 'fired'> {
  const line = rule.threshold;
  if (line === null) return { firedAt: rule.firedAt, fired: null };
  if (rule.firedAt === null) {
    if (value !== null && crosses(rule.kind, value, line))
      return { firedAt: now, fired: { value } };
    return { firedAt: null, fired: null };
  }
  if (value === null || recovers(rule.kind, value, line)) return { firedAt: null, fired: null };
  return { firedAt: rule.firedAt, fired: null };
}

/** Percent fallen from the peak (0 at or above it). */
export function drawdownPercent(peak: number, value: number): number {
  return peak > 0 && value < peak ? ((peak - value) / peak) * 100 : 0;
}

/** Equity / margin x 100, or null with no margin in use (no open positions). */
export function marginLevel(equity: number, margin: number): number | null {
  return margin > 0 ? (equity / margin) * 100 : null;
}

/**
 * Drawdown from the peak, equity-based, as the statistics' equity drawdown measures it: the
 * value is equity without credit (credit is never the trader's money), the peak the highest such
 * value seen (a snapshot's equity high counts), moved by deposits and withdrawals (flowApplied)
 * so neither is a drawdown or a recovery.
 */
export function evaluateDrawdown(rule: RuleState, s: SnapshotFigures, now: Date): Decision {
  const value = s.equity - s.credit;
  const high = Math.max(s.equityHigh, s.equity) - s.credit;
  const peak = Math.max(rule.base ?? high, high);
  const percent = drawdownPercent(peak, value);
  return { ...step(rule, percent, now), base: peak, baseAt: null };
}

export function evaluateEquityBelow(rule: RuleState, s: SnapshotFigures, now: Date): Decision {
  return { ...step(rule, s.equity, now), base: null, baseAt: null };
}

export function evaluateMarginLevel(rule: RuleState, s: SnapshotFigures, now: Date): Decision {
  return { ...step(rule, marginLevel(s.equity, s.margin), now), base: null, baseAt: null };
}

/**
 * Daily loss: how far equity without credit is below what the day began with (`dayBase`, the
 * last equity before the day's start in the account's time zone, moved by the day's deposits and
 * withdrawals), 0 when above. A new day starts from its own base, so yesterday's fired rule
 * re-arms once today's loss is within the line.
 */
export function evaluateDailyLoss(
  rule: RuleState,
  s: SnapshotFigures,
  now: Date,
  day: { start: Date; base: number },
): Decision {
  const sameDay = rule.baseAt?.getTime() === day.start.getTime() && rule.base !== null;
  const base = sameDay ? rule.base! : day.base;
  const loss = Math.max(0, base - (s.equity - s.credit));
  return { ...step(rule, loss, now), base, baseAt: day.start };
}

/** Whether the daily-loss rule needs the opening equity of the day starting at `dayStart`. */
export const needsDayBase = (rule: RuleState, dayStart: Date) =>
  rule.base === null || rule.baseAt?.getTime() !== dayStart.getTime();

/**
 * A deposit or withdrawal of `amount` when the value (equity without credit) was `before`: the
 * drawdown peak is scaled by (before + amount) / before, as the growth index chains periods at
 * a flow, and the day's base moves by the amount; other rules keep their state.
 */
export function flowApplied(
  rule: RuleState,
  flow: { amount: number; before: number; at: Date },
): Pick<RuleState, 'base' | 'baseAt'> | null {
  if (rule.base === null) return null;
  if (rule.kind === 'drawdown' && flow.before > 0)
    return {
      base: (rule.base * Math.max(flow.before + flow.amount, 0)) / flow.before,
      baseAt: null,
    };
  if (rule.kind === 'daily_loss' && rule.baseAt && flow.at.getTime() >= rule.baseAt.getTime())
    return { base: rule.base + flow.amount, baseAt: rule.baseAt };
  return null;
}

/** A point of the terminal's ping: its minute (`monitoring_pings`) and whole milliseconds. */
export interface PingPoint {
  at: Date;
  pingMs: number;
}

/**
 * Ping above the line, "stays above" rather than "went above": of the ping points (one a
 * minute) of the PING_ALERT_MINUTES ending at `until` (the snapshot's time, the clock the points
 * are on), every one is above the line (a point at it is not) and there are at least
 * PING_ALERT_POINTS_MIN, so a single spike never fires, nor a few minutes told out of many. The
 * value is the latest point. Fired, the rule is armed again by a latest point back below the line
 * by ALERT_REARM_SHARE; with no point in the window it stays as it is.
 */
export function evaluatePingAbove(
  rule: RuleState,
  points: readonly PingPoint[],
  until: Date,
  now: Date,
): Decision {
  const keep: Decision = { firedAt: rule.firedAt, base: null, baseAt: null, fired: null };
  const line = rule.threshold;
  const from = until.getTime() - PING_ALERT_MINUTES * MINUTE_MS;
  const window = points
    .filter((p) => p.at.getTime() > from && p.at.getTime() <= until.getTime())
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  const latest = window.at(-1);
  if (line === null || !latest) return keep;
  if (rule.firedAt !== null)
    return recovers(rule.kind, latest.pingMs, line) ? { ...keep, firedAt: null } : keep;
  const stays = window.length >= PING_ALERT_POINTS_MIN && window.every((p) => p.pingMs > line);
  return stays ? { ...keep, firedAt: now, fired: { value: latest.pingMs } } : keep;
}

/** Positions opened and closed between two snapshots, by ticket. */
export function positionChanges(
  before: readonly IngestPosition[],
  after: readonly IngestPosition[],
): AlertPosition[] {
  const was = new Map(before.map((p) => [p.ticket, p]));
  const is = new Map(after.map((p) => [p.ticket, p]));
  const change = (action: AlertPosition['action'], p: IngestPosition): AlertPosition => ({
    action,
    ticket: p.ticket,
    symbol: p.symbol,
    type: p.type,
    volume: p.volume,
    price: action === 'opened' ? p.open_price : p.current_price,
    profit: p.profit + p.swap,
  });
  return [
    ...after.filter((p) => !was.has(p.ticket)).map((p) => change('opened', p)),
    ...before.filter((p) => !is.has(p.ticket)).map((p) => change('closed', p)),
  ];
}

// ---- market hours -----------------------------------------------------------------------------

const DAY_MINUTES = 24 * 60;
const WEEK_MINUTES = 7 * DAY_MINUTES;
const WEEK = WEEK_MINUTES * MINUTE_MS;
/** Sunday 4 January 1970 00:00 UTC: the first week's start. */
const WEEK_STARTS = 3 * DAY_MINUTES * MINUTE_MS;

/**
 * The hours a broker trades: [start, end) minutes of the week from Sunday 00:00 UTC, sorted and
 * not overlapping.
 */
export type TradeSessions = readonly (readonly [number, number])[];

/** The Forex week, when the broker's sessions are not known: Sunday 22:00 to Friday 22:00 UTC. */
export const FOREX_WEEK: TradeSessions = [[22 * 60, 5 * DAY_MINUTES + 22 * 60]];

/**
 * The publisher's sessions (the trade server's days and minutes) as UTC minutes of the week:
 * shifted by the server's offset from UTC (seconds, server minus UTC), wrapped around the week,
 * merged. Null when none were told: the Forex week is assumed.
 */
export function tradeSessionsOf(
  sessions: readonly { day: number; from: number; to: number }[] | undefined,
  serverOffsetSec: number,
): [number, number][] | null {
  if (!sessions || sessions.length === 0) return null;
  const shift = Math.round(serverOffsetSec / 60);
  const pieces: [number, number][] = [];
  for (const { day, from, to } of sessions) {
    const start =
      (((day * DAY_MINUTES + from - shift) % WEEK_MINUTES) + WEEK_MINUTES) % WEEK_MINUTES;
    const end = start + (to - from);
    if (end <= WEEK_MINUTES) pieces.push([start, end]);
    else pieces.push([start, WEEK_MINUTES], [0, end - WEEK_MINUTES]);
  }
  pieces.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of pieces) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** Open minutes of a week before `minute` (0 to a week). */
function openBefore(sessions: TradeSessions, minute: number): number {
  let open = 0;
  for (const [start, end] of sessions) {
    if (start >= minute) break;
    open += Math.min(end, minute) - start;
  }
  return open;
}

/** Market time (ms) from the first week's start to `time`. */
function marketTimeUntil(time: number, sessions: TradeSessions): number {
  const since = time - WEEK_STARTS;
  const weeks = Math.floor(since / WEEK);
  const inWeek = since - weeks * WEEK;
  const minute = Math.floor(inWeek / MINUTE_MS);
  const perWeek = openBefore(sessions, WEEK_MINUTES);
  const openInMinute = sessions.some(([a, b]) => a <= minute && minute < b)
    ? inWeek - minute * MINUTE_MS
    : 0;
  return (weeks * perWeek + openBefore(sessions, minute)) * MINUTE_MS + openInMinute;
}

/**
 * Whole market minutes between two instants: the minutes inside the broker's trade sessions
 * (the publisher tells them in its hello), else inside the Forex week, from Sunday 22:00 to
 * Friday 22:00 UTC (Sydney's open to New York's close). A terminal silent over a weekend or a
 * broker's daily break is not "without data". Brokers' holidays are not known.
 */
export function marketMinutesBetween(
  from: Date,
  to: Date,
  sessions: TradeSessions = FOREX_WEEK,
): number {
  if (to.getTime() <= from.getTime()) return 0;
  return Math.floor(
    (marketTimeUntil(to.getTime(), sessions) - marketTimeUntil(from.getTime(), sessions)) /
      MINUTE_MS,
  );
}

/** Whether the market is open at `at`. */
export const marketOpen = (at: Date, sessions: TradeSessions = FOREX_WEEK) =>
  marketTimeUntil(at.getTime() + 1, sessions) - marketTimeUntil(at.getTime(), sessions) > 0;

/**
 * No data for N market minutes: fires once the publisher has been silent that long (counting
 * market hours only); armed again by the next data (the engine, on ingest).
 */
export function evaluateNoData(
  rule: RuleState,
  lastDataAt: Date | null,
  now: Date,
  sessions: TradeSessions | null = null,
): { fired: { value: number } | null } {
  if (rule.firedAt !== null || rule.threshold === null || lastDataAt === null)
    return { fired: null };
  const minutes = marketMinutesBetween(lastDataAt, now, sessions ?? FOREX_WEEK);
  return { fired: minutes >= rule.threshold ? { value: minutes } : null };
}
