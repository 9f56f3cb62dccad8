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
import { random } from './history.ts';
import type { TerminalDeal, TerminalModel, TerminalOrder } from './terminal-model.ts';

/**
 * The publisher Expert Advisor, version 1.2, as a model of its timer's logic (OnTimer every
 * second; nothing waits, a pause is a moment before which it does nothing): the same rules as
 * apps/web/public/publisher/*.mq5|.mq4, so that a scenario run here shows what a trader's
 * terminal does.
 *
 * - It waits for a connected terminal with a login > 0 before its hello; it trims the key and
 *   the URL (a trailing '/').
 * - MT4 works out the server's UTC offset only while connected with a fresh tick (TimeCurrent()
 *   stands still at the last tick, over a weekend for two days), keeps it, and never says hello
 *   with an offset it has not worked out; deal and position times use the kept offset.
 * - Refusals are retried slowly and their reason stays on the chart (`status`): 401, 402, 404,
 *   409 and a refused hello (422) every 3 minutes, the URL not allowed in WebRequest's list
 *   every 30-60 s. Only a malformed deals batch (400/422) is set aside, the rest goes on; 413
 *   halves the batch; a refused snapshot (400/413/422) is dropped. Server errors back off
 *   1, 2, 5, 15, 60 s; a 429 waits its Retry-After.
 * - `equity_before` goes only with a balance deal it saw live (within 10 s, the equity taken
 *   when it noticed it, less the amount); at every balance or credit deal the equity low and
 *   high start again at the equity after it, and a snapshot goes at once after the deals.
 * - MT4 sees only the period the Account History tab shows: when no deposit is among it, it
 *   says so on the chart; when older orders appear (the tab widened, the history count jumping
 *   past its cursor), it sends everything again.
 * - A snapshot carries at most 1,000 positions, and `positions_total` when more are open.
 */

export const EA_VERSION = '1.2.0';
/** 401, 402, 404, 409, a refused hello: tried again after this. */
export const REFUSAL_RETRY_MS = 180_000;
/** The URL not in WebRequest's list: tried again after 30 to 60 s. */
export const PERMISSION_RETRY_MS = [30_000, 60_000] as const;
export const SERVER_ERROR_BACKOFF_MS = [1000, 2000, 5000, 15_000, 60_000] as const;
/** A balance deal noticed this soon after its time was seen live: its equity_before is known. */
export const LIVE_FLOW_MS = 10_000;
/** MT4 works out its server's offset only from a tick at most this old. */
export const FRESH_TICK_MS = 60_000;
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
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body: await response.text(),
    };
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
  /** Seeds the 30-60 s pause of the URL permission's retries. */
  seed?: number;
}

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
  const transport = options.transport ?? fetchTransport;
  const rnd = random(options.seed ?? 1);
  const platform = terminal.platform;
  /** When it was attached: a deal before it was not seen live. */
  const attachedAt = clock.ms();

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
  /** MT4: the server's offset once worked out from a fresh tick (ms). */
  let offsetMs: number | null = platform === 'MT5' ? terminal.trueOffsetMs : null;
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
      return [deal];
    }
    return [side(false), side(true)];
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
      const [low, high] = PERMISSION_RETRY_MS;
      const pause = low + Math.floor(rnd() * (high - low + 1));
      nextTry = now + pause;
      status = `allow WebRequest for ${url} in Tools > Options > Expert Advisors (error ${reply.error}); trying again in ${Math.round(pause / 1000)} s`;
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
  /** MT4: the offset from a fresh tick, to 15 minutes, kept; a change means a new hello (DST). */
  function learnOffset(): boolean {
    if (platform === 'MT5') return true;
    if (terminal.tickAge() <= FRESH_TICK_MS) {
      const raw = terminal.timeCurrent() - terminal.timeGMT();
      const learned = Math.round(raw / 900_000) * 900_000;
      if (offsetMs !== null && learned !== offsetMs) helloDone = false;
      offsetMs = learned;
    }
    return offsetMs !== null;
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
      ea_version: EA_VERSION,
    };
    const { outcome, answer } = await post('hello', message);
    if (outcome !== 'ok') return false;
    const reply = answer as IngestHelloResponse;
    helloDone = true;
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
      warning = 'older orders appeared in the Account History: sending the history again';
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
      const deposit = visible.some((o) => o.type === 'balance' && o.profit > 0);
      if (!deposit) {
        warning =
          'the Account History tab does not show the first deposit: right-click it and choose All History';
        // the history is truncated: every change of it is sent whole again
        mt4Cursor = 0;
      } else if (warning.startsWith('the Account History tab')) warning = '';
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
    const positions: IngestPosition[] = open.slice(0, INGEST_POSITIONS_MAX).map((p) => ({
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
    }));
    const margin = terminal.margin();
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
      terminal_connected: terminal.connected(),
      positions,
    };
    if (open.length > INGEST_POSITIONS_MAX) message.positions_total = open.length;
    return message;
  }

  async function sendSnapshot() {
    const message = snapshotMessage();
    const { outcome } = await post('snapshot', message);
    if (outcome === 'wait') return;
    lastSnapshot = clock.ms();
    snapshotNow = false;
    if (outcome !== 'ok') {
      status = `a snapshot was refused (${outcome}) and dropped`;
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

    /** OnTick: the equity's low and high since the last snapshot. */
    onTick() {
      const equity = terminal.equity();
      equityLow = Math.min(equityLow, equity);
      equityHigh = Math.max(equityHigh, equity);
    },

    /** OnTimer, every second. */
    async onTimer() {
      ea.onTick();
      notice();
      if (key.length < 10) return;
      if (clock.ms() < nextTry) return;
      if (!terminal.connected() || terminal.login() <= 0) {
        status = 'waiting for the terminal to connect and log in';
        return;
      }
      if (!learnOffset()) {
        status = "waiting for a fresh tick to learn the trade server's time zone";
        return;
      }
      if (!helloDone && !(await hello())) return;
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
