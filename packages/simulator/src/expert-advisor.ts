import {
  INGEST_DEALS_MAX,
  INGEST_POSITIONS_MAX,
  type IngestDeal,
  type IngestHello,
  type IngestHelloResponse,
  type IngestPosition,
  type IngestSnapshot,
} from '@tradehost/contracts';
import type { VirtualClock } from './clock.ts';
import {
  pointOf,
  type TerminalDeal,
  type TerminalModel,
  type TerminalOrder,
} from './terminal-model.ts';

/**
 * The publisher Expert Advisor, version 1.4, as a model of its timer's logic (OnTimer every
 * second; nothing waits, a pause is a moment before which it does nothing): the same rules as
 * apps/web/public/publisher/*.mq5|.mq4, so that a scenario run here shows what a trader's
 * terminal does.
 *
 * - It waits for a connected terminal with a login > 0 before its hello (then publishes on
 *   through a disconnection, saying so); it trims the key and the URL (a trailing '/'); the
 *   hello goes again once a day.
 * - MT4 takes the server's UTC offset only from quotes seen to keep step with the computer's
 *   clock (TimeCurrent() stands still at the last quote, over a weekend for two days), keeps it
 *   per server in a global variable, and never says hello with an offset it has not worked out;
 *   deal and position times use the kept offset; a change (daylight saving) brings a new hello.
 * - Refusals are retried slowly and their reason stays on the chart (`status`): 401, 402, 404,
 *   409 and a refused hello every 3 minutes, the URL not allowed in WebRequest's list every
 *   30 s. Only a malformed deals batch (400/422) is set aside, the rest goes on; a 413 halves
 *   the batch; a malformed snapshot (400/422) is dropped, a 413 one sent again with half the
 *   positions and their count. Server errors back off 1, 2, 5, 15, 60 s; a 429 waits its
 *   Retry-After.
 * - `equity_before` goes only with a balance deal it saw live (within 10 s, the equity taken
 *   when it noticed it, less the amount); at every balance or credit deal the equity low and
 *   high start again at the equity after it, and a snapshot goes at once after the deals.
 * - MT4 sees only the period the Account History tab shows: when it has no deposit or starts
 *   with a trade, the chart says so and each change of it is sent whole; when older orders
 *   appear (the tab widened: the history count jumps behind its cursor), it sends everything
 *   again.
 * - A snapshot carries at most 1,000 positions, and `positions_total` when more are open.
 * - A snapshot tells (1.3) the terminal's last ping to the trade server in whole milliseconds
 *   (TERMINAL_PING_LAST's µs rounded half up; null while disconnected or before one is
 *   measured), and whether algorithmic trading is allowed in the terminal and for the EA.
 * - It watches (1.4) each open position's excursions at every pass while the terminal is
 *   connected: the worst and best floating profit (without swap and commission, as MetaTrader's
 *   own MAE/MFE) and price move in points, per position id and direction (a netting reversal
 *   starts another), from 0 at first sight. A snapshot's positions carry them so far, a closing
 *   deal (out, out_by, inout) its position's with the deal's own price and profit folded in.
 *   They are kept in the terminal's global variables every EXCURSIONS_SAVE_MS and when the EA
 *   stops, so a restarted EA goes on from them (the moves while it was not running are missed;
 *   a terminal that lost its global variables knows only those since its start); a position
 *   closed for EXCURSIONS_GONE_MS, its deals all sent, is forgotten. A 1.3 sends none.
 */

export const EA_VERSION = '1.4.0';
/** The version before the excursions: a scenario attaches it as the trader still runs it. */
export const EA_VERSION_BEFORE_EXCURSIONS = '1.3.0';
export type EaVersion = typeof EA_VERSION | typeof EA_VERSION_BEFORE_EXCURSIONS;
/** The excursions go to the terminal's global variables this often (and when the EA stops). */
export const EXCURSIONS_SAVE_MS = 30_000;
/** A closed position's excursions are forgotten this long after, once its deals are sent. */
export const EXCURSIONS_GONE_MS = 60_000;
/** 401, 402, 404, 409, a refused hello: tried again after this. */
export const REFUSAL_RETRY_MS = 180_000;
/** The URL not in WebRequest's list: tried again after this. */
export const PERMISSION_RETRY_MS = 30_000;
export const SERVER_ERROR_BACKOFF_MS = [1000, 2000, 5000, 15_000, 60_000] as const;
/** A balance deal noticed this soon after its time was seen live: its equity_before is known. */
export const LIVE_FLOW_MS = 10_000;
/**
 * MT4 takes its server's offset only from a live clock: two quotes at least QUOTE_SPAN_MS apart
 * on the computer's clock and as far apart, within QUOTE_SLACK_MS, on the server's.
 */
export const QUOTE_SPAN_MS = 20_000;
export const QUOTE_SLACK_MS = 3000;
/** The hello goes again once a day (the broker's sessions). */
export const HELLO_EVERY_MS = 86_400_000;
/** What MT4's chart says when the Account History tab hides part of the history. */
export const HISTORY_PARTIAL =
  'Account History shows only part of the history: right-click the Account History tab and choose All History';
/** Without a Retry-After on a 429. */
const RETRY_AFTER_DEFAULT_MS = 60_000;

export interface HttpAnswer {
  /** The HTTP status; -1 when WebRequest failed (see `error`). */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** WebRequest's GetLastError() when status is -1: 4014 / 4060 the URL is not allowed. */
  error?: number;
}

/** How the Expert Advisor reaches the server: WebRequest("POST", url, headers, body). */
export type Transport = (
  url: string,
  request: { headers: Record<string, string>; body: string },
) => Promise<HttpAnswer>;

/** WebRequest over the machine's network (fetch); a failed connection is WebRequest's 5203. */
export const fetchTransport: Transport = async (url, request) => {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
    });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return { status: response.status, headers, body: await response.text() };
  } catch {
    return { status: -1, headers: {}, body: '', error: 5203 };
  }
};

export type CallPath = 'hello' | 'deals' | 'snapshot';

/** One call the Expert Advisor made: when (virtual ms), what it sent, what came back. */
export interface EaCall {
  at: number;
  path: CallPath;
  status: number;
  sent: unknown;
  /** The answer's JSON (null when not JSON). */
  answer: unknown;
  /** The request body's size in bytes. */
  bytes: number;
}

export interface ExpertAdvisorOptions {
  terminal: TerminalModel;
  clock: VirtualClock;
  /** The inputs, as the trader pasted them. */
  key: string;
  url: string;
  transport?: Transport;
  /** The publisher's version: 1.4 unless an older one is attached (1.3: no excursions). */
  version?: EaVersion;
}

/** A position's excursions as the Expert Advisor keeps them (1.4). */
interface Watched {
  id: number;
  /** 1 a buy, -1 a sell. */
  dir: 1 | -1;
  mae: number;
  mfe: number;
  maePoints: number;
  mfePoints: number;
  /** For the closing deal's own price: the open price and the symbol's point (0: unknown). */
  open: number;
  point: number;
  /** When it was first missed among the open positions (null: open). */
  gone: number | null;
  /** Changed since kept in the global variables. */
  dirty: boolean;
}

type Excursions = Pick<IngestDeal, 'mae' | 'mfe' | 'mae_points' | 'mfe_points'>;
const NO_EXCURSIONS: Excursions = { mae: null, mfe: null, mae_points: null, mfe_points: null };
/** The four global variables of a position's excursions: TradeHost.ex.<login>.<id>.<b|s>.<field>. */
const EXCURSION_FIELDS = ['mae', 'mfe', 'maep', 'mfep'] as const;

const WEBREQUEST_NOT_ALLOWED = new Set([4014, 4060]);

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
};

/** MetaTrader's datetime (ms of the server's clock) to ISO-8601 UTC with the given offset. */
const isoUtc = (serverTime: number, offsetMs: number) =>
  new Date(Math.floor((serverTime - offsetMs) / 1000) * 1000).toISOString();

const round = (value: number, digits: number) => Number(value.toFixed(digits));

export function createExpertAdvisor(options: ExpertAdvisorOptions) {
  const { terminal, clock } = options;
  /** The global variable keeping MT4's server offset, per server. */
  const offsetName = () => `TradeHost.offset.${terminal.server.slice(0, 40)}`;
  const transport = options.transport ?? fetchTransport;
  const platform = terminal.platform;
  /** When it was attached: a deal before it was not seen live. */
  const attachedAt = clock.ms();
  const version = options.version ?? EA_VERSION;
  const tellsExcursions = version !== EA_VERSION_BEFORE_EXCURSIONS;
  /** The positions' excursions by `${id}.${dir}`. */
  const watched = new Map<string, Watched>();
  let excursionsSavedAt = clock.ms();

  let key = '';
  let url = '';
  let status = 'starting';
  let warning = '';
  let helloDone = false;
  let nextTry = 0;
  let failures = 0;
  let snapshotEveryMs = 10_000;
  let lastSnapshot = -Infinity;
  let snapshotNow = false;
  let equityLow = terminal.equity();
  let equityHigh = equityLow;
  /** The server's offset (ms): MT5's TimeTradeServer() - TimeGMT(); MT4's once worked out. */
  let offsetMs: number | null =
    platform === 'MT5' ? terminal.trueOffsetMs : (terminal.globals.get(offsetName()) ?? null);
  let lastQuote = 0;
  let anchor: { quote: number; local: number } | null = null;
  let helloAt = -Infinity;
  /** Positions a snapshot carries at most (halved by a 413). */
  let positionsMax = INGEST_POSITIONS_MAX;
  /** MT5: the last deal ticket the server has (-1: none). */
  let cursor = -1;
  /** MT4: the close time (server clock) of the newest order sent; the orders sent. */
  let mt4Cursor = 0;
  const mt4Sent = new Set<number>();
  let mt4Seen = -1;
  let batchSize = INGEST_DEALS_MAX;
  /** Balance deals noticed live: their equity before. */
  const equityBefore = new Map<number, number>();
  /** Deals and orders noticed so far (tickets). */
  const noticed = new Set<number>();
  const setAside: IngestDeal[][] = [];
  const calls: EaCall[] = [];

  function init(inputs: { key: string; url: string }) {
    key = inputs.key.trim();
    url = inputs.url.trim().replace(/\/+$/, '');
    helloDone = false;
    nextTry = 0;
    failures = 0;
    status =
      key.length < 10 ? 'paste the activation key from the console into the inputs' : 'starting';
  }
  init(options);

  // --- what the terminal shows ---------------------------------------------------------------
  const serverOffsetMs = () => offsetMs ?? 0;

  /** The history as deals of the protocol: MT5's own, MT4's orders as two deals each. */
  function mt5Deal({ serverTime, ...d }: TerminalDeal): IngestDeal {
    const deal: IngestDeal = { ...d, time: isoUtc(serverTime, serverOffsetMs()) };
    if (d.type === 'balance') deal.equity_before = equityBefore.get(d.ticket) ?? null;
    if (tellsExcursions)
      Object.assign(
        deal,
        d.type === 'buy' || d.type === 'sell'
          ? closingExcursions(
              d.entry,
              d.position_id,
              d.type === 'sell' ? 1 : -1,
              d.profit,
              d.price,
              0,
            )
          : NO_EXCURSIONS,
      );
    return deal;
  }

  function mt4Deals(o: TerminalOrder): IngestDeal[] {
    const cash = o.type === 'balance' || o.type === 'credit';
    const side = (closing: boolean): IngestDeal => ({
      ticket: o.ticket * 2 + (closing ? 1 : 0),
      order: o.ticket,
      position_id: o.ticket,
      time: isoUtc(closing ? o.closeServerTime! : o.openServerTime, serverOffsetMs()),
      type: cash ? o.type : (o.type === 'buy') !== closing ? 'buy' : 'sell',
      entry: closing ? 'out' : 'in',
      symbol: o.symbol,
      digits: o.digits,
      volume: cash ? 0 : o.lots,
      price: cash ? 0 : closing ? o.closePrice : o.openPrice,
      profit: closing || cash ? o.profit : 0,
      swap: closing ? o.swap : 0,
      commission: cash ? 0 : o.commission / 2,
      fee: 0,
      magic: o.magic,
      comment: o.comment.slice(0, 64),
    });
    if (cash) {
      const deal = side(false);
      if (o.type === 'balance') deal.equity_before = equityBefore.get(o.ticket) ?? null;
      if (tellsExcursions) Object.assign(deal, NO_EXCURSIONS);
      return [deal];
    }
    if (!tellsExcursions) return [side(false), side(true)];
    const dir = o.type === 'buy' ? 1 : -1;
    return [
      { ...side(false), ...NO_EXCURSIONS },
      {
        ...side(true),
        ...closingExcursions('out', o.ticket, dir, o.profit, o.closePrice, o.openPrice, o.digits),
      },
    ];
  }

  // --- excursions (1.4) ----------------------------------------------------------------------
  const watchKey = (id: number, dir: 1 | -1) => `${id}.${dir}`;
  const globalName = (id: number, dir: 1 | -1, field: (typeof EXCURSION_FIELDS)[number]) =>
    `TradeHost.ex.${terminal.login()}.${id}.${dir > 0 ? 'b' : 's'}.${field}`;
  /** What the global variables kept of a position (an EA stopped meanwhile), or null. */
  function kept(id: number, dir: 1 | -1) {
    const [mae, mfe, maePoints, mfePoints] = EXCURSION_FIELDS.map((f) =>
      terminal.globals.get(globalName(id, dir, f)),
    );
    if (mae === undefined || mfe === undefined) return null;
    return {
      mae: Math.min(0, mae),
      mfe: Math.max(0, mfe),
      maePoints: Math.min(0, maePoints ?? 0),
      mfePoints: Math.max(0, mfePoints ?? 0),
      // not kept: the closing deal's price counts where the order tells its open price (MT4)
      open: 0,
      point: 0,
    };
  }

  /**
   * Every open position's result now folded into its extremes (from what the global variables
   * kept of it, or 0, at first sight); one no longer open is marked gone (its closing deal
   * carries them) and forgotten once gone long enough with its deals all sent; the extremes
   * kept in the global variables every EXCURSIONS_SAVE_MS. Only while connected: a terminal
   * just started may not have its positions yet.
   */
  function watchPositions() {
    if (!tellsExcursions || !terminal.connected() || terminal.login() <= 0) return;
    const now = clock.ms();
    const seen = new Set<string>();
    for (const p of terminal.positions()) {
      const dir = p.side === 'buy' ? 1 : -1;
      const point = pointOf(p.digits);
      const points = round((dir * (p.currentPrice - p.openPrice)) / point, 1);
      const key = watchKey(p.ticket, dir);
      seen.add(key);
      let w = watched.get(key);
      if (!w) {
        const before = kept(p.ticket, dir);
        w = {
          id: p.ticket,
          dir,
          mae: before?.mae ?? 0,
          mfe: before?.mfe ?? 0,
          maePoints: before?.maePoints ?? 0,
          mfePoints: before?.mfePoints ?? 0,
          open: p.openPrice,
          point,
          gone: null,
          dirty: true,
        };
        watched.set(key, w);
      }
      w.open = p.openPrice;
      w.point = point;
      w.gone = null;
      if (p.profit < w.mae || p.profit > w.mfe || points < w.maePoints || points > w.mfePoints)
        w.dirty = true;
      w.mae = Math.min(w.mae, p.profit);
      w.mfe = Math.max(w.mfe, p.profit);
      w.maePoints = Math.min(w.maePoints, points);
      w.mfePoints = Math.max(w.mfePoints, points);
    }
    for (const [key, w] of watched) {
      if (seen.has(key)) continue;
      if (w.gone === null) w.gone = now;
      else if (now - w.gone >= EXCURSIONS_GONE_MS && !dealsDue()) {
        for (const field of EXCURSION_FIELDS)
          terminal.globals.delete(globalName(w.id, w.dir, field));
        watched.delete(key);
      }
    }
    if (now - excursionsSavedAt >= EXCURSIONS_SAVE_MS) saveExcursions();
  }

  /** The changed extremes to the terminal's global variables. */
  function saveExcursions() {
    excursionsSavedAt = clock.ms();
    for (const w of watched.values()) {
      if (!w.dirty) continue;
      const values = [w.mae, w.mfe, w.maePoints, w.mfePoints];
      EXCURSION_FIELDS.forEach((field, i) =>
        terminal.globals.set(globalName(w.id, w.dir, field), values[i]!),
      );
      w.dirty = false;
    }
  }

  /**
   * A closing deal's excursions: its position's (by id and the direction it closes: a sell
   * closes a buy), with the deal's own profit and price, its last moment, folded in; from the
   * global variables when the EA was not running at the close; none for an opening deal or a
   * position never watched. `open` and `digits` (MT4) price the close in points where the EA did
   * not keep them.
   */
  function closingExcursions(
    entry: IngestDeal['entry'],
    id: number,
    dir: 1 | -1,
    profit: number,
    price: number,
    open: number,
    digits = 0,
  ): Excursions {
    if (entry === 'in') return NO_EXCURSIONS;
    const w = watched.get(watchKey(id, dir)) ?? kept(id, dir);
    if (!w) return NO_EXCURSIONS;
    const at =
      w.point > 0
        ? { open: w.open, point: w.point }
        : open > 0 && digits > 0
          ? { open, point: pointOf(digits) }
          : null;
    const points = at ? round((dir * (price - at.open)) / at.point, 1) : 0;
    return {
      mae: round(Math.min(w.mae, profit), 2),
      mfe: round(Math.max(w.mfe, profit), 2),
      mae_points: round(Math.min(w.maePoints, points), 1),
      mfe_points: round(Math.max(w.mfePoints, points), 1),
    };
  }

  /** A snapshot position's excursions so far. */
  function positionExcursions(id: number, dir: 1 | -1): Excursions {
    const w = watched.get(watchKey(id, dir));
    if (!w) return NO_EXCURSIONS;
    return {
      mae: round(w.mae, 2),
      mfe: round(w.mfe, 2),
      mae_points: round(w.maePoints, 1),
      mfe_points: round(w.mfePoints, 1),
    };
  }

  /**
   * What OnTrade / a timer tick notices in the history: a balance deal within LIVE_FLOW_MS of
   * its time, after the EA was attached, is seen live (the equity now, less its amount, is the
   * equity before it); any balance or credit deal restarts the equity low and high and asks for
   * a snapshot at once.
   */
  function notice() {
    const flows: Array<{ ticket: number; type: string; serverTime: number; amount: number }> = [];
    if (platform === 'MT5') {
      for (const d of terminal.deals())
        if (!noticed.has(d.ticket)) {
          noticed.add(d.ticket);
          if (d.type === 'balance' || d.type === 'credit')
            flows.push({
              ticket: d.ticket,
              type: d.type,
              serverTime: d.serverTime,
              amount: d.profit,
            });
        }
    } else {
      for (const o of terminal.historyOrders())
        if (!noticed.has(o.ticket)) {
          noticed.add(o.ticket);
          if (o.type === 'balance' || o.type === 'credit')
            flows.push({
              ticket: o.ticket,
              type: o.type,
              serverTime: o.closeServerTime!,
              amount: o.profit,
            });
        }
    }
    const equity = terminal.equity();
    for (const flow of flows) {
      // a deal from before the EA was attached is history: nothing of it is known live
      if (flow.serverTime - terminal.trueOffsetMs <= attachedAt) continue;
      const age = terminal.timeTradeServer() - flow.serverTime;
      if (flow.type === 'balance' && age <= LIVE_FLOW_MS)
        equityBefore.set(flow.ticket, round(equity - flow.amount, 2));
      equityLow = equity;
      equityHigh = equity;
      snapshotNow = true;
    }
  }

  // --- HTTP ----------------------------------------------------------------------------------
  type Outcome = 'ok' | 'wait' | 'malformed' | 'too large';

  async function post(
    path: CallPath,
    message: unknown,
  ): Promise<{ outcome: Outcome; answer: unknown }> {
    const body = JSON.stringify(message);
    const target = `${url}/api/ingest/v1/${path}`;
    const now = clock.ms();
    let reply: HttpAnswer;
    if (!terminal.webRequestAllowed(target))
      reply = { status: -1, headers: {}, body: '', error: platform === 'MT5' ? 4014 : 4060 };
    else
      reply = await transport(target, {
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body,
      });
    const answer = parse(reply.body);
    calls.push({
      at: now,
      path,
      status: reply.status,
      sent: message,
      answer,
      bytes: Buffer.byteLength(body),
    });
    const { status: code } = reply;
    if (code >= 200 && code < 300) {
      failures = 0;
      return { outcome: 'ok', answer };
    }
    const said = (answer as { message?: unknown } | null)?.message;
    const reason = typeof said === 'string' && said ? said : `HTTP ${code}`;
    if (code === -1 && WEBREQUEST_NOT_ALLOWED.has(reply.error ?? 0)) {
      nextTry = now + PERMISSION_RETRY_MS;
      status = `allow WebRequest for ${url} in Tools > Options > Expert Advisors (error ${reply.error}); trying again in ${PERMISSION_RETRY_MS / 1000} s`;
      return { outcome: 'wait', answer };
    }
    if (code === 429) {
      const retryAfter = Number(reply.headers['retry-after']);
      nextTry = now + (retryAfter > 0 ? retryAfter * 1000 : RETRY_AFTER_DEFAULT_MS);
      status = 'the server asks to wait';
      return { outcome: 'wait', answer };
    }
    if (code === -1 || code >= 500) {
      const pause =
        SERVER_ERROR_BACKOFF_MS[Math.min(failures, SERVER_ERROR_BACKOFF_MS.length - 1)]!;
      failures += 1;
      nextTry = now + pause;
      status = `the server is not answering; trying again in ${pause / 1000} s`;
      return { outcome: 'wait', answer };
    }
    if (path !== 'hello' && (code === 400 || code === 422)) return { outcome: 'malformed', answer };
    if (path !== 'hello' && code === 413) return { outcome: 'too large', answer };
    // 401, 402, 404, 409, a refused hello: the trader or the server can fix it; until then the
    // reason stays on the chart, and the hello goes again every few minutes
    helloDone = false;
    nextTry = now + REFUSAL_RETRY_MS;
    status = `${reason} (HTTP ${code}); trying again every ${REFUSAL_RETRY_MS / 60_000} minutes`;
    return { outcome: 'wait', answer };
  }

  // --- the timer's work ----------------------------------------------------------------------
  /**
   * MT4: TimeCurrent() is the last quote's time and stands still while none comes (a weekend,
   * the catch-up after a start), so the offset is taken only from quotes seen to keep step with
   * the computer's clock; rounded to the quarter hour and kept per server in a global variable
   * (it outlives a restart); a change (daylight saving) sends the hello again.
   */
  function watchServerClock() {
    if (platform === 'MT5') return;
    if (!terminal.connected()) {
      lastQuote = 0;
      anchor = null;
      return;
    }
    const quote = terminal.timeCurrent();
    const local = clock.ms();
    if (quote === lastQuote) return;
    const first = lastQuote === 0;
    lastQuote = quote;
    // the value at a start or a reconnection may be days old
    if (first) return;
    if (!anchor) {
      anchor = { quote, local };
      return;
    }
    const localSpan = local - anchor.local;
    if (localSpan < QUOTE_SPAN_MS) return;
    const quoteSpan = quote - anchor.quote;
    anchor = { quote, local };
    if (Math.abs(quoteSpan - localSpan) > QUOTE_SLACK_MS) return;
    const learned = Math.round((quote - terminal.timeGMT()) / 900_000) * 900_000;
    if (Math.abs(learned) > 14 * 3_600_000 || learned === offsetMs) return;
    offsetMs = learned;
    terminal.globals.set(offsetName(), learned);
    helloDone = false;
  }

  async function hello(): Promise<boolean> {
    const message: IngestHello = {
      platform,
      login: terminal.login(),
      server: terminal.server,
      company: terminal.company,
      currency: terminal.currency,
      leverage: terminal.leverage,
      trade_mode: terminal.tradeMode,
      margin_mode: terminal.marginMode,
      server_time_offset_sec: Math.round(serverOffsetMs() / 1000),
      ea_version: version,
    };
    const { outcome, answer } = await post('hello', message);
    if (outcome !== 'ok') return false;
    const reply = answer as IngestHelloResponse;
    helloDone = true;
    helloAt = clock.ms();
    snapshotEveryMs = Math.max(1, reply.snapshot_every_sec) * 1000;
    cursor = reply.full_resync || reply.last_ticket === null ? -1 : reply.last_ticket;
    if (reply.full_resync) {
      mt4Cursor = 0;
      mt4Sent.clear();
    }
    mt4Seen = -1;
    status = 'connected';
    return true;
  }

  /** The deals not yet sent, oldest first (MT4: from a minute before its cursor). */
  function dueDeals(): IngestDeal[] {
    if (platform === 'MT5')
      return terminal
        .deals()
        .filter((d) => d.ticket > cursor)
        .map(mt5Deal);
    const visible = terminal.historyOrders();
    // older orders than the cursor that were never sent: the history tab was widened
    if (visible.some((o) => !mt4Sent.has(o.ticket) && o.closeServerTime! < mt4Cursor - 60_000)) {
      mt4Cursor = 0;
      status = 'older orders appeared in the Account History: sending the history again';
    }
    return visible
      .filter((o) => o.closeServerTime! >= mt4Cursor - 60_000)
      .sort((a, b) => a.closeServerTime! - b.closeServerTime! || a.ticket - b.ticket)
      .flatMap(mt4Deals);
  }

  const dealsDue = () =>
    platform === 'MT5'
      ? terminal.deals().some((d) => d.ticket > cursor)
      : terminal.historyOrders().length !== mt4Seen;

  async function sendDeals(): Promise<boolean> {
    const due = dueDeals();
    let from = 0;
    while (from < due.length) {
      const batch = due.slice(from, from + batchSize);
      const { outcome } = await post('deals', { login: terminal.login(), deals: batch });
      if (outcome === 'wait') return false;
      if (outcome === 'too large' && batch.length > 1) {
        batchSize = Math.max(1, Math.floor(batch.length / 2));
        continue;
      }
      if (outcome === 'malformed' || outcome === 'too large') {
        setAside.push(batch);
        warning = `${setAside.length} batch(es) of deals refused by the server and set aside`;
      }
      from += batch.length;
      advanceCursor(batch);
    }
    if (platform === 'MT4') {
      const visible = terminal.historyOrders();
      mt4Seen = visible.length;
      // cut: no deposit, or the first operation is a trade
      const deposit = visible.some((o) => o.type === 'balance' && o.profit > 0);
      const first = visible.reduce<TerminalOrder | undefined>(
        (a, o) => (!a || o.openServerTime < a.openServerTime ? o : a),
        undefined,
      );
      const partial =
        !deposit || (first !== undefined && first.type !== 'balance' && first.type !== 'credit');
      if (partial) {
        warning = HISTORY_PARTIAL;
        // every change of a cut history is sent whole again
        mt4Cursor = 0;
      } else if (warning === HISTORY_PARTIAL) warning = '';
    }
    return true;
  }

  function advanceCursor(batch: IngestDeal[]) {
    if (platform === 'MT5') {
      for (const d of batch) cursor = Math.max(cursor, d.ticket);
      return;
    }
    for (const d of batch) {
      const order = Math.floor(d.ticket / 2);
      mt4Sent.add(order);
      mt4Cursor = Math.max(mt4Cursor, Date.parse(d.time) + serverOffsetMs());
    }
  }

  function snapshotMessage(): IngestSnapshot {
    const equity = terminal.equity();
    const open = terminal.positions();
    const positions: IngestPosition[] = open.slice(0, positionsMax).map((p) => ({
      ticket: p.ticket,
      symbol: p.symbol,
      type: p.side,
      volume: p.volume,
      open_time: isoUtc(p.openServerTime, serverOffsetMs()),
      open_price: p.openPrice,
      current_price: p.currentPrice,
      sl: p.sl,
      tp: p.tp,
      profit: p.profit,
      swap: p.swap,
      ...(tellsExcursions ? positionExcursions(p.ticket, p.side === 'buy' ? 1 : -1) : {}),
    }));
    const margin = terminal.margin();
    const connected = terminal.connected();
    const pingUs = terminal.pingLast();
    const message: IngestSnapshot = {
      login: terminal.login(),
      // TimeGMT(): the computer's clock, which a weekend does not stop
      time: new Date(terminal.timeGMT()).toISOString(),
      balance: terminal.balance(),
      equity,
      margin,
      free_margin: round(equity - margin, 2),
      credit: terminal.credit(),
      equity_low: Math.min(equityLow, equity),
      equity_high: Math.max(equityHigh, equity),
      terminal_connected: connected,
      // MQL's (ping + 500) / 1000 on longs: half up, whole milliseconds
      ping_ms: connected && pingUs > 0 ? Math.floor((pingUs + 500) / 1000) : null,
      trade_allowed: terminal.tradeAllowed(),
      ea_trade_allowed: terminal.eaTradeAllowed(),
      positions,
    };
    if (open.length > positions.length) message.positions_total = open.length;
    return message;
  }

  async function sendSnapshot() {
    const message = snapshotMessage();
    const { outcome } = await post('snapshot', message);
    if (outcome === 'wait') return;
    if (outcome === 'too large') {
      // fewer positions, and their count, at the next tick
      positionsMax = Math.max(1, Math.floor(positionsMax / 2));
      status = `the snapshot was too large: sending ${positionsMax} positions and their count`;
      return;
    }
    lastSnapshot = clock.ms();
    snapshotNow = false;
    if (outcome !== 'ok') {
      status = 'the server refused the last snapshot; the next one follows';
      return;
    }
    equityLow = message.equity;
    equityHigh = message.equity;
    status = `publishing; last snapshot ${message.time.slice(11, 19)} UTC`;
  }

  const ea = {
    /** What the chart's comment says: the state, and a warning about the history if any. */
    get status() {
      return warning ? `${status}; ${warning}` : status;
    },
    /** Every call made, in order. */
    calls: calls as readonly EaCall[],
    /** Deal batches the server refused as malformed, set aside. */
    setAside: setAside as readonly IngestDeal[][],
    /** MT4: the server's offset it works with (s), null until worked out. */
    get serverOffsetSec() {
      return offsetMs === null ? null : offsetMs / 1000;
    },
    /** The current deals batch size (halved by each 413). */
    get batchSize() {
      return batchSize;
    },
    /** Snapshots the server stored. */
    accepted: (path: CallPath = 'snapshot') =>
      calls.filter((c) => c.path === path && c.status >= 200 && c.status < 300).length,

    /** OnTick: the equity's low and high since the last snapshot, the positions' extremes. */
    onTick() {
      const equity = terminal.equity();
      equityLow = Math.min(equityLow, equity);
      equityHigh = Math.max(equityHigh, equity);
      watchPositions();
    },

    /** OnDeinit: the EA stops (removed, the terminal closed): the extremes are kept. */
    deinit() {
      if (tellsExcursions) saveExcursions();
    },

    /** OnTimer, every second. */
    async onTimer() {
      ea.onTick();
      notice();
      watchServerClock();
      if (key.length < 10) return;
      if (clock.ms() < nextTry) return;
      if (helloDone && clock.ms() - helloAt >= HELLO_EVERY_MS) helloDone = false;
      if (!helloDone) {
        // login 0 for a moment after a start: no hello before a connected, logged-in terminal
        if (!terminal.connected() || terminal.login() <= 0) {
          status = 'waiting for the terminal to connect to the trade server';
          return;
        }
        if (offsetMs === null) {
          status = "waiting for the trade server's time";
          return;
        }
        if (!(await hello())) return;
      }
      if (dealsDue() && !(await sendDeals())) return;
      if (snapshotNow || clock.ms() - lastSnapshot >= snapshotEveryMs) await sendSnapshot();
    },

    /**
     * The inputs changed (a new key pasted, the URL corrected): the terminal runs OnDeinit and
     * OnInit, so it starts afresh with a hello.
     */
    reattach(inputs: { key?: string; url?: string }) {
      init({ key: inputs.key ?? key, url: inputs.url ?? url });
    },
  };
  return ea;
}

export type ExpertAdvisor = ReturnType<typeof createExpertAdvisor>;
