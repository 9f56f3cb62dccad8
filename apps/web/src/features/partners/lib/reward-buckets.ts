import { DAY_MS } from '@tradehost/contracts';
/**
 * The bars of the rewards chart: the rewards by UTC day (the API's `rewardData`, days with any)
 * summed into days, weeks (from Monday) or months, so that a long period still fits a phone's
 * width; every bucket of the period is there, the empty ones at zero.
 */

export type BucketSize = 'day' | 'week' | 'month';

export interface RewardBucket {
  /** The bucket's first day, YYYY-MM-DD (UTC). */
  start: string;
  /** Dollars. */
  amount: number;
}

/** The most bars of days, then of weeks; longer periods are shown by month. */
export const MAX_DAY_BARS = 62;
export const MAX_WEEK_BARS = 60;

const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const parseDay = (day: string) => new Date(`${day}T00:00:00Z`);

function startOf(size: BucketSize, day: Date): Date {
  if (size === 'day') return day;
  if (size === 'month') return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * DAY_MS);
}

function next(size: BucketSize, start: Date): Date {
  if (size === 'day') return new Date(start.getTime() + DAY_MS);
  if (size === 'week') return new Date(start.getTime() + 7 * DAY_MS);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

/** The size of the buckets for a period of `days` days. */
export function bucketSizeFor(days: number): BucketSize {
  if (days <= MAX_DAY_BARS) return 'day';
  if (days <= MAX_WEEK_BARS * 7) return 'week';
  return 'month';
}

/**
 * The buckets from the day of `from` (else the first reward) to the day of `to` (else `today`),
 * both ISO instants or days; amounts summed in cents, so no float error creeps into the sums.
 */
export function rewardBuckets(
  points: ReadonlyArray<{ date: string; amount: number }>,
  period: { from?: string | undefined; to?: string | undefined },
  today: Date,
): { size: BucketSize; buckets: RewardBucket[] } {
  const sorted = [...points].sort((a, b) => a.date.localeCompare(b.date));
  const firstDay = period.from
    ? parseDay(period.from.slice(0, 10))
    : sorted[0]
      ? parseDay(sorted[0].date)
      : parseDay(dayOf(today));
  // `to` is exclusive: the last day shown is the one before it
  const lastDay = period.to
    ? parseDay(dayOf(new Date(Date.parse(period.to) - 1)))
    : parseDay(dayOf(today));
  const end = lastDay < firstDay ? firstDay : lastDay;
  const size = bucketSizeFor(Math.round((end.getTime() - firstDay.getTime()) / DAY_MS) + 1);

  const cents = new Map<string, number>();
  for (const point of sorted) {
    const key = dayOf(startOf(size, parseDay(point.date)));
    cents.set(key, (cents.get(key) ?? 0) + Math.round(point.amount * 100));
  }
  const buckets: RewardBucket[] = [];
  for (let at = startOf(size, firstDay); at <= end; at = next(size, at)) {
    const start = dayOf(at);
    buckets.push({ start, amount: (cents.get(start) ?? 0) / 100 });
  }
  return { size, buckets };
}
