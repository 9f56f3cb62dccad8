import { describe, expect, it } from 'vitest';
import { createFormatters, isOverdue, toCents } from './format';

describe('createFormatters', () => {
  const en = createFormatters('en');

  it('shows dollars with two decimals, signed when asked', () => {
    expect(en.money(1234.5)).toBe('$1,234.50');
    expect(en.signedMoney(25)).toBe('+$25.00');
    expect(en.signedMoney(-25)).toBe('\u2212$25.00');
    expect(en.signedMoney(0)).toBe('$0.00');
    expect(createFormatters('ru').money(1234.5)).toMatch(/^1\s234,50\s\$$/);
  });

  it('shows a moment as a date and a time, and a text that is not one as it is', () => {
    expect(en.dateTime('2025-03-05T14:02:00Z')).toMatch(/^Mar\u00a05,\u00a02025, /u);
    expect(en.dateTime('not a date')).toBe('not a date');
  });

  it('says how long ago', () => {
    const now = Date.parse('2025-03-05T12:00:00Z');
    expect(en.age('2025-03-05T11:30:00Z', now)).toBe('30 min. ago');
    expect(en.age('2025-03-05T09:00:00Z', now)).toBe('3 hr. ago');
    expect(en.age('2025-03-03T12:00:00Z', now)).toBe('2 days ago');
  });

  it('says "now" under a minute, not "0 min. ago"', () => {
    const now = Date.parse('2025-03-05T12:00:00Z');
    expect(en.age('2025-03-05T11:59:20Z', now)).toBe('now');
    expect(createFormatters('ru').age('2025-03-05T11:59:20Z', now)).toBe('сейчас');
    expect(en.age('2025-03-05T11:59:00Z', now)).toBe('1 min. ago');
  });

  it('counts cents and overdue reviews', () => {
    expect(toCents(10.1)).toBe(1010);
    expect(isOverdue('2025-03-04T11:59:00Z', Date.parse('2025-03-05T12:00:00Z'))).toBe(true);
    expect(isOverdue('2025-03-04T12:30:00Z', Date.parse('2025-03-05T12:00:00Z'))).toBe(false);
  });
});
