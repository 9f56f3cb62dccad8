import { describe, expect, it } from 'vitest';
import { needsRefresh, TOKEN_REFRESH_THRESHOLD_MS } from './token';

const now = Date.parse('2025-06-01T12:00:00.000Z');
const isoIn = (ms: number) => new Date(now + ms).toISOString();

describe('needsRefresh', () => {
  it('uses the 5 second threshold of the spec', () => {
    expect(TOKEN_REFRESH_THRESHOLD_MS).toBe(5_000);
  });

  it('keeps a token with plenty of time left', () => {
    expect(needsRefresh(isoIn(60_000), now)).toBe(false);
  });

  it('keeps a token with exactly 5 seconds left', () => {
    expect(needsRefresh(isoIn(5_000), now)).toBe(false);
  });

  it('refreshes a token with under 5 seconds left', () => {
    expect(needsRefresh(isoIn(4_999), now)).toBe(true);
    expect(needsRefresh(isoIn(1), now)).toBe(true);
  });

  it('refreshes a token that has already expired', () => {
    expect(needsRefresh(isoIn(0), now)).toBe(true);
    expect(needsRefresh(isoIn(-3_600_000), now)).toBe(true);
  });

  it('refreshes when the expiry is missing or unreadable', () => {
    expect(needsRefresh(null, now)).toBe(true);
    expect(needsRefresh(undefined, now)).toBe(true);
    expect(needsRefresh('', now)).toBe(true);
    expect(needsRefresh('not a date', now)).toBe(true);
  });
});
