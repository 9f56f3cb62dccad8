import { describe, expect, it } from 'vitest';
import { bucketSizeFor, rewardBuckets } from './reward-buckets';

const today = new Date('2026-11-23T00:00:00Z');

describe('rewardBuckets', () => {
  it('has one bar per day of a short period, the days without rewards at zero', () => {
    const { size, buckets } = rewardBuckets(
      [
        { date: '2026-11-22', amount: 8 },
        { date: '2026-11-20', amount: 4.5 },
      ],
      { from: '2026-11-19T00:00:00.000Z' },
      today,
    );
    expect(size).toBe('day');
    expect(buckets).toEqual([
      { start: '2026-11-19', amount: 0 },
      { start: '2026-11-20', amount: 4.5 },
      { start: '2026-11-21', amount: 0 },
      { start: '2026-11-22', amount: 8 },
      { start: '2026-11-23', amount: 0 },
    ]);
  });

  it('starts at the first reward without a start, and ends the day before an exclusive end', () => {
    const { buckets } = rewardBuckets(
      [{ date: '2026-11-10', amount: 1 }],
      { to: '2026-11-12T00:00:00.000Z' },
      today,
    );
    expect(buckets.map((b) => b.start)).toEqual(['2026-11-10', '2026-11-11']);
  });

  it('sums in cents: 0.10 + 0.20 is 0.30 exactly', () => {
    const { buckets } = rewardBuckets(
      [
        { date: '2026-11-23', amount: 0.1 },
        { date: '2026-11-23', amount: 0.2 },
      ],
      {},
      today,
    );
    expect(buckets).toEqual([{ start: '2026-11-23', amount: 0.3 }]);
  });

  it('groups a quarter by weeks from Monday and more than 60 weeks by month', () => {
    const quarter = rewardBuckets(
      [
        { date: '2026-11-18', amount: 2 }, // Wednesday
        { date: '2026-11-22', amount: 3 }, // Sunday, same week
        { date: '2026-11-23', amount: 5 }, // Monday
      ],
      { from: '2026-08-23T00:00:00.000Z' },
      today,
    );
    expect(quarter.size).toBe('week');
    expect(quarter.buckets.at(-2)).toEqual({ start: '2026-11-16', amount: 5 });
    expect(quarter.buckets.at(-1)).toEqual({ start: '2026-11-23', amount: 5 });
    expect(quarter.buckets.every((b) => new Date(`${b.start}T00:00:00Z`).getUTCDay() === 1)).toBe(
      true,
    );

    const years = rewardBuckets([{ date: '2024-02-29', amount: 1 }], {}, today);
    expect(years.size).toBe('month');
    expect(years.buckets[0]).toEqual({ start: '2024-02-01', amount: 1 });
    expect(years.buckets.at(-1)).toEqual({ start: '2026-11-01', amount: 0 });
    expect(years.buckets).toHaveLength(34);
  });

  it('chooses the bar size by the length of the period', () => {
    expect(bucketSizeFor(1)).toBe('day');
    expect(bucketSizeFor(62)).toBe('day');
    expect(bucketSizeFor(63)).toBe('week');
    expect(bucketSizeFor(420)).toBe('week');
    expect(bucketSizeFor(421)).toBe('month');
  });

  it('shows today alone when there are no rewards and no start', () => {
    expect(rewardBuckets([], {}, today).buckets).toEqual([{ start: '2026-11-23', amount: 0 }]);
  });
});
