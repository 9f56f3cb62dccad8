import * as z from 'zod/mini';
import { PLATFORMS } from './monitoring.ts';
import { DEAL_ENTRIES, DEAL_TYPES, type StatDeal } from './monitoring-statistics.ts';

/**
 * The ingestion protocol (POST /api/ingest/v1/*, Bearer <activation key>) the publisher in the
 * trader's terminal speaks. It is a contract with programs on traders' machines: its names do
 * not change (a new field is optional; a change is a /v2).
 *
 * A module of its own: the console never speaks it, and a bundle that does not import it does
 * not build its schemas (the package has no side effects, so the module is left out whole).
 */

export const INGEST_DEALS_MAX = 500;
export const INGEST_POSITIONS_MAX = 1000;
/** The longest ping a terminal can tell: an int of microseconds (2^31 - 1), in milliseconds. */
export const INGEST_PING_MS_MAX = 2_147_484;

/** ISO-8601 UTC with milliseconds, as the publisher writes times: 2026-01-05T09:30:00.000Z. */
const isoTime = z.iso.datetime({ precision: 3, error: 'VALIDATION' });
const money = z.number({ error: 'VALIDATION' });
const login = z
  .int({ error: 'VALIDATION' })
  .check(z.minimum(1), z.maximum(Number.MAX_SAFE_INTEGER));
const ticket = z
  .int({ error: 'VALIDATION' })
  .check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER));
/** A signed 64-bit integer written as digits (PostgreSQL's bigint range). */
const DIGITS = /^-?\d{1,19}$/;
const magicString = z.string({ error: 'VALIDATION' }).check(
  // one check: zod runs every check, and BigInt throws on what is not digits
  z.refine((s) => DIGITS.test(s) && BigInt(s) >= -(2n ** 63n) && BigInt(s) < 2n ** 63n, {
    error: 'VALIDATION',
  }),
);
const text = (max: number) => z.string({ error: 'VALIDATION' }).check(z.maxLength(max));

/** More sessions than a broker has (the publishers send none rather than more). */
export const INGEST_SESSIONS_MAX = 700;

/** One trade session of the broker's week, in the trade server's time (see the hello's `sessions`). */
export const ingestSessionSchema = z
  .object({
    day: z.int({ error: 'VALIDATION' }).check(z.minimum(0), z.maximum(6)),
    from: z.int({ error: 'VALIDATION' }).check(z.minimum(0), z.maximum(1439)),
    to: z.int({ error: 'VALIDATION' }).check(z.minimum(1), z.maximum(1440)),
  })
  .check(z.refine((s) => s.from < s.to, { error: 'VALIDATION' }));
export type IngestSession = z.infer<typeof ingestSessionSchema>;

/** POST /api/ingest/v1/hello: the terminal says who it is, once per start. */
export const ingestHelloSchema = z.object({
  platform: z.enum(PLATFORMS, { error: 'VALIDATION' }),
  login,
  server: text(128),
  company: text(128),
  currency: text(16),
  leverage: z.int({ error: 'VALIDATION' }).check(z.minimum(0), z.maximum(100_000)),
  trade_mode: z.enum(['demo', 'real', 'contest'], { error: 'VALIDATION' }),
  margin_mode: z.enum(['hedging', 'netting'], { error: 'VALIDATION' }),
  server_time_offset_sec: z
    .int({ error: 'VALIDATION' })
    .check(z.minimum(-86_400), z.maximum(86_400)),
  ea_version: text(32),
  /**
   * When the broker trades: the union of the trade sessions of the symbols in Market Watch
   * (SymbolInfoSessionTrade), in the trade server's time: `day` 0 (Sunday) to 6, `from` and `to`
   * minutes of that day [from, to). Optional: older publishers do not send it.
   */
  sessions: z.optional(
    z.array(ingestSessionSchema).check(z.maxLength(INGEST_SESSIONS_MAX, { error: 'VALIDATION' })),
  ),
});
export type IngestHello = z.infer<typeof ingestHelloSchema>;

export const ingestHelloResponseSchema = z.object({
  account_id: z.int(),
  monitoring_id: z.string(),
  /** The highest deal ticket stored: the publisher sends the ones after it. */
  last_ticket: z.nullable(z.int()),
  snapshot_every_sec: z.int(),
  /** True when the server wants the whole history again (nothing stored yet, or a reset). */
  full_resync: z.boolean(),
});
export type IngestHelloResponse = z.infer<typeof ingestHelloResponseSchema>;

/**
 * A position's excursions (publisher 1.4 on): its worst and best floating result while the
 * publisher watched it, in money (its profit, without swap and commission, as MetaTrader's own
 * MAE/MFE: `mae` at most 0, `mfe` at least 0) and in price points of its symbol (for a buy
 * (bid - open) / point, for a sell (open - ask) / point: `mae_points` at most 0, `mfe_points` at
 * least 0). All four come together, or none (null or absent: an older publisher, a position it
 * never saw open).
 */
const adverse = z.number({ error: 'VALIDATION' }).check(z.maximum(0, { error: 'VALIDATION' }));
const favourable = z.number({ error: 'VALIDATION' }).check(z.minimum(0, { error: 'VALIDATION' }));
const excursionFields = {
  mae: z.optional(z.nullable(adverse)),
  mfe: z.optional(z.nullable(favourable)),
  mae_points: z.optional(z.nullable(adverse)),
  mfe_points: z.optional(z.nullable(favourable)),
};
type Excursions = { [K in keyof typeof excursionFields]?: number | null | undefined };
/** All four excursions or none of them. */
const allOrNone = z.refine<Excursions>(
  (e) => {
    const told = [e.mae, e.mfe, e.mae_points, e.mfe_points].filter((v) => v != null).length;
    return told === 0 || told === 4;
  },
  { error: 'VALIDATION' },
);

export const ingestDealSchema = z
  .object({
    ticket,
    order: ticket,
    position_id: ticket,
    time: isoTime,
    type: z.enum(DEAL_TYPES, { error: 'VALIDATION' }),
    entry: z.enum(DEAL_ENTRIES, { error: 'VALIDATION' }),
    symbol: text(32),
    digits: z.int({ error: 'VALIDATION' }).check(z.minimum(0), z.maximum(10)),
    volume: money,
    price: money,
    profit: money,
    swap: money,
    commission: money,
    fee: money,
    /**
     * The Expert Advisor's number: a signed 64-bit integer in MT5, which a JSON number holds
     * exactly only up to 2^53, so it may come as a string of digits.
     */
    magic: z.union([z.int({ error: 'VALIDATION' }), magicString], { error: 'VALIDATION' }),
    comment: text(64),
    /** On balance deals: the equity just before it (credit included). */
    equity_before: z.optional(z.nullable(money)),
    /**
     * On a closing deal (out, out_by, inout), its position's excursions over its life as the
     * publisher watched it (the deal's own price and profit, its last moment, included); kept only
     * on closing deals. From 1.4.0.
     */
    ...excursionFields,
  })
  .check(allOrNone);
export type IngestDeal = z.infer<typeof ingestDealSchema>;

/** A deal as the publisher sends it, as the statistics take it. */
export const statDealOf = (d: IngestDeal): StatDeal => ({
  ticket: String(d.ticket),
  positionId: String(d.position_id),
  time: Date.parse(d.time),
  type: d.type,
  entry: d.entry,
  symbol: d.symbol,
  digits: d.digits,
  volume: d.volume,
  price: d.price,
  profit: d.profit,
  swap: d.swap,
  commission: d.commission,
  fee: d.fee,
  equityBefore: d.equity_before ?? null,
  // as the database gives it back: the integer's own digits
  magic: BigInt(d.magic).toString(),
});

/** POST /api/ingest/v1/deals: at most INGEST_DEALS_MAX a call, upserted on (account, ticket). */
export const ingestDealsSchema = z.object({
  login,
  deals: z.array(ingestDealSchema).check(z.maxLength(INGEST_DEALS_MAX, { error: 'VALIDATION' })),
});
export type IngestDeals = z.infer<typeof ingestDealsSchema>;

export const ingestDealsResponseSchema = z.object({
  accepted: z.int(),
  duplicate: z.int(),
});

export const ingestPositionSchema = z
  .object({
    ticket,
    symbol: text(32),
    type: z.enum(['buy', 'sell'], { error: 'VALIDATION' }),
    volume: money,
    open_time: isoTime,
    open_price: money,
    current_price: money,
    sl: money,
    tp: money,
    profit: money,
    swap: money,
    /** The position's excursions so far (see excursionFields). From 1.4.0. */
    ...excursionFields,
  })
  .check(allOrNone);

export type IngestPosition = z.infer<typeof ingestPositionSchema>;

/** POST /api/ingest/v1/snapshot: the account now, sent on the publisher's timer. */
export const ingestSnapshotSchema = z.object({
  login,
  time: isoTime,
  balance: money,
  equity: money,
  margin: money,
  free_margin: money,
  credit: money,
  equity_low: money,
  equity_high: money,
  terminal_connected: z.boolean({ error: 'VALIDATION' }),
  positions: z
    .array(ingestPositionSchema)
    .check(z.maxLength(INGEST_POSITIONS_MAX, { error: 'VALIDATION' })),
  /**
   * How many positions are open when more than INGEST_POSITIONS_MAX are (the publisher sends
   * the first INGEST_POSITIONS_MAX and says how many there are). Optional: older publishers.
   */
  positions_total: z.optional(z.int({ error: 'VALIDATION' }).check(z.minimum(0))),
  /**
   * The terminal's last ping to its trade server (TERMINAL_PING_LAST, which MetaTrader gives in
   * microseconds) rounded to a whole millisecond: 0 is a ping under half a millisecond. Null or
   * absent while the terminal has none to tell (not connected, not measured yet). From 1.3.0.
   */
  ping_ms: z.optional(
    z.nullable(z.int({ error: 'VALIDATION' }).check(z.minimum(0), z.maximum(INGEST_PING_MS_MAX))),
  ),
  /**
   * Whether algorithmic trading is allowed: in the terminal (its Algo Trading button,
   * TERMINAL_TRADE_ALLOWED) and for the publisher's own program (its "Allow Algo Trading",
   * MQL_TRADE_ALLOWED), which tells how the trader set up the Expert Advisors of that terminal.
   * Absent from publishers before 1.3.0.
   */
  trade_allowed: z.optional(z.boolean({ error: 'VALIDATION' })),
  ea_trade_allowed: z.optional(z.boolean({ error: 'VALIDATION' })),
});
export type IngestSnapshot = z.infer<typeof ingestSnapshotSchema>;

/**
 * The protocol's field names by message, for the test that holds the publishers' sources (MQL4
 * and MQL5) to the same names.
 */
export const INGEST_FIELDS = {
  hello: Object.keys(ingestHelloSchema.shape),
  session: Object.keys(ingestSessionSchema.shape),
  deals: Object.keys(ingestDealsSchema.shape),
  deal: Object.keys(ingestDealSchema.shape),
  snapshot: Object.keys(ingestSnapshotSchema.shape),
  position: Object.keys(ingestPositionSchema.shape),
} as const;
