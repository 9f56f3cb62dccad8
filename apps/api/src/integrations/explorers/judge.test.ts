import { describe, expect, it } from 'vitest';
import { formatUnits, parseUnits, sameAddress } from './judge.ts';

describe('amounts in an asset’s smallest units', () => {
  it.each([
    [50_370_000n, 6, 0, '50.37'],
    [50_370_000n, 6, 2, '50.37'],
    [1_000_000n, 6, 2, '1.00'],
    [1_000_000n, 6, 0, '1'],
    [50_375_000n, 6, 2, '50.375'],
    [1n, 8, 0, '0.00000001'],
    [50_370n, 8, 0, '0.0005037'],
    [0n, 8, 2, '0.00'],
  ])('%s with %i decimals (at least %i shown) is %s', (units, decimals, shown, text) => {
    expect(formatUnits(units, decimals, shown)).toBe(text);
  });

  it('reads a decimal back, and refuses one finer than the asset', () => {
    expect(parseUnits('50.37', 6)).toBe(50_370_000n);
    expect(parseUnits('50.37000000', 6)).toBe(50_370_000n);
    expect(parseUnits('0.0005037', 8)).toBe(50_370n);
    expect(parseUnits('7', 8)).toBe(700_000_000n);
    expect(parseUnits('0.000000001', 8)).toBeNull();
    expect(parseUnits('-1', 8)).toBeNull();
    expect(parseUnits('1e3', 8)).toBeNull();
  });
});

describe('addresses', () => {
  it('compares bech32 in any case, base58 to the letter', () => {
    const bech32 = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
    expect(sameAddress(bech32, bech32.toUpperCase())).toBe(true);
    const tron = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
    expect(sameAddress(tron, tron)).toBe(true);
    expect(sameAddress(tron, tron.toLowerCase())).toBe(false);
  });
});
