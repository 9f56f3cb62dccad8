import { readFileSync } from 'node:fs';
import {
  DEAL_TYPES,
  INGEST_DEALS_MAX,
  INGEST_FIELDS,
  INGEST_PING_MS_MAX,
  INGEST_POSITIONS_MAX,
} from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';

/**
 * The Expert Advisors cannot be compiled here (MetaEditor runs on Windows), so this holds their
 * sources to the protocol: each message's builder writes exactly the contract's field names, and
 * the behaviours of versions 1.2, 1.3 and 1.4 are in both sources. A few functions are run as well:
 * their MQL text is turned into JavaScript (the subset they use) and exercised, so what runs is
 * the shipped code, not a copy of it.
 */
const SOURCES = ['TradeHostPublisher.mq5', 'TradeHostPublisher.mq4'].map((name) => ({
  name,
  mt5: name.endsWith('.mq5'),
  text: readFileSync(
    new URL(`../../../apps/web/public/publisher/${name}`, import.meta.url),
    'utf8',
  ),
}));

/** The text of the function `<type> <name>(...)` up to its closing brace at the line's start. */
function fn(source: string, name: string, type = '\\w+'): string {
  const start = source.search(new RegExp(`^${type} ${name}\\(`, 'm'));
  expect(start, `${name} is defined`).toBeGreaterThanOrEqual(0);
  const end = source.indexOf('\n  }\n', start);
  return source.slice(start, end + 4);
}
const body = (source: string, name: string) => fn(source, name, 'string');

/** The keys a builder writes: J*("key", ...) calls and literal "\"key\":" pieces. */
function keysOf(code: string): string[] {
  const keys = new Set<string>();
  for (const m of code.matchAll(/\bJ(?:Str|Num|Int|Bool|Null)\("([a-z_]+)"/g)) keys.add(m[1]!);
  for (const m of code.matchAll(/\\"([a-z_]+)\\":\[/g)) keys.add(m[1]!);
  return [...keys].sort();
}

const sorted = (names: readonly string[]) => [...names].sort();

/** A source without its `//` comments (what the compiler reads). */
const code = (source: string) => source.replace(/\/\/.*$/gm, '');

/** `#define NAME value` of a source, as numbers (or strings) by name. */
function defines(source: string): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (const m of source.matchAll(/^#define (\w+)\s+(-?\d+|"[^"]*")/gm))
    out[m[1]!] = m[2]!.startsWith('"') ? (JSON.parse(m[2]!) as string) : Number(m[2]);
  return out;
}

/**
 * An MQL function as JavaScript: the declarations' types become `let`, casts go, arrays declared
 * `type name[];` become `let name = [];`. Enough for the straight-line code of the functions run
 * here (no pointers, no structs).
 */
function toJs(mql: string): string {
  const TYPES = '(?:string|int|long|ulong|ushort|uint|bool|double|datetime)';
  return mql
    .replace(
      new RegExp(`^(?:${TYPES}|void) (\\w+)\\(([^)]*)\\)`),
      (_, name: string, params: string) => {
        const names = params
          .split(',')
          .map((p) => p.trim().split(/\s+/).pop() ?? '')
          .filter(Boolean);
        return `function ${name}(${names.join(', ')})`;
      },
    )
    .replace(/^void (\w+)\(\)/, 'function $1()')
    .replace(new RegExp(`\\b${TYPES} (\\w+)\\[\\];`, 'g'), 'let $1 = [];')
    .replace(new RegExp(`\\(${TYPES}\\)`, 'g'), '')
    .replace(new RegExp(`\\b${TYPES}\\s+(?=[A-Za-z_]\\w*\\s*(?:=|;|,))`, 'g'), 'let ');
}

const MQL_STRINGS = {
  StringLen: (s: string) => s.length,
  StringGetCharacter: (s: string, i: number) => s.charCodeAt(i),
  ShortToString: (c: number) => String.fromCharCode(c),
  StringFormat: (format: string, value: number) =>
    format.replace('%04x', value.toString(16).padStart(4, '0')),
};

/** The source's JEsc, running. */
function jEscOf(source: string): (s: string) => string {
  const make = new Function(
    'env',
    `const { StringLen, StringGetCharacter, ShortToString, StringFormat } = env;
     ${toJs(fn(source, 'JEsc', 'string'))}
     return JEsc;`,
  ) as (env: typeof MQL_STRINGS) => (s: string) => string;
  return make(MQL_STRINGS);
}

describe.each(SOURCES)('$name', ({ text, mt5 }) => {
  const define = defines(text);

  it('writes the protocol’s fields, no more and no fewer, in each message', () => {
    expect(keysOf(body(text, 'HelloJson'))).toEqual(sorted(INGEST_FIELDS.hello));
    expect(keysOf(body(text, 'SessionJson'))).toEqual(sorted(INGEST_FIELDS.session));
    // the excursions (1.4) go through ExcursionJson (numbers or nulls)
    expect(keysOf(body(text, 'DealJson') + body(text, 'ExcursionJson'))).toEqual(
      sorted(INGEST_FIELDS.deal),
    );
    expect(keysOf(body(text, 'DealsJson'))).toEqual(sorted(INGEST_FIELDS.deals));
    // the snapshot's ping goes through PingJson (a number or null)
    expect(body(text, 'SnapshotJson')).toContain('PingJson(connected, ping)');
    expect(keysOf(body(text, 'SnapshotJson') + body(text, 'PingJson'))).toEqual(
      sorted(INGEST_FIELDS.snapshot),
    );
    expect(body(text, 'PositionJson')).toContain('+ excursions + "}";');
    expect(keysOf(body(text, 'PositionJson') + body(text, 'ExcursionJson'))).toEqual(
      sorted(INGEST_FIELDS.position),
    );
  });

  it('is version 1.4', () => {
    expect(define.EA_VERSION).toBe('1.4.0');
    expect(text).toMatch(/^#property version\s+"1\.40"$/m);
  });

  it('tells the terminal’s last ping in whole milliseconds, and whether algo trading is allowed', () => {
    const snapshot = body(text, 'SnapshotJson');
    expect(snapshot).toContain(
      mt5
        ? 'bool connected = TerminalInfoInteger(TERMINAL_CONNECTED) != 0;'
        : 'bool connected = IsConnected();',
    );
    expect(snapshot).toContain('JBool("terminal_connected", connected)');
    // MetaTrader gives the ping in microseconds (an int), 0 until one is measured
    expect(snapshot).toContain('long ping = TerminalInfoInteger(TERMINAL_PING_LAST);');
    // the Algo Trading button, and this program's own "Allow Algo Trading"
    expect(snapshot).toContain(
      'JBool("trade_allowed", TerminalInfoInteger(TERMINAL_TRADE_ALLOWED) != 0)',
    );
    expect(snapshot).toContain('JBool("ea_trade_allowed", MQLInfoInteger(MQL_TRADE_ALLOWED) != 0)');
    // PingJson, running: MQL divides longs as integers
    const source = toJs(body(text, 'PingJson')).replace(
      '(pingUs + 500) / 1000',
      'Math.floor((pingUs + 500) / 1000)',
    );
    expect(source).toContain('Math.floor(');
    const pingJson = new Function('JInt', 'JNull', `${source}\nreturn PingJson;`)(
      (key: string, value: number) => `"${key}":${value}`,
      (key: string) => `"${key}":null`,
    ) as (connected: boolean, pingUs: number) => string;
    expect(pingJson(true, 12_345)).toBe('"ping_ms":12');
    expect(pingJson(true, 12_500)).toBe('"ping_ms":13');
    expect(pingJson(true, 400)).toBe('"ping_ms":0');
    // the longest an int of microseconds holds is the protocol's longest
    expect(pingJson(true, 2 ** 31 - 1)).toBe(`"ping_ms":${INGEST_PING_MS_MAX}`);
    expect(pingJson(true, 0)).toBe('"ping_ms":null');
    // a disconnected terminal's last ping is an old one
    expect(pingJson(false, 12_345)).toBe('"ping_ms":null');
  });

  it('calls the three endpoints with the trimmed activation key and server URL', () => {
    for (const path of ['"hello"', '"deals"', '"snapshot"'])
      expect(text).toContain(`Post(${path},`);
    expect(text).toContain('g_url + "/api/ingest/v1/"');
    expect(text).toContain('Authorization: Bearer " + g_key');
    expect(text).toContain('input string ActivationKey');
    expect(text).toContain('input string ServerUrl');
    const init = fn(text, 'OnInit', 'int');
    if (mt5) {
      // MQL5: StringTrimLeft/Right(string&) trim in place
      for (const call of [
        'g_key = ActivationKey;',
        'StringTrimLeft(g_key);',
        'StringTrimRight(g_key);',
      ])
        expect(init).toContain(call);
      for (const call of [
        'g_url = ServerUrl;',
        'StringTrimLeft(g_url);',
        'StringTrimRight(g_url);',
      ])
        expect(init).toContain(call);
    } else {
      // MQL4: StringTrimLeft/Right(const string) answer the trimmed copy
      expect(init).toContain('g_key = StringTrimRight(StringTrimLeft(ActivationKey));');
      expect(init).toContain('g_url = StringTrimRight(StringTrimLeft(ServerUrl));');
    }
    // a trailing '/' of the URL goes (every one of them)
    expect(init).toMatch(
      /while\(StringLen\(g_url\) > 0 && StringGetCharacter\(g_url, StringLen\(g_url\) - 1\) == '\/'\)\s*g_url = StringSubstr\(g_url, 0, StringLen\(g_url\) - 1\);/,
    );
    // the inputs are read once, trimmed: no call uses them as typed
    expect(code(text.replace(init, ''))).not.toMatch(/\b(?:ActivationKey|ServerUrl)\b(?! *=)/);
  });

  it('never stops for good: a refusal is tried again after a pause, with the reason on the chart', () => {
    // no state that ends publishing until the Expert Advisor is attached again
    expect(text).not.toMatch(/\bStop\(|g_stopped/);
    expect(define.REFUSAL_PAUSE_SEC).toBe(180);
    const handle = fn(text, 'Handle', 'int');
    // 401, 402, 404, 409 (and any other 4xx but 408) wait REFUSAL_PAUSE_SEC and start again with a hello
    expect(handle).toMatch(
      /if\(status >= 400 && status < 500 && status != 408\)\s*\{\s*g_helloDone = false;[^\n]*\n\s*Wait\(REFUSAL_PAUSE_SEC, Refusal\(path, status, message\)\);\s*return RES_WAIT;/,
    );
    // which the chart tells in plain words, each with what the trader can do
    const refusal = body(text, 'Refusal');
    for (const status of [401, 402, 404, 409]) expect(refusal).toContain(`status == ${status}`);
    expect(refusal).toContain('activation key');
    expect(refusal).toContain('subscription has ended');
    expect(refusal).toContain('not added to monitoring');
    expect(refusal).toContain('another activation key');
    // a hello refused as malformed (422: e.g. its time zone) is a refusal too, retried: only a deals
    // batch or a snapshot is set aside
    expect(handle).toContain(
      'if(path != "hello" && (status == 400 || status == 422)) return RES_MALFORMED;',
    );
    expect(handle).toContain('if(path != "hello" && status == 413) return RES_TOO_LARGE;');
    // Wait says what is awaited and until when
    const wait = fn(text, 'Wait', 'void');
    expect(wait).toContain('g_nextTry = TimeLocal() + seconds;');
    expect(wait).toContain('g_status = "waiting: " + why + "; trying again at "');
    expect(fn(text, 'ShowStatus', 'void')).toContain('Comment(text);');
    // 5xx and dropped connections back off as before; 429 waits its Retry-After
    expect(text).toContain('g_backoff[]   = {1, 2, 5, 15, 60}');
    expect(handle).toMatch(/g_failures\+\+;\s*Wait\(pause,/);
    expect(handle).toMatch(/if\(status == 429\)\s*\{\s*Wait\(g_retryAfter,/);
    expect(fn(text, 'Post', 'int')).toContain(
      'if(status == 429) g_retryAfter = RetryAfter(headers);',
    );
  });

  it('tries again every 30 s while WebRequest is not allowed for the URL', () => {
    expect(define.PERMISSION_PAUSE_SEC).toBeGreaterThanOrEqual(30);
    expect(define.PERMISSION_PAUSE_SEC).toBeLessThanOrEqual(60);
    const post = fn(text, 'Post', 'int');
    expect(post).toContain(mt5 ? 'if(err == 4014)' : 'if(err == 4014 || err == 4060)');
    expect(post).toMatch(/Wait\(PERMISSION_PAUSE_SEC, "WebRequest is not allowed for " \+ g_url/);
    expect(post).toContain('return NOT_ALLOWED;');
    expect(fn(text, 'Handle', 'int')).toContain('if(status == NOT_ALLOWED) return RES_WAIT;');
  });

  it('sets a malformed deals batch aside, halves a batch refused as too large, drops a refused snapshot', () => {
    expect(define.DEALS_PER_CALL).toBe(INGEST_DEALS_MAX);
    const send = fn(text, mt5 ? 'SendDeals' : 'SendQueue', 'void');
    expect(send).toMatch(/int result = Handle\("deals", status, answer\);/);
    expect(send).toMatch(
      /if\(result == RES_TOO_LARGE && g_dealsPerCall > \d\)\s*\{\s*g_dealsPerCall = \(int\)MathMax\(\d, g_dealsPerCall \/ 2\);/,
    );
    expect(send).toMatch(
      /if\(result == RES_MALFORMED \|\| result == RES_TOO_LARGE\) SetAside\([^;]+\);\s*else if\(result != RES_DONE\) return;/,
    );
    // the batch's range goes to the Experts log and the chart; the next batch follows
    const aside = fn(text, 'SetAside', 'void');
    expect(aside).toMatch(/Print\("TradeHost: the server refused [^"]*#", first, " to #", last/);
    expect(aside).toContain('g_noticeDeals =');
    expect(fn(text, 'ShowStatus', 'void')).toContain('g_noticeDeals');
    const snapshot = fn(text, 'SendSnapshot', 'bool');
    expect(snapshot).toMatch(
      /if\(result == RES_MALFORMED\)\s*\{[^}]*g_lastSnapshot = TimeLocal\(\);[^}]*return false;/,
    );
    expect(snapshot).toMatch(
      /if\(result == RES_TOO_LARGE\)\s*\{\s*g_positionsMax = \(int\)MathMax\(1, g_positionsMax \/ 2\);/,
    );
  });

  it('waits for a connected terminal with a real login, and a known server time, before the hello', () => {
    const work = fn(text, 'Work', 'void');
    const connected = mt5 ? 'TerminalInfoInteger(TERMINAL_CONNECTED) == 0' : '!IsConnected()';
    const wait = work.indexOf(`if(${connected} || g_login <= 0)`);
    expect(wait).toBeGreaterThan(0);
    expect(work).toContain('g_status = "waiting for the terminal to connect to the trade server";');
    const offset = work.indexOf('if(!g_offsetKnown)');
    const hello = work.indexOf('if(!SayHello()) return;');
    expect(wait).toBeLessThan(offset);
    expect(offset).toBeLessThan(hello);
    // the login is the one the terminal reports once it is above 0
    const timer = fn(text, 'OnTimer', 'void');
    expect(timer).toContain(
      mt5 ? 'long login = AccountInfoInteger(ACCOUNT_LOGIN);' : 'int login = AccountNumber();',
    );
    expect(timer).toContain('if(login > 0 && login != g_login) StartLogin(login);');
    expect(body(text, 'HelloJson')).toContain('JInt("login", g_login)');
  });

  it('starts every piece of state again for another login (an account switch keeps the globals)', () => {
    expect(fn(text, 'OnInit', 'int')).toContain('g_login = 0;');
    const start = fn(text, 'StartLogin', 'void');
    expect(start).toMatch(
      mt5
        ? /g_cursor = GlobalVariableCheck\(CursorName\(\)\) \? \(long\)GlobalVariableGet\(CursorName\(\)\) : -1;/
        : /g_cursor = GlobalVariableCheck\(CursorName\(\)\) \? \(datetime\)GlobalVariableGet\(CursorName\(\)\) : 0;/,
    );
    for (const reset of [
      'g_login = login;',
      'g_helloDone = false;',
      'g_snapshotNow = false;',
      'g_dealsPerCall = DEALS_PER_CALL;',
      'g_positionsMax = POSITIONS_MAX;',
      'g_nextTry = 0;',
      'g_failures = 0;',
      'ArrayResize(g_flowTicket, 0);',
      'ArrayResize(g_ex, 0);',
      'g_offsetKnown = false;',
    ])
      expect(start).toContain(reset);
    if (!mt5)
      for (const reset of [
        'g_historySeen = -1;',
        'g_roundOpen = false;',
        'g_known =',
        'g_partialWas =',
      ])
        expect(start).toContain(reset);
    expect(text).toMatch(
      /string CursorName\(\)\s+\{ return "TradeHost\.cursor\." \+ IntegerToString\(g_login\); \}/,
    );
  });

  it('escapes every control character in JSON strings', () => {
    const esc = fn(text, 'JEsc', 'string');
    for (const [code, escape] of [
      [34, '\\\\\\"'],
      [92, '\\\\\\\\'],
      [8, '\\\\b'],
      [12, '\\\\f'],
      [10, '\\\\n'],
      [13, '\\\\r'],
      [9, '\\\\t'],
    ] as const)
      expect(esc).toContain(`if(c == ${code}) out += "${escape}";`);
    expect(esc).toContain('else if(c < 32) out += StringFormat("\\\\u%04x", (int)c);');
    // and it runs: every character below 0x80, and some beyond, come back whole through JSON.parse
    const jEsc = jEscOf(text);
    const all = Array.from({ length: 0x80 }, (_, c) => String.fromCharCode(c)).join('') + 'é€ ы😀';
    const escaped = jEsc(all);
    expect([...escaped].filter((ch) => ch.charCodeAt(0) < 32)).toEqual([]);
    expect(JSON.parse(`"${escaped}"`)).toBe(all);
    expect(jEsc('EURUSD')).toBe('EURUSD');
    expect(jEsc('a\u0001b')).toBe('a\\u0001b');
    expect(JSON.parse(`{"comment":"${jEsc('tp "1"\\\r\n\t\b\f')}"}`)).toEqual({
      comment: 'tp "1"\\\r\n\t\b\f',
    });
  });

  it('keeps full precision: volume to 8 decimals, money to the currency’s digits, unknown prices to 8', () => {
    expect(define.VOLUME_DIGITS).toBe(8);
    for (const builder of ['DealJson', 'PositionJson', 'SnapshotJson']) {
      const code = body(text, builder);
      // no amount is written to a fixed 2 decimals any more
      expect(code, builder).not.toMatch(/JNum\([^;]*?, 2\)/);
      expect(code, builder).toContain('int md = MoneyDigits();');
    }
    expect(body(text, 'DealJson')).toMatch(/JNum\("volume", [^;]*?, VOLUME_DIGITS\)/);
    expect(body(text, 'PositionJson')).toMatch(/JNum\("volume", [^;]*?, VOLUME_DIGITS\)/);
    expect(body(text, 'DealJson')).toMatch(/JNum\("price", [^;]*?, PriceDigits\(digits\)\)/);
    expect(fn(text, 'PriceDigits', 'int')).toContain('return digits > 0 ? digits : 8;');
    const money = fn(text, 'MoneyDigits', 'int');
    if (mt5) expect(money).toContain('AccountInfoInteger(ACCOUNT_CURRENCY_DIGITS)');
    else expect(money).toContain('return 2;');
    // MQL5: a delisted symbol's SymbolInfoInteger fails; its digits are then unknown (0)
    if (mt5)
      expect(fn(text, 'SymbolDigits', 'int')).toContain(
        '!SymbolInfoInteger(symbol, SYMBOL_DIGITS, d)) return 0;',
      );
  });

  it('sends magic so a 64-bit value fits', () => {
    expect(body(text, 'DealJson')).toContain(
      mt5
        ? 'JStr("magic", IntegerToString(HistoryDealGetInteger(ticket, DEAL_MAGIC)))'
        : 'JInt("magic", OrderMagicNumber())',
    );
  });

  it('sends equity_before only for a balance deal seen live, the same value on a retry', () => {
    expect(define.LIVE_WINDOW_SEC).toBe(10);
    const before = fn(text, 'EquityBefore', 'double');
    // a value kept with the ticket comes first: a retried batch sends what the first one did
    expect(before).toMatch(
      /int at = FlowIndex\(ticket\);\s*if\(at >= 0\) return g_flowEquity\[at\];/,
    );
    // then only within the live window of the server's clock
    expect(before).toContain(
      mt5
        ? 'if(MathAbs((double)(TimeTradeServer() - time)) > LIVE_WINDOW_SEC) return EMPTY_VALUE;'
        : 'if(!g_offsetKnown || MathAbs((double)(TimeGMT() + g_offset - time)) > LIVE_WINDOW_SEC) return EMPTY_VALUE;',
    );
    // and only once the account counts the deal
    expect(before).toMatch(
      /HistoryBalance\(\)\) >= 0\.5 \* MathPow\(10, -MoneyDigits\(\)\)\)\s*return EMPTY_VALUE;/,
    );
    const deal = body(text, 'DealJson');
    expect(deal).toContain(
      '(before == EMPTY_VALUE ? JNull("equity_before") : JNum("equity_before", before, md))',
    );
    if (mt5) {
      expect(deal).toContain(
        'double before = type == "balance" ? EquityBefore(ticket) : EMPTY_VALUE;',
      );
      // the old rule (any balance deal sent while the cursor was known) is gone
      expect(text).not.toContain('SendDeals(g_cursor >= 0)');
    } else {
      const orderDeals = fn(text, 'OrderDeals', 'int');
      expect(orderDeals).toMatch(
        /if\(type == OP_BALANCE\)\s*\{\s*before = EquityBefore\(ticket, OrderOpenTime\(\), OrderProfit\(\)\);\s*if\(!OrderSelect\(ticket, SELECT_BY_TICKET, MODE_HISTORY\)\) return 0;/,
      );
      expect(orderDeals).toContain('DealJson(true, EMPTY_VALUE)');
    }
    // noticed as soon as the balance moves, even while the server is not answering
    expect(fn(text, 'WatchAccount', 'void')).toMatch(
      /if\(.*balance != g_lastBalance \|\| credit != g_lastCredit\)+\s*(?:\{[^}]*)?NoticeFlows\(\);/,
    );
  });

  it('at a balance or credit deal resets the equity low/high and sends a snapshot at once, after the deals', () => {
    const flow = fn(text, 'Flow', 'void');
    expect(flow).toContain('g_equityLow = ');
    expect(flow).toContain('g_equityHigh = ');
    expect(flow).toContain('g_snapshotNow = true;');
    expect(fn(text, mt5 ? 'DealJson' : 'OrderDeals', mt5 ? 'string' : 'int')).toContain(
      mt5 ? 'if(type == "balance" || type == "credit") Flow();' : 'if(cash) Flow();',
    );
    const work = fn(text, 'Work', 'void');
    const deals = work.indexOf(mt5 ? 'SendDeals();' : 'SendQueue();');
    const snapshot = work.indexOf(
      'if(g_snapshotNow || TimeLocal() - g_lastSnapshot >= g_snapshotSec) SendSnapshot();',
    );
    expect(deals).toBeGreaterThan(0);
    expect(snapshot).toBeGreaterThan(deals);
    expect(fn(text, 'SendSnapshot', 'bool')).toMatch(
      /if\(result != RES_DONE\) return false;\s*g_lastSnapshot = TimeLocal\(\);\s*g_snapshotNow = false;/,
    );
  });

  it('sends the first 1,000 positions and positions_total when more are open', () => {
    expect(define.POSITIONS_MAX).toBe(INGEST_POSITIONS_MAX);
    const snapshot = body(text, 'SnapshotJson');
    expect(snapshot).toMatch(/sent < g_positionsMax|if\(sent >= g_positionsMax\) continue;/);
    expect(snapshot).toContain('(total > sent ? "," + JInt("positions_total", total) : "")');
    expect(snapshot).toContain('g_noticePositions = total > sent');
    expect(fn(text, 'ShowStatus', 'void')).toContain('g_noticePositions');
  });

  it('syncs a long history in pieces: IsStopped in the loops, a few batches a timer tick', () => {
    expect(define.CALLS_PER_TICK).toBeGreaterThan(0);
    expect(define.CALLS_PER_TICK).toBeLessThanOrEqual(5);
    const collect = mt5 ? fn(text, 'PendingDeals', 'int') : fn(text, 'Collect', 'void');
    expect(collect).toMatch(/if\(i % 1000 == 0 && IsStopped\(\)\) return/);
    const send = fn(text, mt5 ? 'SendDeals' : 'SendQueue', 'void');
    expect(send).toMatch(
      /for\(int call = 0; call < CALLS_PER_TICK && [^;]+ && !IsStopped\(\); call\+\+\)/,
    );
  });

  it('says hello again when the server’s offset changes (daylight saving) and once a day', () => {
    const clock = fn(text, 'WatchServerClock', 'void');
    expect(clock).toMatch(/GlobalVariableSet\(OffsetName\(\), [^;]+\);\s*g_helloDone = false;/);
    expect(fn(text, 'Work', 'void')).toContain(
      'if(g_helloDone && TimeLocal() - g_helloAt >= 86400) g_helloDone = false;',
    );
    expect(body(text, 'HelloJson')).toContain('JInt("server_time_offset_sec", g_offset)');
    expect(text).toContain('string OffsetName() { return "TradeHost.offset." + StringSubstr(');
    // deal times use the verified (or cached) offset, snapshots this computer's UTC
    expect(text).toMatch(
      mt5
        ? /long utcMsc = serverMsc - \(long\)g_offset \* 1000;/
        : /return UtcIso\(serverTime - g_offset\);/,
    );
    expect(body(text, 'SnapshotJson')).toContain(
      mt5 ? 'JStr("time", UtcIso(TimeGMT(), 0))' : 'JStr("time", UtcIso(TimeGMT()))',
    );
  });

  it('tells the broker’s trade sessions of the Market Watch symbols in its hello', () => {
    const list = body(text, 'SessionsList');
    expect(list).toContain('SymbolsTotal(true)');
    expect(list).toContain('SymbolInfoSessionTrade(name, (ENUM_DAY_OF_WEEK)day, i, from, to)');
    expect(list).toContain('SessionJson(day, start, m)');
    expect(body(text, 'HelloJson')).toContain('"\\"sessions\\":[" + SessionsList() + "]}"');
  });

  /**
   * The source's excursion functions (1.4), running: ExIndex, ExSee, ExcursionJson and the
   * closing deal's DealExcursions against a scripted deal (MT5) or closed order (MT4), the
   * global variables empty (nothing kept).
   */
  function excursionsOf(deal: { type: string; profit: number; price: number; open: number }) {
    const make = new Function(
      'env',
      `const { ArraySize, ArrayResize, MathMin, MathMax, JNum, JNull, ExKept, HistoryDealGetInteger, HistoryDealGetDouble, OrderType, OrderTicket, OrderSymbol, OrderProfit, OrderClosePrice, OrderOpenPrice, MarketInfo } = env;
       const DEAL_POSITION_ID = 1, DEAL_PROFIT = 2, DEAL_PRICE = 3, OP_BUY = 0, OP_SELL = 1, MODE_POINT = 11;
       let g_ex = [];
       ${toJs(fn(text, 'ExIndex', 'int'))}
       ${toJs(fn(text, 'ExSee', 'void'))}
       ${toJs(fn(text, 'ExcursionJson', 'string'))}
       ${toJs(fn(text, 'DealExcursions', 'string'))}
       return { ExSee, DealExcursions, ExcursionJson, watched: () => g_ex };`,
    ) as (env: Record<string, unknown>) => {
      ExSee: (...args: number[]) => void;
      DealExcursions: (...args: unknown[]) => string;
      ExcursionJson: (...args: unknown[]) => string;
      watched: () => Array<Record<string, number | boolean>>;
    };
    const POSITION = 7;
    return make({
      ArraySize: (array: unknown[]) => array.length,
      ArrayResize: (array: object[], size: number) => {
        while (array.length < size) array.push({});
        array.length = size;
        return size;
      },
      MathMin: Math.min,
      MathMax: Math.max,
      JNum: (key: string, value: number, digits: number) => `"${key}":${value.toFixed(digits)}`,
      JNull: (key: string) => `"${key}":null`,
      ExKept: () => false,
      // MT5: the closing deal of position POSITION
      HistoryDealGetInteger: () => POSITION,
      HistoryDealGetDouble: (_: number, what: number) => (what === 2 ? deal.profit : deal.price),
      // MT4: the closed order POSITION, selected
      OrderType: () => (deal.type === 'sell' ? 0 : 1),
      OrderTicket: () => POSITION,
      OrderSymbol: () => 'EURUSD',
      OrderProfit: () => deal.profit,
      OrderClosePrice: () => deal.price,
      OrderOpenPrice: () => deal.open,
      MarketInfo: () => 0.00001,
    });
  }

  it('watches each open position’s excursions in money and points, and sends them with it and on its closing deal', () => {
    // every tick and timer pass, while connected, before the snapshot and the deals are sent
    const watch = fn(text, 'WatchPositions', 'void');
    expect(watch).toContain(
      mt5
        ? 'if(TerminalInfoInteger(TERMINAL_CONNECTED) == 0 || g_login <= 0) return;'
        : 'if(!IsConnected() || g_login <= 0) return;',
    );
    // the profit without swap and commission (MetaTrader's own MAE/MFE), the move in points from
    // the price a close would get (a buy's bid, a sell's ask)
    if (mt5) {
      expect(watch).toContain('double current = PositionGetDouble(POSITION_PRICE_CURRENT);');
      expect(watch).toContain('double point = SymbolInfoDouble(symbol, SYMBOL_POINT);');
      expect(watch).toContain(
        'double points = (point > 0 && current > 0) ? dir * (current - open) / point : 0.0;',
      );
      // per position id (a deal's DEAL_POSITION_ID) and direction: a netting reversal starts another
      expect(watch).toContain(
        'ExSee(PositionGetInteger(POSITION_IDENTIFIER), dir, open, point, PositionGetDouble(POSITION_PROFIT), points, i);',
      );
    } else {
      expect(watch).toContain(
        'double current = dir > 0 ? MarketInfo(OrderSymbol(), MODE_BID) : MarketInfo(OrderSymbol(), MODE_ASK);',
      );
      expect(watch).toContain(
        'double points = (point > 0 && current > 0) ? dir * (current - OrderOpenPrice()) / point : 0.0;',
      );
      expect(watch).toContain(
        'ExSee(OrderTicket(), dir, OrderOpenPrice(), point, OrderProfit(), points, at);',
      );
    }
    expect(fn(text, 'OnTick', 'void')).toContain('WatchPositions();');
    const timer = fn(text, 'OnTimer', 'void');
    expect(timer.indexOf('WatchPositions();')).toBeGreaterThan(0);
    expect(timer.indexOf('WatchPositions();')).toBeLessThan(timer.indexOf('Work();'));
    // the snapshot's positions and the closing deals carry them
    expect(body(text, 'PositionJson')).toMatch(
      /string excursions = i >= 0 \? ExcursionJson\(true, g_ex\[i\]\.mae, g_ex\[i\]\.mfe, g_ex\[i\]\.maePoints, g_ex\[i\]\.mfePoints, md\)\s+: ExcursionJson\(false, 0, 0, 0, 0, md\);/,
    );
    expect(body(text, 'DealJson')).toContain(
      mt5
        ? '+ DealExcursions(ticket, type, entry, md) + "}";'
        : '+ (closing && !cash ? DealExcursions(md) : ExcursionJson(false, 0, 0, 0, 0, md)) + "}";',
    );

    // running: a buy of 1 lot at 1.10000 (a point 0.00001 is 1.00) falls 30 points, rises 50,
    // and is closed at 1.10020 (+20)
    const run = excursionsOf({ type: 'sell', profit: 20, price: 1.1002, open: 1.1 });
    for (const [profit, points] of [
      [0, 0],
      [-30, -30],
      [-12, -12],
      [50, 50],
      [20, 20],
    ])
      run.ExSee(7, 1, 1.1, 0.00001, profit!, points!, 0);
    expect(run.watched()).toEqual([
      expect.objectContaining({ id: 7, dir: 1, mae: -30, mfe: 50, maePoints: -30, mfePoints: 50 }),
    ]);
    const closing = JSON.parse(
      `{${mt5 ? run.DealExcursions(1, 'sell', 'out', 2) : run.DealExcursions(2)}}`,
    );
    expect(closing).toEqual({ mae: -30, mfe: 50, mae_points: -30, mfe_points: 50 });
    // another position is told nothing; a first sight starts from 0 (at most 0, at least 0)
    run.ExSee(8, -1, 1.1, 0.00001, 5, 5, 1);
    expect(run.watched()[1]).toMatchObject({ id: 8, dir: -1, mae: 0, mfe: 5 });
    expect(JSON.parse(`{${run.ExcursionJson(false, 0, 0, 0, 0, 2)}}`)).toEqual({
      mae: null,
      mfe: null,
      mae_points: null,
      mfe_points: null,
    });
    // the close's own price and profit count: a gap through the stop is in the MAE
    const gapped = excursionsOf({ type: 'sell', profit: -80, price: 1.0992, open: 1.1 });
    gapped.ExSee(7, 1, 1.1, 0.00001, -30, -30, 0);
    expect(
      JSON.parse(
        `{${mt5 ? gapped.DealExcursions(1, 'sell', 'out', 2) : gapped.DealExcursions(2)}}`,
      ),
    ).toEqual({ mae: -80, mfe: 0, mae_points: -80, mfe_points: 0 });
    if (mt5) {
      // an opening deal carries none; a netting reversal's inout (a sell) closes the buy, not
      // the sell it opens
      expect(JSON.parse(`{${run.DealExcursions(1, 'buy', 'in', 2)}}`).mae).toBeNull();
      run.ExSee(7, -1, 1.1002, 0.00001, -3, -3, 2);
      expect(JSON.parse(`{${run.DealExcursions(1, 'sell', 'inout', 2)}}`)).toEqual(closing);
      expect(JSON.parse(`{${run.DealExcursions(1, 'buy', 'out', 2)}}`)).toMatchObject({
        mae: -3,
        mae_points: -3,
      });
    }
  });

  it('keeps the excursions in the terminal’s global variables over a restart, and forgets a closed position’s once its deals are sent', () => {
    expect(define.EX_SAVE_SEC).toBe(30);
    expect(define.EX_GONE_SEC).toBe(60);
    // per login, position and direction, within MetaTrader's 63 characters of a global's name
    const name = new Function(
      'env',
      `const { IntegerToString } = env; const g_login = ${mt5 ? '9223372036854775807' : '2147483647'};
       ${toJs(fn(text, 'ExName', 'string'))}
       return ExName;`,
    )({ IntegerToString: (v: number | bigint) => String(v) }) as (
      id: number,
      dir: number,
      field: string,
    ) => string;
    expect(name(123, 1, 'mae')).toMatch(/^TradeHost\.ex\.\d+\.123\.b\.mae$/);
    expect(name(Number.MAX_SAFE_INTEGER * 1000, -1, 'mfep').length).toBeLessThanOrEqual(63);
    // a position first seen starts from what they kept
    expect(fn(text, 'ExSee', 'void')).toContain('ExKept(id, dir, mae, mfe, maePoints, mfePoints);');
    const save = fn(text, 'ExSave', 'void');
    for (const field of ['mae', 'mfe', 'maep', 'mfep'])
      expect(save).toContain(`GlobalVariableSet(ExName(g_ex[k].id, g_ex[k].dir, "${field}"),`);
    // on disk: a terminal that crashes keeps them too
    expect(save).toContain('if(wrote) GlobalVariablesFlush();');
    const watch = fn(text, 'WatchPositions', 'void');
    expect(watch).toContain('if(now - g_exSavedAt >= EX_SAVE_SEC) ExSave();');
    expect(fn(text, 'OnDeinit', 'void')).toContain('if(g_login > 0) ExSave();');
    // a closed position is forgotten (its globals deleted) once its closing deal went out
    if (mt5) {
      expect(watch).toMatch(/g_ex\[k\]\.gone = now;\s*g_dealsDue = true;/);
      expect(watch).toContain(
        'else if(now - g_ex[k].gone >= EX_GONE_SEC && !g_dealsDue) ExForget(k);',
      );
    } else {
      expect(watch).toContain('bool sent = !g_roundOpen && OrdersHistoryTotal() == g_historySeen;');
      expect(watch).toContain('else if(now - g_ex[k].gone >= EX_GONE_SEC && sent) ExForget(k);');
    }
    const forget = fn(text, 'ExForget', 'void');
    for (const field of ['mae', 'mfe', 'maep', 'mfep'])
      expect(forget).toContain(`GlobalVariableDel(ExName(g_ex[k].id, g_ex[k].dir, "${field}"));`);
  });
});

describe('TradeHostPublisher.mq5', () => {
  const { text } = SOURCES[0]!;

  it('maps every MQL5 deal type to the protocol’s, and an unknown one to a correction it logs', () => {
    const code = fn(text, 'DealType', 'string');
    const mapped: Record<string, string> = {};
    let pending: string[] = [];
    for (const line of code.split('\n')) {
      for (const m of line.matchAll(/case (\w+):/g)) pending.push(m[1]!);
      const ret = /return "(\w+)";/.exec(line);
      if (ret && pending.length > 0) {
        for (const name of pending) mapped[name] = ret[1]!;
        pending = [];
      }
    }
    const commission = [
      'DEAL_TYPE_COMMISSION',
      'DEAL_TYPE_COMMISSION_DAILY',
      'DEAL_TYPE_COMMISSION_MONTHLY',
      'DEAL_TYPE_COMMISSION_AGENT_DAILY',
      'DEAL_TYPE_COMMISSION_AGENT_MONTHLY',
    ];
    // ENUM_DEAL_TYPE as MQL5 names it (the dividends and the tax have no TYPE_ in their names)
    expect(mapped).toEqual({
      DEAL_TYPE_BUY: 'buy',
      DEAL_TYPE_SELL: 'sell',
      DEAL_TYPE_BALANCE: 'balance',
      DEAL_TYPE_CREDIT: 'credit',
      DEAL_TYPE_CHARGE: 'charge',
      DEAL_TYPE_CORRECTION: 'correction',
      DEAL_TYPE_BONUS: 'bonus',
      ...Object.fromEntries(commission.map((name) => [name, 'commission'])),
      DEAL_TYPE_INTEREST: 'interest',
      DEAL_TYPE_BUY_CANCELED: 'canceled',
      DEAL_TYPE_SELL_CANCELED: 'canceled',
      DEAL_DIVIDEND: 'dividend',
      DEAL_DIVIDEND_FRANKED: 'dividend',
      DEAL_TAX: 'tax',
    });
    for (const type of Object.values(mapped)) expect(DEAL_TYPES).toContain(type);
    // no default that would turn an unknown type into anything but a logged correction
    expect(code).not.toContain('default:');
    expect(code).toMatch(
      /\}\s*Print\("TradeHost: deal #", ticket, [^;]+\);\s*return "correction";/,
    );
  });

  it('sends the deal tickets after the cursor in ascending order, the cursor moving after each answer', () => {
    const pending = fn(text, 'PendingDeals', 'int');
    expect(pending).toContain('if(n > 1) ArraySort(tickets);');
    // a deposit made while the last quote is Friday's is inside the selection
    expect(pending).toContain('HistorySelect(0, HistoryEnd())');
    const send = fn(text, 'SendDeals', 'void');
    expect(send).toMatch(
      /g_cursor = \(long\)tickets\[at - 1\];\s*GlobalVariableSet\(CursorName\(\), \(double\)g_cursor\);/,
    );
  });
});

describe('TradeHostPublisher.mq4', () => {
  const { text } = SOURCES[1]!;
  const define = defines(text);

  /** The source's WatchServerClock, running against a scripted terminal. */
  function clockOf(terminal: { connected: boolean; quote: number; local: number; gmt: number }) {
    const make = new Function(
      'env',
      `const { IsConnected, TimeCurrent, TimeLocal, TimeGMT, GlobalVariableSet, OffsetName, Print } = env;
       const MathAbs = Math.abs, MathRound = Math.round;
       const QUOTE_SPAN_SEC = ${define.QUOTE_SPAN_SEC}, QUOTE_SLACK_SEC = ${define.QUOTE_SLACK_SEC};
       let g_lastQuote = 0, g_anchorQuote = 0, g_anchorLocal = 0;
       let g_offset = 0, g_offsetKnown = false, g_helloDone = true;
       ${toJs(fn(text, 'WatchServerClock', 'void'))}
       return { tick: WatchServerClock, state: () => ({ offset: g_offset, known: g_offsetKnown }) };`,
    ) as (env: Record<string, unknown>) => {
      tick: () => void;
      state: () => { offset: number; known: boolean };
    };
    const cached: number[] = [];
    return {
      cached,
      ...make({
        IsConnected: () => terminal.connected,
        TimeCurrent: () => terminal.quote,
        TimeLocal: () => terminal.local,
        TimeGMT: () => terminal.gmt,
        GlobalVariableSet: (_: string, value: number) => cached.push(value),
        OffsetName: () => 'TradeHost.offset.Broker-Live',
        Print: () => {},
      }),
    };
  }

  it('learns the server’s offset only from fresh quotes: never from a weekend’s frozen TimeCurrent', () => {
    const utc = Date.UTC(2026, 2, 1, 10, 0, 0) / 1000; // Sunday 10:00 UTC
    const offset = 2 * 3600; // the broker's server runs at UTC+2
    const fridayClose = Date.UTC(2026, 1, 27, 21, 59, 58) / 1000 + offset;
    const terminal = { connected: false, quote: fridayClose - 3600, local: utc, gmt: utc };
    const clock = clockOf(terminal);
    const advance = (seconds: number) => {
      terminal.local += seconds;
      terminal.gmt += seconds;
    };
    // starting on Sunday: the terminal connects and catches up to Friday's last quotes, then nothing
    clock.tick();
    terminal.connected = true;
    for (const step of [0, 2, 3, 1]) {
      terminal.quote = fridayClose - step;
      clock.tick();
      advance(1);
    }
    terminal.quote = fridayClose;
    for (let s = 0; s < 600; s++) {
      clock.tick();
      advance(1);
    }
    // a catch-up that happens to come in step with the clock for a moment is not enough either
    terminal.quote += 5;
    advance(5);
    clock.tick();
    expect(clock.state().known).toBe(false);
    expect(clock.cached).toEqual([]);
    // Monday's first quotes, live: the offset is known, to the quarter hour, and cached
    terminal.quote = terminal.gmt + offset + 1;
    clock.tick();
    // (the first fresh quote is matched against the last weekend one: not in step; the next ones are)
    for (let s = 0; s < 45; s++) {
      advance(1);
      terminal.quote = terminal.gmt + offset - 1; // quotes a second old when looked at
      clock.tick();
    }
    expect(clock.state()).toEqual({ offset, known: true });
    expect(clock.cached).toEqual([offset]);
  });

  it('never sends a hello with an unverified offset: the cached one, or it waits and says so', () => {
    const work = fn(text, 'Work', 'void');
    expect(work).toMatch(
      /LoadOffset\(\);\s*if\(!g_offsetKnown\)\s*\{\s*g_status = "waiting for a fresh quote/,
    );
    expect(fn(text, 'LoadOffset', 'void')).toContain(
      'g_offset = (int)GlobalVariableGet(OffsetName());',
    );
    // TimeCurrent() is read for the offset only in WatchServerClock
    expect(code(text.replace(fn(text, 'WatchServerClock', 'void'), ''))).not.toContain(
      'TimeCurrent()',
    );
  });

  /** The source's Collect, running against a scripted order history. */
  function historyOf() {
    const make = new Function(
      'env',
      `const { OrdersHistoryTotal, OrderSelect, OrderType, OrderCloseTime, OrderOpenTime, OrderProfit, OrderTicket, ArrayResize, IsStopped, Print } = env;
       const OP_BUY = 0, OP_SELL = 1, OP_BALANCE = ${define.OP_BALANCE}, OP_CREDIT = ${define.OP_CREDIT};
       const SELECT_BY_POS = 0, MODE_HISTORY = 1, HISTORY_PARTIAL = ${JSON.stringify(define.HISTORY_PARTIAL)};
       let g_cursor = 0, g_known = -1, g_partialWas = false, g_historySeen = -1, g_roundOpen = false;
       let g_queue = [], g_queueAt = 0, g_queueSize = 0, g_queueNewest = 0, g_queueKnown = 0, g_queuePartial = false, g_queueTotal = 0;
       let g_noticeHistory = "";
       ${toJs(fn(text, 'Collect', 'void'))}
       // what SendQueue does once the round is sent (held to its source below)
       function finish() {
         g_cursor = g_queueNewest; g_known = g_queueKnown; g_partialWas = g_queuePartial;
         g_historySeen = g_queueTotal; g_roundOpen = false;
       }
       return { Collect, finish, state: () => ({ queue: g_queue.slice(0, g_queueSize), notice: g_noticeHistory, cursor: g_cursor }) };`,
    ) as (env: Record<string, unknown>) => {
      Collect: () => void;
      finish: () => void;
      state: () => { queue: number[]; notice: string; cursor: number };
    };
    type Order = { ticket: number; type: number; open: number; close: number; profit: number };
    const visible: Order[] = [];
    let selected: Order | undefined;
    const run = make({
      OrdersHistoryTotal: () => visible.length,
      OrderSelect: (i: number) => ((selected = visible[i]), selected !== undefined),
      OrderType: () => selected!.type,
      OrderCloseTime: () => selected!.close,
      OrderOpenTime: () => selected!.open,
      OrderProfit: () => selected!.profit,
      OrderTicket: () => selected!.ticket,
      ArrayResize: (array: unknown[], size: number) => ((array.length = size), size),
      IsStopped: () => false,
      Print: () => {},
    });
    return { visible, ...run };
  }

  it('finds a cut Account History, says how to show it all, and sends everything again once older orders appear', () => {
    const day = 86400;
    const t0 = Date.UTC(2026, 0, 5) / 1000;
    const orders = [
      { ticket: 1, type: define.OP_BALANCE as number, open: t0, close: t0, profit: 1000 },
      ...Array.from({ length: 40 }, (_, i) => ({
        ticket: 10 + i,
        type: i % 2,
        open: t0 + (i + 1) * day,
        close: t0 + (i + 1) * day + 3600,
        profit: 5,
      })),
    ];
    const history = historyOf();
    // the tab shows the last month only: no deposit, a trade first
    history.visible.push(...orders.filter((o) => o.close >= t0 + 11 * day));
    history.Collect();
    expect(history.state().notice).toBe(
      'Account History shows only part of the history: right-click the Account History tab and choose All History',
    );
    expect(history.state().queue).toHaveLength(30);
    history.finish();
    // a new close: only it is sent, and what closed in the cursor's last minute (the server keeps
    // each deal once)
    const next = { ticket: 99, type: 0, open: t0 + 45 * day, close: t0 + 45 * day + 60, profit: 1 };
    history.visible.push(next);
    history.Collect();
    expect(history.state().queue).toEqual([49, 99]);
    history.finish();
    // the trader chooses All History: the older orders appear, and the whole history goes again
    history.visible.length = 0;
    history.visible.push(...orders, next);
    history.Collect();
    expect(history.state().queue).toHaveLength(orders.length + 1);
    expect(history.state().notice).toBe('');
    history.finish();
    history.Collect();
    expect(history.state().queue).toEqual([99]);
    // the round's end in the source is what finish() above does
    const send = fn(text, 'SendQueue', 'void');
    for (const line of [
      'g_cursor = g_queueNewest;',
      'g_known = g_queueKnown;',
      'g_partialWas = g_queuePartial;',
      'g_historySeen = g_queueTotal;',
      'g_roundOpen = false;',
    ])
      expect(send).toContain(line);
    // and the cut is on the chart
    expect(fn(text, 'ShowStatus', 'void')).toContain('g_noticeHistory');
  });

  it('splits an order’s commission so the two deals add up to it', () => {
    const deal = body(text, 'DealJson');
    expect(deal).toContain(
      'double opening = cash ? 0 : NormalizeDouble(OrderCommission() / 2, md);',
    );
    expect(deal).toContain(
      'double commission = cash ? 0 : (closing ? OrderCommission() - opening : opening);',
    );
  });
});
