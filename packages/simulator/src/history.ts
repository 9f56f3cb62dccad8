import type { IngestDeal, IngestPosition, Platform } from '@tradehost/contracts';
import { HOUR_MS, DAY_MS } from '@tradehost/contracts';

/**
 * A trading account's history, made up but shaped like a real one: a first deposit, then on
 * weekdays a few trades on majors and gold (a random walk of prices, profits in the account's
 * currency with commission and overnight swap), now and then a further deposit or a withdrawal
 * with the equity just before it, and a credit line. The same seed gives the same history.
 * Each trade's closing deal carries its excursions as publisher 1.4 tells them (from
 * `excursionsFrom` on: the trades closed before it went out with an older publisher).
 */

export interface Instrument {
  symbol: string;
  digits: number;
  /** Units per lot. */
  contract: number;
  /** Where its price walk starts. */
  price: number;
  /** Typical move in an hour, as a fraction of the price. */
  hourlyMove: number;
  /** The profit of one unit of price move, in USD, at `price` (quote currency conversion). */
  quoteIsUsd: boolean;
}

export const INSTRUMENTS: readonly Instrument[] = [
  {
    symbol: 'EURUSD',
    digits: 5,
    contract: 100_000,
    price: 1.085,
    hourlyMove: 0.0012,
    quoteIsUsd: true,
  },
  {
    symbol: 'GBPUSD',
    digits: 5,
    contract: 100_000,
    price: 1.27,
    hourlyMove: 0.0014,
    quoteIsUsd: true,
  },
  {
    symbol: 'USDJPY',
    digits: 3,
    contract: 100_000,
    price: 151.2,
    hourlyMove: 0.0013,
    quoteIsUsd: false,
  },
  { symbol: 'XAUUSD', digits: 2, contract: 100, price: 2350, hourlyMove: 0.0025, quoteIsUsd: true },
];

export interface HistoryOptions {
  seed: number;
  platform: Platform;
  from: Date;
  to: Date;
  /** The first deposit (USD). */
  deposit?: number;
  /** Trades per weekday on average. */
  tradesPerDay?: number;
  /** The first ticket (tickets grow from there). */
  firstTicket?: number;
  /** Trades closed from here on carry their excursions (publisher 1.4): all unless said. */
  excursionsFrom?: Date;
}

export interface History {
  deals: IngestDeal[];
  balance: number;
  credit: number;
  /** The history's last ticket. */
  lastTicket: number;
}

/** A deal's fields that a cash flow (or a deal not filled in yet) leaves empty. */
export const NO_TRADE_FIELDS = {
  symbol: '',
  digits: 0,
  volume: 0,
  price: 0,
  profit: 0,
  swap: 0,
  commission: 0,
  fee: 0,
  magic: 0,
  comment: '',
} as const;

/** mulberry32: a small, fast, seedable generator (the simulator's only randomness). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));
const cents = (value: number) => round(value, 2);

/** Profit in USD of `volume` lots moved from `open` to `close` (long when sign 1). */
export function tradeProfit(
  instrument: Instrument,
  volume: number,
  open: number,
  close: number,
  sign: 1 | -1,
): number {
  const quote = (close - open) * sign * volume * instrument.contract;
  return cents(instrument.quoteIsUsd ? quote : quote / close);
}

/**
 * A made-up trade's excursions (publisher 1.4): its worst and best price move in points, beyond
 * where it closed by up to 60 % of the instrument's typical move over the trade's hours, and
 * the profit of each; drawn from the trade's own generator, so the history's walk is the same
 * with or without them.
 */
function excursionsOf(
  instrument: Instrument,
  trade: { volume: number; open: number; close: number; sign: 1 | -1; hours: number },
  rnd: () => number,
): Pick<IngestDeal, 'mae' | 'mfe' | 'mae_points' | 'mfe_points'> {
  const point = 10 ** -instrument.digits;
  const move = ((trade.close - trade.open) * trade.sign) / point;
  const swing = (instrument.hourlyMove * Math.sqrt(trade.hours) * trade.open) / point;
  const maePoints = round(Math.min(0, move) - rnd() * 0.6 * swing, 1);
  const mfePoints = round(Math.max(0, move) + rnd() * 0.6 * swing, 1);
  const moneyAt = (points: number) =>
    tradeProfit(
      instrument,
      trade.volume,
      trade.open,
      trade.open + points * point * trade.sign,
      trade.sign,
    );
  return {
    mae: Math.min(0, moneyAt(maePoints)),
    mfe: Math.max(0, moneyAt(mfePoints)),
    mae_points: maePoints,
    mfe_points: mfePoints,
  };
}

export function generateHistory(options: HistoryOptions): History {
  const rnd = random(options.seed);
  const prices = new Map(INSTRUMENTS.map((i) => [i.symbol, i.price]));
  const deals: IngestDeal[] = [];
  let ticket = options.firstTicket ?? 1_000_001;
  let balance = 0;
  let credit = 0;

  const base = (time: number) => ({
    ...NO_TRADE_FIELDS,
    ticket: ticket++,
    order: 0,
    position_id: 0,
    time: new Date(time).toISOString(),
  });
  const cash = (time: number, amount: number, comment: string) => {
    const deal: IngestDeal = {
      ...base(time),
      type: 'balance',
      entry: 'in',
      profit: cents(amount),
      comment,
      equity_before: cents(balance + credit),
    };
    deal.order = deal.ticket;
    deals.push(deal);
    balance = cents(balance + amount);
  };

  cash(options.from.getTime(), options.deposit ?? 10_000, 'Deposit');
  const creditAt = options.from.getTime() + 2 * DAY_MS;
  if (creditAt < options.to.getTime()) {
    deals.push({ ...base(creditAt), type: 'credit', entry: 'in', profit: 500, comment: 'Credit' });
    credit = 500;
  }

  const perDay = options.tradesPerDay ?? 3;
  const magic = 20_260_101;
  for (let day = options.from.getTime() + DAY_MS; day < options.to.getTime(); day += DAY_MS) {
    const date = new Date(day);
    const weekday = date.getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const midnight = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
    // a deposit or a withdrawal about once a month, before the session
    if (rnd() < 1 / 22) {
      const amount = rnd() < 0.6 ? 1000 * (1 + Math.floor(rnd() * 5)) : -0.1 * balance;
      cash(midnight + 6 * HOUR_MS, amount, amount > 0 ? 'Deposit' : 'Withdrawal');
    }
    let clock = midnight + 7 * HOUR_MS + rnd() * HOUR_MS;
    const trades = Math.floor(rnd() * (2 * perDay + 1));
    for (let i = 0; i < trades; i += 1) {
      const instrument = INSTRUMENTS[Math.floor(rnd() * INSTRUMENTS.length)]!;
      const hours = 0.2 + rnd() * (rnd() < 0.1 ? 20 : 5);
      const open = prices.get(instrument.symbol)!;
      // a walk with an edge for the trader: 60 % of moves lean their way
      const sign: 1 | -1 = rnd() < 0.5 ? 1 : -1;
      const move =
        instrument.hourlyMove * Math.sqrt(hours) * (rnd() * 2 - 1 + (rnd() < 0.6 ? 0.4 : -0.4));
      const close = round(open * (1 + move * sign), instrument.digits);
      prices.set(instrument.symbol, close);
      // about 0.05-0.5 lots of a major per $10,000 (a tenth of that in gold)
      const size =
        (balance / 10_000) * (0.05 + rnd() * 0.45) * (instrument.contract < 1000 ? 0.1 : 1);
      const volume = round(Math.max(0.01, size), 2);
      const openTime = clock;
      const closeTime = openTime + hours * HOUR_MS;
      if (closeTime >= options.to.getTime()) break;
      const commission = cents(-3.5 * volume);
      const nights = Math.floor((closeTime - midnight) / DAY_MS);
      const swap = cents(nights * -0.7 * volume * 10);
      const profit = tradeProfit(instrument, volume, open, close, sign);
      const position = ticket;
      const side = {
        symbol: instrument.symbol,
        digits: instrument.digits,
        volume,
        magic,
        position_id: position,
        fee: 0,
      };
      deals.push({
        ...base(openTime),
        ...side,
        order: position,
        type: sign === 1 ? 'buy' : 'sell',
        entry: 'in',
        price: open,
        commission,
        comment: 'sim',
        position_id: position,
      });
      const told = closeTime >= (options.excursionsFrom?.getTime() ?? -Infinity);
      deals.push({
        ...base(closeTime),
        ...side,
        order: ticket,
        type: sign === 1 ? 'sell' : 'buy',
        entry: 'out',
        price: close,
        profit,
        swap,
        commission,
        comment: 'sim',
        ...(told
          ? excursionsOf(
              instrument,
              { volume, open, close, sign, hours },
              random(options.seed * 7919 + position),
            )
          : {}),
      });
      balance = cents(balance + profit + swap + 2 * commission);
      clock = closeTime + rnd() * 2 * HOUR_MS;
    }
  }
  deals.sort((a, b) => Date.parse(a.time) - Date.parse(b.time) || a.ticket - b.ticket);
  return { deals, balance, credit, lastTicket: ticket - 1 };
}

/**
 * A snapshot of the account at `time` holding one open position of `volume` lots opened an hour
 * before: balance and credit as the history left them, equity moved by the position's profit.
 */
export function snapshotAt(
  history: Pick<History, 'balance' | 'credit'>,
  login: number,
  time: Date,
  rnd: () => number,
  open = true,
) {
  const instrument = INSTRUMENTS[0]!;
  const openPrice = instrument.price;
  const current = round(openPrice * (1 + (rnd() - 0.5) * 0.004), instrument.digits);
  const volume = 0.5;
  const profit = open ? tradeProfit(instrument, volume, openPrice, current, 1) : 0;
  // its excursions (publisher 1.4): a quarter beyond where it is now, each way
  const point = 10 ** -instrument.digits;
  const points = (current - openPrice) / point;
  const maePoints = round(Math.min(0, points) - Math.abs(points) * 0.25, 1);
  const mfePoints = round(Math.max(0, points) + Math.abs(points) * 0.25, 1);
  const moneyAt = (move: number) =>
    tradeProfit(instrument, volume, openPrice, openPrice + move * point, 1);
  const equity = cents(history.balance + history.credit + profit);
  const margin = open ? cents((volume * instrument.contract * current) / 100) : 0;
  const positions: IngestPosition[] = open
    ? [
        {
          ticket: 9_000_001,
          symbol: instrument.symbol,
          type: 'buy',
          volume,
          open_time: new Date(time.getTime() - HOUR_MS).toISOString(),
          open_price: openPrice,
          current_price: current,
          sl: round(openPrice * 0.99, instrument.digits),
          tp: round(openPrice * 1.01, instrument.digits),
          profit,
          swap: 0,
          mae: Math.min(0, moneyAt(maePoints)),
          mfe: Math.max(0, moneyAt(mfePoints)),
          mae_points: maePoints,
          mfe_points: mfePoints,
        },
      ]
    : [];
  return {
    login,
    time: time.toISOString(),
    balance: history.balance,
    equity,
    margin,
    free_margin: cents(equity - margin),
    credit: history.credit,
    equity_low: cents(Math.min(equity, equity - Math.abs(profit) * 0.2)),
    equity_high: cents(Math.max(equity, equity + Math.abs(profit) * 0.2)),
    terminal_connected: true,
    positions,
  };
}
