import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import { createExplorers } from './index.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function load(env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'th-explorers-'));
  dirs.push(dir);
  return loadConfig(env, dir);
}

function problemsOf(env: Record<string, string>): string[] {
  try {
    load(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('CRYPTO_EXPLORER, CRYPTO_CONFIRMATIONS, TRONGRID_API_KEY', () => {
  it('has no explorer unless told: the operators check the TXIDs by hand', () => {
    const { explorers } = load({}).payments;
    expect(explorers).toEqual({
      drivers: [],
      tronGridApiKey: undefined,
      confirmations: { 'USDT-TRC20': 19, BTC: 2 },
      timeoutMs: 5_000,
    });
    expect(createExplorers(explorers).size).toBe(0);
    expect(load({ CRYPTO_EXPLORER: 'off' }).payments.explorers.drivers).toEqual([]);
  });

  it('turns on TronGrid and mempool.space with `on`, or the explorers it names', () => {
    const on = load({
      CRYPTO_EXPLORER: 'on',
      TRONGRID_API_KEY: 'a1b2c3d4-0000-1111-2222-333344445555',
    });
    expect(on.payments.explorers.drivers).toEqual([
      { network: 'USDT-TRC20', url: 'https://api.trongrid.io' },
      { network: 'BTC', url: 'https://mempool.space/api' },
    ]);
    expect(on.payments.explorers.tronGridApiKey).toBe('a1b2c3d4-0000-1111-2222-333344445555');
    const made = createExplorers(on.payments.explorers);
    expect([...made.values()].map((e) => [e.network, e.driver])).toEqual([
      ['USDT-TRC20', 'trongrid'],
      ['BTC', 'esplora'],
    ]);
    const named = load({ CRYPTO_EXPLORER: 'BTC=https://blockstream.info/api' });
    expect(named.payments.explorers.drivers).toEqual([
      { network: 'BTC', url: 'https://blockstream.info/api' },
    ]);
  });

  it('takes the depths per network over the defaults', () => {
    const config = load({ CRYPTO_CONFIRMATIONS: 'BTC=3' });
    expect(config.payments.explorers.confirmations).toEqual({ 'USDT-TRC20': 19, BTC: 3 });
  });

  it.each([
    [{ CRYPTO_EXPLORER: 'yes' }, 'CRYPTO_EXPLORER: off, on (TronGrid and mempool.space)'],
    [{ CRYPTO_EXPLORER: 'ETH=https://etherscan.io' }, 'CRYPTO_EXPLORER: off, on'],
    [{ CRYPTO_EXPLORER: 'BTC=ftp://example.com' }, 'CRYPTO_EXPLORER: off, on'],
    [{ CRYPTO_EXPLORER: 'BTC=https://a.example,BTC=https://b.example' }, 'CRYPTO_EXPLORER: off'],
    [{ CRYPTO_CONFIRMATIONS: 'BTC=0' }, 'CRYPTO_CONFIRMATIONS: a comma list of NETWORK=blocks'],
    [{ CRYPTO_CONFIRMATIONS: 'DOGE=6' }, 'CRYPTO_CONFIRMATIONS: a comma list'],
    [{ CRYPTO_CONFIRMATIONS: 'BTC=two' }, 'CRYPTO_CONFIRMATIONS: a comma list'],
    [{ TRONGRID_API_KEY: 'no spaces please' }, 'TRONGRID_API_KEY: a TronGrid API key'],
  ])('refuses %o', (env, problem) => {
    const problems = problemsOf(env);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.startsWith(problem)).toBe(true);
  });

  it('refuses an explorer over http in production', () => {
    const problems = problemsOf({
      NODE_ENV: 'production',
      CRYPTO_EXPLORER: 'USDT-TRC20=http://trongrid.internal',
    });
    expect(problems).toContain('CRYPTO_EXPLORER: must name https:// explorers in production');
  });
});
