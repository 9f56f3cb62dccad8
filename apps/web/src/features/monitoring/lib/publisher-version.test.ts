import { describe, expect, it } from 'vitest';
import { isOutdatedPublisher } from './publisher-version';

describe('isOutdatedPublisher', () => {
  it('is true for versions before 1.2 only', () => {
    expect(isOutdatedPublisher('1.1.0')).toBe(true);
    expect(isOutdatedPublisher('1.0.0')).toBe(true);
    expect(isOutdatedPublisher('0.9')).toBe(true);
    expect(isOutdatedPublisher('1.2.0')).toBe(false);
    expect(isOutdatedPublisher('1.10.0')).toBe(false);
    expect(isOutdatedPublisher('2.0.0')).toBe(false);
  });

  it('does not judge what is not a version of ours', () => {
    expect(isOutdatedPublisher(null)).toBe(false);
    expect(isOutdatedPublisher('simulator-1.0')).toBe(false);
    expect(isOutdatedPublisher('')).toBe(false);
  });
});
