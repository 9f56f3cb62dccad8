import { readFileSync } from 'node:fs';
import { INGEST_FIELDS } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';

/**
 * The Expert Advisors cannot be compiled here (MetaEditor runs on Windows), so this holds their
 * sources to the protocol: each message's builder writes exactly the contract's field names.
 */
const SOURCES = ['TradeHostPublisher.mq5', 'TradeHostPublisher.mq4'].map((name) => ({
  name,
  text: readFileSync(
    new URL(`../../../apps/web/public/publisher/${name}`, import.meta.url),
    'utf8',
  ),
}));

/** The body of `string <name>(...)` up to its closing brace at the line's start. */
function body(source: string, name: string): string {
  const start = source.search(new RegExp(`^string ${name}\\(`, 'm'));
  expect(start, `${name} is defined`).toBeGreaterThanOrEqual(0);
  const end = source.indexOf('\n  }\n', start);
  return source.slice(start, end);
}

/** The keys a builder writes: J*("key", ...) calls and literal "\"key\":" pieces. */
function keysOf(code: string): string[] {
  const keys = new Set<string>();
  for (const m of code.matchAll(/\bJ(?:Str|Num|Int|Bool|Null)\("([a-z_]+)"/g)) keys.add(m[1]!);
  for (const m of code.matchAll(/\\"([a-z_]+)\\":\[/g)) keys.add(m[1]!);
  return [...keys].sort();
}

const sorted = (names: readonly string[]) => [...names].sort();

describe.each(SOURCES)('$name', ({ text }) => {
  it('writes the protocol’s fields, no more and no fewer, in each message', () => {
    expect(keysOf(body(text, 'HelloJson'))).toEqual(sorted(INGEST_FIELDS.hello));
    expect(keysOf(body(text, 'SessionJson'))).toEqual(sorted(INGEST_FIELDS.session));
    expect(keysOf(body(text, 'DealJson'))).toEqual(sorted(INGEST_FIELDS.deal));
    expect(keysOf(body(text, 'DealsJson'))).toEqual(sorted(INGEST_FIELDS.deals));
    expect(keysOf(body(text, 'SnapshotJson'))).toEqual(sorted(INGEST_FIELDS.snapshot));
    expect(keysOf(body(text, 'PositionJson'))).toEqual(sorted(INGEST_FIELDS.position));
  });

  it('calls the three endpoints with the activation key, and never retries a refusal', () => {
    for (const path of ['"hello"', '"deals"', '"snapshot"'])
      expect(text).toContain(`Post(${path},`);
    expect(text).toContain('"/api/ingest/v1/"');
    expect(text).toContain('Authorization: Bearer " + ActivationKey');
    // a 4xx (but 429) stops with the server's message; 5xx backs off
    expect(text).toMatch(
      /status >= 400 && status < 500\)\s*\{\s*string message = Field\(answer, "message"\);\s*Stop\(/,
    );
    expect(text).toContain('g_backoff[]   = {1, 2, 5, 15, 60}');
    expect(text).toContain('RetryAfter(headers)');
    expect(text).toMatch(/#define DEALS_PER_CALL 500/);
    expect(text).toContain('input string ActivationKey');
    expect(text).toContain('input string ServerUrl');
  });

  it('tells the broker’s trade sessions of the Market Watch symbols in its hello', () => {
    const list = body(text, 'SessionsList');
    expect(list).toContain('SymbolsTotal(true)');
    expect(list).toContain('SymbolInfoSessionTrade(name, (ENUM_DAY_OF_WEEK)day, i, from, to)');
    expect(list).toContain('SessionJson(day, start, m)');
    expect(body(text, 'HelloJson')).toContain('"\\"sessions\\":[" + SessionsList() + "]}"');
  });
});
