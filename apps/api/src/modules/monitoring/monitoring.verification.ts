import {
  MINUTE_MS,
  VERIFICATION_GAP_MINUTES,
  type VerificationReason,
  type VerificationResponse,
} from '@tradehost/contracts';
import {
  FOREX_WEEK,
  marketMinutesBetween,
  type TradeSessions,
} from './monitoring.alerts.evaluate.ts';

/**
 * "Verified by the host", as pure functions: the run's state advanced over the account's equity
 * points, and what the page says of it now. The snapshots' statement marks each minute's point
 * `hosted` (monitoring.ingest.ts); the statistics job follows the points with
 * advanceVerification and stores the state (`monitoring_verification`); each read of the
 * statistics turns it into the answer with verificationOf.
 *
 * The rule a sceptic can check. A point is hosted when every snapshot of it came, as it was taken,
 * from the address of one of our VPS servers (active or blocked): true; a snapshot from any other
 * address makes it false; a snapshot from our address that arrived more than HOSTED_REACH_MS
 * from its own time (one sent late, or backdated to fill a past minute) proves nothing, and makes
 * it null, as are the points from before this was kept. A run is a stretch of hosted points:
 * - a point from elsewhere (false) breaks it ('elsewhere');
 * - a silence between two hosted points longer than VERIFICATION_GAP_MINUTES of market time (the
 *   broker's sessions, else the Forex week: a weekend or a daily break is not a silence) breaks it
 *   ('gap'), and the later point starts the next run; measured between the points' minutes, the
 *   precision the points keep;
 * - a null point is no evidence either way: it neither breaks a run nor keeps one going (a
 *   silence is measured from the last hosted point), so no run is older than its first
 *   known-hosted point.
 * The account is verified when its current run began with its first equity point (the
 * statistics' `equity_since`: the publisher's whole time there was on our servers), goes on
 * (its latest hosted point is within the window plus VERIFICATION_SETTLE_MS of now, in market
 * time: the job follows a minute only once it is settled) and its deals reconcile with its
 * balance (not `history_incomplete`). The deals before the first equity point (the history the
 * publisher sent from the terminal) cannot have been watched: `covered` is the share of the whole
 * displayed period, from the first deal or equity point to now in market time, that the run
 * covers. The mark proves where the publisher ran; not that the terminal's figures are a real
 * broker's, nor that the trading password is its owner's.
 */

/** A snapshot that reaches the server further than this from its own time proves no hosting. */
export const HOSTED_REACH_MS = 2 * MINUTE_MS;
/**
 * The job follows a minute's point only this long after the minute began: by then no snapshot of
 * it can still arrive in time (the minute, HOSTED_REACH_MS, and a minute to spare for the
 * snapshots' statement to commit), so the job has read every timely snapshot of it. One that comes
 * later is late: from our address it proves nothing (the point turns unknown, after the fact:
 * nothing the run relies on), from elsewhere it breaks the run, which the snapshots' statement
 * does itself.
 */
export const VERIFICATION_SETTLE_MS = HOSTED_REACH_MS + 2 * MINUTE_MS;

export type BreakReason = 'gap' | 'elsewhere';

/** `monitoring_verification` as times in ms. */
export interface VerificationState {
  /** The current run's first hosted point; null: none (never hosted, or broken from elsewhere). */
  runStartedAt: number | null;
  lastHostedAt: number | null;
  /** The latest point followed (null: none yet). */
  checkedUntil: number | null;
  brokenReason: BreakReason | null;
  brokenFrom: number | null;
  brokenTo: number | null;
}

/** An equity point as the verification reads it: its minute, and whether it was hosted. */
export interface HostedPoint {
  at: number;
  hosted: boolean | null;
}

export const NOT_FOLLOWED: VerificationState = {
  runStartedAt: null,
  lastHostedAt: null,
  checkedUntil: null,
  brokenReason: null,
  brokenFrom: null,
  brokenTo: null,
};

/**
 * The state after the points (in time order; those not after `checkedUntil` were followed
 * already and are passed over).
 */
export function advanceVerification(
  state: VerificationState,
  points: readonly HostedPoint[],
  sessions: TradeSessions = FOREX_WEEK,
): VerificationState {
  const s = { ...state };
  for (const { at, hosted } of points) {
    if (s.checkedUntil !== null && at <= s.checkedUntil) continue;
    s.checkedUntil = at;
    if (hosted === null) continue;
    if (!hosted) {
      if (s.runStartedAt !== null) {
        s.runStartedAt = null;
        s.brokenReason = 'elsewhere';
        s.brokenFrom = at;
        s.brokenTo = at;
      } else if (s.brokenReason === 'elsewhere') s.brokenTo = at;
      continue;
    }
    if (s.runStartedAt === null) s.runStartedAt = at;
    else if (
      s.lastHostedAt !== null &&
      marketMinutesBetween(new Date(s.lastHostedAt), new Date(at), sessions) >
        VERIFICATION_GAP_MINUTES
    ) {
      s.brokenReason = 'gap';
      s.brokenFrom = s.lastHostedAt;
      s.brokenTo = at;
      s.runStartedAt = at;
    }
    s.lastHostedAt = at;
  }
  return s;
}

/** What the statistics know of the account, for the verification. */
export interface VerificationFacts {
  now: number;
  /** The first deal's or equity point's time, whichever is earlier (null: neither). */
  periodFrom: number | null;
  /** The first equity point's time (the statistics' `equity_since`). */
  equitySince: number | null;
  historyIncomplete: boolean;
  sessions?: TradeSessions;
}

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

/** The answer of the statistics' `verification` from the stored state (see the rule above). */
export function verificationOf(
  state: VerificationState,
  facts: VerificationFacts,
): VerificationResponse {
  const sessions = facts.sessions ?? FOREX_WEEK;
  const { now, periodFrom, equitySince } = facts;
  const since = state.runStartedAt;
  const market = (from: number, to: number) =>
    marketMinutesBetween(new Date(from), new Date(to), sessions);
  const running =
    since !== null &&
    state.lastHostedAt !== null &&
    market(state.lastHostedAt, now) <=
      VERIFICATION_GAP_MINUTES + VERIFICATION_SETTLE_MS / MINUTE_MS;
  const broken = state.brokenReason;

  let reason: VerificationReason | null = null;
  if (since === null || equitySince === null || since > equitySince)
    reason = broken ?? 'not_hosted';
  else if (!running) reason = 'silent_now';
  else if (facts.historyIncomplete) reason = 'history_incomplete';

  let covered = 0;
  if (since !== null && periodFrom !== null) {
    const start = Math.max(since, periodFrom);
    const end = running ? now : state.lastHostedAt!;
    const whole = market(periodFrom, now);
    // a period all outside market hours: covered whole when the run began with it
    covered = whole > 0 ? market(start, end) / whole : since <= periodFrom ? 1 : 0;
    covered = Math.min(1, Math.max(0, covered));
  }

  const showsBreak = reason === 'gap' || reason === 'elsewhere';
  return {
    verified: reason === null,
    reason,
    since: iso(since),
    last_hosted_at: iso(state.lastHostedAt),
    period_from: iso(periodFrom),
    covered,
    checked_at: iso(state.checkedUntil),
    broken_from: showsBreak ? iso(state.brokenFrom) : null,
    broken_to: showsBreak ? iso(state.brokenTo) : null,
  };
}
