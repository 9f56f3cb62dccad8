import {
  PING_ALERT_MINUTES,
  type AlertDeliveryStatus,
  type AlertServer,
  type AlertKind,
  type IngestPosition,
  type IngestSnapshot,
} from '@tradehost/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import {
  evaluateDailyLoss,
  evaluateDrawdown,
  evaluateEquityBelow,
  evaluateMarginLevel,
  evaluateNoData,
  evaluatePingAbove,
  flowApplied,
  needsDayBase,
  positionChanges,
  type Decision,
  type PingPoint,
  type RuleState,
  type SnapshotFigures,
} from './monitoring.alerts.evaluate.ts';
import { startOfDay } from './monitoring.alerts.periods.ts';
import {
  alertsRepository as repo,
  type NewEvent,
  type RuleChange,
  type WrittenEvent,
} from './monitoring.alerts.repository.ts';

/**
 * Where the rules meet the data. On ingest, right after a batch of snapshots is stored (the
 * statement that stores them also reads the enabled rules of their accounts, so an account
 * without rules costs nothing more): the pure evaluations of monitoring.alerts.evaluate.ts, then
 * one statement that writes the rules' new state and the events of those that fired. Deposits
 * and withdrawals move the drawdown's peak and the day's base (the publisher sends a deal before
 * the snapshot that shows it). The ping rule reads its account's ping points of the last minutes
 * (one statement for the batch, only for snapshots that tell a ping to an account watching it).
 * The no-data rule is checked by a tick a minute.
 */

/** An enabled rule as the store statement returns it (json: timestamps as text). */
export interface RawRule {
  kind: AlertKind;
  threshold: number | null;
  fired_at: string | null;
  base: number | null;
  base_at: string | null;
  /** The rule's version: written back as read. */
  updated_at: string;
}

/** A stored snapshot with what its account's rules need. */
export interface StoredSnapshot {
  accountId: number;
  snapshot: IngestSnapshot;
  rules: RawRule[];
  /** The positions of the account's previous snapshot (asked for when positions are watched). */
  oldPositions: IngestPosition[] | null;
  /** Whether the account had published before this snapshot. */
  hadData: boolean;
  timeZone: string;
  alertEmail: boolean;
  alertTelegram: boolean;
}

export interface AlertEngineDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Whether Telegram can deliver at all (a bot token is configured). */
  telegramEnabled: boolean;
  /** Queues the delivery of the events written (each pending channel its own job). */
  dispatch(events: WrittenEvent[]): Promise<void>;
  /**
   * The terminal guardian of the VPS module: `claim` answers which silent-terminal alerts name a
   * server it acts on (it tells the owner about those itself, once, with what it found and did);
   * `silent` hands it the alerts naming servers. A failure to claim leaves the alerts to their
   * own delivery.
   */
  guardian?: {
    claim(eventIds: number[]): Promise<number[]>;
    silent(eventIds: number[]): Promise<void>;
  };
}

/** A snapshot's ping points of the last minutes, oldest first, with the trade server pinged. */
type PingWindow = (PingPoint & { server: string | null })[];

const dateOrNull = (text: string | null) => (text === null ? null : new Date(text));
const iso = (date: Date | null) => date?.toISOString() ?? null;

const stateOf = (raw: RawRule): RuleState => ({
  kind: raw.kind,
  threshold: raw.threshold,
  firedAt: dateOrNull(raw.fired_at),
  base: raw.base,
  baseAt: dateOrNull(raw.base_at),
});

const figuresOf = (s: IngestSnapshot): SnapshotFigures => ({
  equity: s.equity,
  credit: s.credit,
  margin: s.margin,
  equityHigh: s.equity_high,
});

export function createAlertEngine(deps: AlertEngineDeps) {
  const { db, log } = deps;

  const statuses = (item: { alertEmail: boolean; alertTelegram: boolean }) => ({
    email_status: (item.alertEmail ? 'pending' : 'skipped') as AlertDeliveryStatus,
    telegram_status: (item.alertTelegram && deps.telegramEnabled
      ? 'pending'
      : 'skipped') as AlertDeliveryStatus,
  });

  /** The change to write when the decision differs from the state read (null: nothing). */
  function changeOf(
    accountId: number,
    raw: RawRule,
    state: RuleState,
    decision: Pick<Decision, 'firedAt' | 'base' | 'baseAt' | 'fired'>,
  ): RuleChange | null {
    const same =
      iso(decision.firedAt) === iso(state.firedAt) &&
      decision.base === state.base &&
      iso(decision.baseAt) === iso(state.baseAt);
    if (same) return null;
    return {
      account_id: accountId,
      kind: raw.kind,
      version: raw.updated_at,
      was_fired: state.firedAt !== null,
      fired_at: iso(decision.firedAt),
      base: decision.base,
      base_at: iso(decision.baseAt),
      fire: decision.fired !== null,
    };
  }

  /** The opening equity of today (in each account's zone) for the daily-loss rules that need it. */
  async function dayBasesFor(items: StoredSnapshot[], at: Date) {
    const days = items.flatMap((item) =>
      item.rules
        .filter((raw) => raw.kind === 'daily_loss')
        .map((raw) => ({ item, start: startOfDay(at, item.timeZone), state: stateOf(raw) }))
        .filter(({ state, start }) => needsDayBase(state, start))
        .map(({ item, start }) => ({ account_id: item.accountId, day_start: start.toISOString() })),
    );
    return repo.dayBases(db, days);
  }

  /**
   * The ping points of the minutes before each snapshot (by its index in the batch) that tells a
   * ping and whose account has a ping rule: one without a ping (the terminal not connected, an
   * older publisher) leaves the rule as it is.
   */
  async function pingWindowsFor(items: StoredSnapshot[]) {
    const windows = items.flatMap((item, i) =>
      item.snapshot.ping_ms != null &&
      item.snapshot.terminal_connected &&
      item.rules.some((raw) => raw.kind === 'ping_above')
        ? [{ i, account_id: item.accountId, until: item.snapshot.time }]
        : [],
    );
    return repo.pingWindows(db, windows);
  }

  function evaluate(
    item: StoredSnapshot,
    at: Date,
    dayBases: Map<number, number>,
    pings: PingWindow | undefined,
  ): { changes: RuleChange[]; events: NewEvent[] } {
    const changes: RuleChange[] = [];
    const events: NewEvent[] = [];
    const figures = figuresOf(item.snapshot);
    const event = (kind: AlertKind, value: number | null, threshold: number | null) => ({
      account_id: item.accountId,
      kind,
      at: at.toISOString(),
      value,
      threshold,
      ...statuses(item),
    });
    for (const raw of item.rules) {
      const state = stateOf(raw);
      let decision: Decision;
      let details: NewEvent['details'] = {};
      switch (raw.kind) {
        case 'drawdown':
          decision = evaluateDrawdown(state, figures, at);
          break;
        case 'equity_below':
          decision = evaluateEquityBelow(state, figures, at);
          break;
        case 'margin_level':
          decision = evaluateMarginLevel(state, figures, at);
          break;
        case 'daily_loss': {
          const start = startOfDay(at, item.timeZone);
          const base = dayBases.get(item.accountId) ?? figures.equity - figures.credit;
          decision = evaluateDailyLoss(state, figures, at, { start, base });
          break;
        }
        case 'no_data':
          // data came: a silent terminal that fired is armed again
          decision = { firedAt: null, base: null, baseAt: null, fired: null };
          break;
        case 'positions':
          if (item.hadData && item.oldPositions)
            for (const position of positionChanges(item.oldPositions, item.snapshot.positions))
              events.push({
                ...event('positions', null, null),
                details: { position },
                ruled: false,
              });
          continue;
        case 'ping_above':
          if (!pings) continue;
          decision = evaluatePingAbove(state, pings, new Date(item.snapshot.time), at);
          details = { server: pings.at(-1)?.server ?? null, minutes: PING_ALERT_MINUTES };
          break;
      }
      const change = changeOf(item.accountId, raw, state, decision);
      if (change) changes.push(change);
      if (decision.fired)
        events.push({
          ...event(raw.kind, decision.fired.value, state.threshold),
          details,
          ruled: true,
        });
    }
    return { changes, events };
  }

  return {
    /**
     * The rules of a stored batch's accounts, evaluated and written; the events' deliveries
     * queued. A failure here is logged, never the ingest's: the snapshots are stored.
     */
    async onSnapshots(items: StoredSnapshot[]): Promise<void> {
      if (items.length === 0) return;
      try {
        const at = deps.now();
        const dayBases = await dayBasesFor(items, at);
        const pings = await pingWindowsFor(items);
        const changes: RuleChange[] = [];
        const events: NewEvent[] = [];
        for (const [i, item] of items.entries()) {
          const result = evaluate(item, at, dayBases, pings.get(i));
          changes.push(...result.changes);
          events.push(...result.events);
        }
        const written = await repo.writeChanges(db, changes, events);
        if (written.length > 0) await deps.dispatch(written);
      } catch (error) {
        log.error({ err: error }, 'alert rules could not be evaluated');
      }
    },

    /**
     * New deposits and withdrawals (balance deals, in time order): each moves the drawdown's
     * peak and the day's base, from the value before it (its equity_before, else the value the
     * last snapshot showed, moved by the flows before it).
     */
    async onFlows(
      accountId: number,
      flows: { amount: number; equityBefore: number | null; time: Date }[],
    ): Promise<void> {
      if (flows.length === 0) return;
      try {
        const rows = await repo.flowState(db, accountId);
        const moves = rows.flatMap((row) => {
          const credit = row.credit ?? 0;
          let value = (row.equity ?? 0) - credit;
          let state: RuleState = {
            kind: row.kind,
            threshold: null,
            firedAt: null,
            base: row.base,
            baseAt: row.base_at === null ? null : new Date(row.base_at),
          };
          let moved = false;
          for (const flow of flows) {
            const before = flow.equityBefore === null ? value : flow.equityBefore - credit;
            const next = flowApplied(state, { amount: flow.amount, before, at: flow.time });
            if (next) {
              state = { ...state, ...next };
              moved = true;
            }
            value = before + flow.amount;
          }
          return moved
            ? [
                {
                  kind: row.kind,
                  version: row.version,
                  base: state.base,
                  base_at: iso(state.baseAt),
                },
              ]
            : [];
        });
        await repo.moveBases(db, moves, accountId, deps.now());
      } catch (error) {
        log.error(
          { err: error, accountId },
          'alert bases could not follow a deposit or withdrawal',
        );
      }
    },

    /**
     * The no-data rules: each armed one whose publisher has been silent its minutes of market
     * time (the broker's trade sessions, else the Forex week) fires, naming the owner's servers
     * at the publisher's address and their state.
     */
    async checkSilent(): Promise<number> {
      const at = deps.now();
      const changes: RuleChange[] = [];
      const events: NewEvent[] = [];
      for (const c of await repo.silentCandidates(db, at)) {
        const rule: RuleState = {
          kind: 'no_data',
          threshold: c.threshold,
          firedAt: null,
          base: null,
          baseAt: null,
        };
        const { fired } = evaluateNoData(rule, c.lastDataAt, at, c.tradeSessions);
        if (!fired) continue;
        const servers = c.publisherIp ? await repo.serversAt(db, c.userId, c.publisherIp) : [];
        changes.push({
          account_id: c.accountId,
          kind: 'no_data',
          version: c.version,
          was_fired: false,
          fired_at: at.toISOString(),
          base: null,
          base_at: null,
          fire: true,
        });
        events.push({
          account_id: c.accountId,
          kind: 'no_data',
          at: at.toISOString(),
          value: fired.value,
          threshold: c.threshold,
          details: {
            last_data_at: c.lastDataAt.toISOString(),
            minutes: fired.value,
            publisher_ip: c.publisherIp,
            servers,
          },
          ...statuses(c),
          ruled: true,
        });
      }
      const written = await repo.writeChanges(db, changes, events);
      const named = events.some((e) => (e.details.servers as AlertServer[]).length > 0);
      let claimed: number[] = [];
      if (written.length > 0 && named && deps.guardian) {
        try {
          claimed = await deps.guardian.claim(written.map((e) => e.id));
          await repo.handOver(db, claimed);
        } catch (error) {
          log.error({ err: error }, 'the terminal guardian could not claim silent terminals');
          claimed = [];
        }
      }
      const own = written.filter((e) => !claimed.includes(e.id));
      if (own.length > 0) await deps.dispatch(own);
      // all of them: the guardian records what it finds on a server it only reports on too
      if (named && deps.guardian) await deps.guardian.silent(written.map((e) => e.id));
      return written.length;
    },
  };
}

export type AlertEngine = ReturnType<typeof createAlertEngine>;
