import type { DealEntry, IngestDeal, Platform } from '@tradehost/contracts';
import type { VirtualClock } from './clock.ts';
import { INSTRUMENTS, NO_TRADE_FIELDS, tradeProfit, type Instrument } from './history.ts';

/**
 * A MetaTrader terminal as its Expert Advisor sees it, driven by a virtual clock: who is logged
 * in (login 0 for a moment after a start), whether it is connected, its last ping to the trade
 * server, whether algorithmic trading is allowed (its button, the Expert Advisor's own box), the
 * last tick's time in the
 * trade server's clock (TimeCurrent(), which stands still while no quote comes, as over a
 * weekend), the account's money and open positions, and its history: MT5's deals, or MT4's
 * orders, of which MT4 shows only the period chosen in the Account History tab.
 *
 * The trader acts on it (deposit, open, close, a netting trade, widen the history tab, allow
 * the URL in Tools > Options) at the clock's moment; the Expert Advisor model reads it.
 *
 * Each open position also keeps the extremes its price really reached (`path`): what a test
 * compares with what the Expert Advisor, which sees the prices only when it runs, could tell.
 */

export type MarginMode = 'hedging' | 'netting';
export type Side = 'buy' | 'sell';

/**
 * An MT5 deal as the terminal's history holds it: the protocol's fields (HistoryDealGet* of each
 * is what the EA writes), but its time is the trade server's clock, as MetaTrader's datetime is.
 */
export interface TerminalDeal extends Omit<IngestDeal, 'time' | 'equity_before' | 'magic'> {
  /** ms of the trade server's clock (UTC + its offset). */
  serverTime: number;
  magic: number;
}

/** An MT4 order: a trade (open, or closed into the history) or a balance / credit operation. */
export interface TerminalOrder {
  ticket: number;
  type: 'buy' | 'sell' | 'balance' | 'credit';
  symbol: string;
  digits: number;
  lots: number;
  openServerTime: number;
  openPrice: number;
  /** null while open. */
  closeServerTime: number | null;
  closePrice: number;
  profit: number;
  swap: number;
  commission: number;
  magic: number;
  comment: string;
}

/**
 * The worst and best floating result a position has had since it was opened (or, netting,
 * reversed): its profit in money (at most 0 and at least 0) and its price move in points.
 */
export interface PricePath {
  worst: number;
  best: number;
  worstPoints: number;
  bestPoints: number;
}

/** An open position (MT5) or open order (MT4). */
export interface OpenPosition {
  /** MT5: the position id; MT4: the order's ticket. */
  ticket: number;
  symbol: string;
  digits: number;
  side: Side;
  volume: number;
  openServerTime: number;
  openPrice: number;
  currentPrice: number;
  sl: number;
  tp: number;
  swap: number;
  /** The extremes its price really reached: every quote counts, seen by the EA or not. */
  path: PricePath;
}

/** A symbol's point: the smallest price step of its digits (0.00001 for EURUSD). */
export const pointOf = (digits: number) => 10 ** -digits;

export interface TerminalModelOptions {
  clock: VirtualClock;
  platform: Platform;
  login: number;
  marginMode?: MarginMode;
  /** The trade server's offset from UTC (s): 7200 for the usual UTC+2 broker. */
  serverOffsetSec?: number;
  currency?: string;
  server?: string;
  company?: string;
  leverage?: number;
  tradeMode?: 'demo' | 'real' | 'contest';
  firstTicket?: number;
  /** The ping to the trade server (µs, as TERMINAL_PING_LAST counts): 24 ms unless said. */
  pingUs?: number;
}

const cents = (value: number) => Math.round(value * 100) / 100;

function instrumentOf(symbol: string): Instrument {
  const instrument = INSTRUMENTS.find((i) => i.symbol === symbol);
  if (!instrument) throw new Error(`the simulated terminal does not quote ${symbol}`);
  return instrument;
}

export function createTerminalModel(options: TerminalModelOptions) {
  const { clock, platform } = options;
  const offsetMs = (options.serverOffsetSec ?? 7200) * 1000;
  const marginMode: MarginMode = platform === 'MT4' ? 'hedging' : (options.marginMode ?? 'hedging');
  const leverage = options.leverage ?? 500;
  let ticket = options.firstTicket ?? 50_000_001;
  let balance = 0;
  let credit = 0;
  /** Until then, just after a start, the terminal is neither connected nor logged in. */
  let loginFrom = clock.ms();
  let connected = true;
  let pingUs = options.pingUs ?? 24_000;
  /** The toolbar's Algo Trading button, and the Expert Advisor's "Allow Algo Trading" box. */
  let algoTrading = true;
  let eaAlgoTrading = true;
  /** The terminal's global variables (GlobalVariableSet): they outlive a restart. */
  const globals = new Map<string, number>();
  let ticking = false;
  let lastTickUtc = clock.ms();
  let historyFrom: number | null = null;
  const allowedUrls = new Set<string>();
  let webRequestChecked = false;
  const deals: TerminalDeal[] = [];
  const orders: TerminalOrder[] = [];
  const positions: OpenPosition[] = [];
  const prices = new Map<string, number>();

  const serverNow = () => clock.ms() + offsetMs;
  /** A trade or an operation happens at a tick. */
  const tick = () => {
    lastTickUtc = clock.ms();
  };

  const floating = (p: OpenPosition) =>
    tradeProfit(
      instrumentOf(p.symbol),
      p.volume,
      p.openPrice,
      p.currentPrice,
      p.side === 'buy' ? 1 : -1,
    );
  /** The position's price move in points now (a buy's up, a sell's down), to 0.1 of a point. */
  const movePoints = (p: OpenPosition) =>
    Number(
      (((p.currentPrice - p.openPrice) * (p.side === 'buy' ? 1 : -1)) / pointOf(p.digits)).toFixed(
        1,
      ),
    );
  const flatPath = (): PricePath => ({ worst: 0, best: 0, worstPoints: 0, bestPoints: 0 });
  /** Folds the position's result now into its path. */
  function walk(p: OpenPosition) {
    const profit = floating(p);
    const points = movePoints(p);
    p.path.worst = Math.min(p.path.worst, profit);
    p.path.best = Math.max(p.path.best, profit);
    p.path.worstPoints = Math.min(p.path.worstPoints, points);
    p.path.bestPoints = Math.max(p.path.bestPoints, points);
  }

  function cashOperation(
    type: 'balance' | 'credit',
    amount: number,
    comment: string,
    at: number | undefined,
  ) {
    tick();
    // a deal made on the server while the terminal was offline arrives with its own time
    const time = at === undefined ? serverNow() : at + offsetMs;
    if (type === 'balance') balance = cents(balance + amount);
    else credit = cents(credit + amount);
    const id = ticket++;
    if (platform === 'MT4')
      orders.push({
        ticket: id,
        type,
        symbol: '',
        digits: 0,
        lots: 0,
        openServerTime: time,
        openPrice: 0,
        closeServerTime: time,
        closePrice: 0,
        profit: amount,
        swap: 0,
        commission: 0,
        magic: 0,
        comment,
      });
    else
      deals.push({
        ...dealBase(id, 0, time),
        type,
        entry: 'in',
        profit: amount,
        comment,
      });
    return id;
  }

  function dealBase(id: number, positionId: number, serverTime = serverNow()) {
    return { ...NO_TRADE_FIELDS, ticket: id, order: id, position_id: positionId, serverTime };
  }

  function tradeDeal(
    position: { ticket: number; symbol: string; digits: number },
    side: Side,
    entry: DealEntry,
    volume: number,
    price: number,
    profit: number,
  ) {
    const id = ticket++;
    deals.push({
      ...dealBase(id, position.ticket),
      type: side,
      entry,
      symbol: position.symbol,
      digits: position.digits,
      volume,
      price,
      profit,
    });
    balance = cents(balance + profit);
    return id;
  }

  function openPosition(symbol: string, side: Side, volume: number, price: number, id: number) {
    const instrument = instrumentOf(symbol);
    const position: OpenPosition = {
      ticket: id,
      symbol,
      digits: instrument.digits,
      side,
      volume,
      openServerTime: serverNow(),
      openPrice: price,
      currentPrice: price,
      sl: 0,
      tp: 0,
      swap: 0,
      path: flatPath(),
    };
    positions.push(position);
    prices.set(symbol, price);
    return position;
  }

  /** The profit of closing `volume` of the position at `price`. */
  const closingProfit = (p: OpenPosition, volume: number, price: number) =>
    tradeProfit(instrumentOf(p.symbol), volume, p.openPrice, price, p.side === 'buy' ? 1 : -1);

  const opposite = (side: Side): Side => (side === 'buy' ? 'sell' : 'buy');

  const terminal = {
    platform,
    marginMode,
    leverage,
    currency: options.currency ?? 'USD',
    server: options.server ?? 'TradeHost-Demo',
    company: options.company ?? 'TradeHost Demo Broker',
    tradeMode: options.tradeMode ?? 'demo',
    globals,
    /** The offset the trade server really has (ms): what the Expert Advisor has to work out. */
    trueOffsetMs: offsetMs,

    // --- what the Expert Advisor reads -------------------------------------------------------
    /** AccountInfoInteger(ACCOUNT_LOGIN) / AccountNumber(): 0 until the terminal has logged in. */
    login: () => (clock.ms() >= loginFrom ? options.login : 0),
    /** TerminalInfoInteger(TERMINAL_CONNECTED) / IsConnected(). */
    connected: () => connected && clock.ms() >= loginFrom,
    /**
     * TerminalInfoInteger(TERMINAL_PING_LAST): the last ping to the trade server in µs, 0 until
     * the terminal has measured one after its start; a disconnected terminal keeps its last.
     */
    pingLast: () => (clock.ms() >= loginFrom ? pingUs : 0),
    /** TerminalInfoInteger(TERMINAL_TRADE_ALLOWED): the Algo Trading button. */
    tradeAllowed: () => algoTrading,
    /** MQLInfoInteger(MQL_TRADE_ALLOWED): the Expert Advisor's own "Allow Algo Trading". */
    eaTradeAllowed: () => eaAlgoTrading,
    /** TimeCurrent(): the last tick's time in the server's clock; it stands still without quotes. */
    timeCurrent: () => lastTickUtc + offsetMs,
    /** TimeGMT(): the computer's clock in UTC. */
    timeGMT: () => clock.ms(),
    /** MT5's TimeTradeServer(): the server's clock worked out by the terminal, always moving. */
    timeTradeServer: serverNow,
    /** How long ago the last tick came (ms). */
    tickAge: () => clock.ms() - lastTickUtc,
    balance: () => balance,
    credit: () => credit,
    equity: () => cents(balance + credit + positions.reduce((s, p) => s + floating(p) + p.swap, 0)),
    margin: () =>
      cents(
        positions.reduce((s, p) => {
          const instrument = instrumentOf(p.symbol);
          const value =
            p.volume * instrument.contract * (instrument.quoteIsUsd ? p.currentPrice : 1);
          return s + value / leverage;
        }, 0),
      ),
    /** Open positions with their floating profit. */
    positions: () => positions.map((p) => ({ ...p, path: { ...p.path }, profit: floating(p) })),
    /** MT5: the whole deal history (HistorySelect(0, now)). */
    deals: (): readonly TerminalDeal[] => deals,
    /** MT4: the closed orders the Account History tab shows (OrdersHistoryTotal / MODE_HISTORY). */
    historyOrders: (): TerminalOrder[] =>
      orders.filter(
        (o) =>
          o.closeServerTime !== null && (historyFrom === null || o.closeServerTime >= historyFrom),
      ),
    /**
     * WebRequest's check: the URL must be listed in Tools > Options > Expert Advisors. Until the
     * trader allows any URL (allowWebRequest), every URL is allowed: most scenarios skip the step.
     */
    webRequestAllowed: (url: string) =>
      !webRequestChecked || [...allowedUrls].some((allowed) => url.startsWith(allowed)),

    // --- the terminal's own life -------------------------------------------------------------
    /** One second of the terminal: a quote while the market is open and the terminal connected. */
    step() {
      if (ticking && terminal.connected()) tick();
    },
    /** Quotes come (the market is open) or stop (a weekend, a holiday). */
    setTicking(on: boolean) {
      ticking = on;
      if (on && terminal.connected()) tick();
    },
    /**
     * The terminal (re)starts, as after a VPS reboot: for `loginZeroMs` it is neither connected
     * nor logged in (login 0), as MT4, and MT5 at times, report just after a start.
     */
    restart(loginZeroMs = 0) {
      connected = true;
      loginFrom = clock.ms() + loginZeroMs;
    },
    disconnect() {
      connected = false;
    },
    connect() {
      connected = true;
    },
    /** The network to the trade server now answers in `ms` (the terminal measures it in µs). */
    networkPing(ms: number) {
      pingUs = Math.round(ms * 1000);
    },

    // --- the trader's actions ----------------------------------------------------------------
    /**
     * A deposit now, or, with `at` (a UTC moment before now), one the server made at `at` that
     * the terminal learns of only now (it was offline).
     */
    deposit: (amount: number, comment = 'Deposit', at?: number) =>
      cashOperation('balance', amount, comment, at),
    withdraw: (amount: number, comment = 'Withdrawal', at?: number) =>
      cashOperation('balance', -amount, comment, at),
    addCredit: (amount: number, comment = 'Credit', at?: number) =>
      cashOperation('credit', amount, comment, at),
    /** A new quote for the symbol: its positions float with it. */
    quote(symbol: string, price: number) {
      tick();
      prices.set(symbol, price);
      for (const p of positions)
        if (p.symbol === symbol) {
          p.currentPrice = price;
          walk(p);
        }
    },
    /** Opens a position (hedging, MT4 or MT5) at `price`; its ticket / position id. */
    open(symbol: string, side: Side, volume: number, price: number): number {
      if (marginMode === 'netting') return terminal.trade(symbol, side, volume, price);
      tick();
      const id = ticket++;
      const position = openPosition(symbol, side, volume, price, id);
      if (platform === 'MT4')
        orders.push({
          ticket: id,
          type: side,
          symbol,
          digits: position.digits,
          lots: volume,
          openServerTime: position.openServerTime,
          openPrice: price,
          closeServerTime: null,
          closePrice: 0,
          profit: 0,
          swap: 0,
          commission: 0,
          magic: 0,
          comment: '',
        });
      else tradeDeal(position, side, 'in', volume, price, 0);
      terminal.quote(symbol, price);
      return id;
    },
    /**
     * Closes `volume` (all when left out) of a hedging position at `price`: MT5 writes an `out`
     * deal on the same position id, partial or not; MT4 moves the whole order to the history.
     */
    close(positionTicket: number, price: number, volume?: number) {
      const index = positions.findIndex((p) => p.ticket === positionTicket);
      const position = positions[index];
      if (!position) throw new Error(`no open position ${positionTicket}`);
      tick();
      const lots = volume ?? position.volume;
      const profit = closingProfit(position, lots, price);
      if (platform === 'MT4') {
        if (lots < position.volume) throw new Error('an MT4 partial close is not modelled');
        const order = orders.find((o) => o.ticket === positionTicket)!;
        order.closeServerTime = serverNow();
        order.closePrice = price;
        order.profit = profit;
        order.swap = position.swap;
        balance = cents(balance + profit + position.swap);
      } else tradeDeal(position, opposite(position.side), 'out', lots, price, profit);
      position.volume = Number((position.volume - lots).toFixed(8));
      if (position.volume <= 0) positions.splice(index, 1);
      terminal.quote(position.symbol, price);
    },
    /**
     * MT5 netting: one position per symbol. A trade the same way adds to it (`in`), the other
     * way reduces or closes it (`out`), and more than it holds reverses it (`inout`: the old
     * volume closed at a profit and the rest opened the other way, on the same position id).
     */
    trade(symbol: string, side: Side, volume: number, price: number): number {
      if (marginMode !== 'netting') throw new Error('trade() is for a netting account: use open()');
      tick();
      const position = positions.find((p) => p.symbol === symbol);
      if (!position) {
        const id = ticket;
        tradeDeal(openPosition(symbol, side, volume, price, id), side, 'in', volume, price, 0);
        return id;
      }
      if (position.side === side) {
        const total = position.volume + volume;
        position.openPrice = (position.openPrice * position.volume + price * volume) / total;
        position.volume = total;
        tradeDeal(position, side, 'in', volume, price, 0);
      } else if (volume <= position.volume + 1e-9) {
        tradeDeal(position, side, 'out', volume, price, closingProfit(position, volume, price));
        position.volume = Number((position.volume - volume).toFixed(8));
        if (position.volume <= 0) positions.splice(positions.indexOf(position), 1);
      } else {
        const profit = closingProfit(position, position.volume, price);
        tradeDeal(position, side, 'inout', volume, price, profit);
        position.side = side;
        position.volume = Number((volume - position.volume).toFixed(8));
        position.openPrice = price;
        position.openServerTime = serverNow();
        // the reversal opens another trade: its path starts again
        position.path = flatPath();
      }
      terminal.quote(symbol, price);
      return position.ticket;
    },
    /**
     * MT4's Account History tab: the period it shows (from `from`, a UTC moment), or 'all'.
     * The Expert Advisor sees no order closed before it.
     */
    showHistory(from: number | 'all') {
      historyFrom = from === 'all' ? null : from + offsetMs;
    },
    /**
     * The Algo Trading button on the toolbar (off: no Expert Advisor trades; they still run),
     * as the trader presses it, or MetaTrader itself where its options say so (an account or
     * profile changed).
     */
    switchAlgoTrading(on: boolean) {
      algoTrading = on;
    },
    /** The Expert Advisor's properties, Common > Allow Algo Trading. */
    allowEaTrading(on: boolean) {
      eaAlgoTrading = on;
    },
    /** Tools > Options > Expert Advisors > Allow WebRequest for listed URL. */
    listWebRequestUrls(...urls: string[]) {
      webRequestChecked = true;
      for (const url of urls) allowedUrls.add(url);
    },
  };
  return terminal;
}

export type TerminalModel = ReturnType<typeof createTerminalModel>;
