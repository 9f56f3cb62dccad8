import * as contracts from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { englishErrorText, errorCodeOf, isErrorCode } from './error-codes';

describe('the console’s error codes', () => {
  it('know every code of the API and its English text, as the contracts do', () => {
    for (const [code, text] of Object.entries(contracts.ERROR_MESSAGES)) {
      expect(isErrorCode(code), code).toBe(true);
      expect(englishErrorText(code as contracts.ErrorCode)).toBe(text);
      expect(errorCodeOf(text)).toBe(contracts.errorCodeOf(text));
    }
  });

  it('know nothing else', () => {
    for (const value of ['NOPE', 'toString', '__proto__', '', 42, null])
      expect(isErrorCode(value), String(value)).toBe(contracts.isErrorCode(value));
    expect(errorCodeOf('Some text the API never sends')).toBeUndefined();
  });
});
