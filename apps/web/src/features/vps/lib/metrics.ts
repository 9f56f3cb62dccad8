import type { MetricsPoint } from '@tradehost/contracts';
import type { LineData, UTCTimestamp, WhitespaceData } from 'lightweight-charts';

/**
 * A server's load as its charts draw it: the API's figures (a share of the cores, bytes, bytes a
 * second) in the units the reader reads (%, GB, KB/s or MB/s), each point at its moment in the
 * reader's time zone, a gap where the machine was off. Pure functions of their arguments.
 */

const KB = 1024;
const MB = 1024 ** 2;
/** Memory in GB as the rates count it (a rate's 4 GB is 4096 MiB). */
export const GB = 1024 ** 3;

/** A point of a chart: a value, or none (a gap: the machine was off). */
export type ChartDatum = LineData<UTCTimestamp> | WhitespaceData<UTCTimestamp>;

/**
 * The second of a moment as the chart places it. lightweight-charts has no time zones: it reads a
 * time as UTC, so each moment is moved by the reader's offset at that moment (a summer one's and
 * a winter one's differ), and its axis and crosshair show the reader's clock.
 */
export function chartTime(at: string): UTCTimestamp {
  const date = new Date(at);
  return (Math.floor(date.getTime() / 1000) - date.getTimezoneOffset() * 60) as UTCTimestamp;
}

/** A series of the points: `value` of each (in the chart's unit), none where it is null. */
export function seriesOf(
  points: readonly MetricsPoint[],
  value: (point: MetricsPoint) => number | null,
): ChartDatum[] {
  return points.map((point) => {
    const figure = value(point);
    const time = chartTime(point.at);
    return figure === null ? { time } : { time, value: figure };
  });
}

/** Whether a series has a figure with a gap (or its edge) on either side: a point, not a line. */
export function hasIsolated(data: readonly ChartDatum[]): boolean {
  const has = (at: number) => data[at] !== undefined && 'value' in data[at];
  return data.some((_, at) => has(at) && !has(at - 1) && !has(at + 1));
}

/** The average and the peak of the figures there are, or null when there is none. */
export function summaryOf(values: readonly (number | null)[]) {
  const figures = values.filter((value): value is number => value !== null);
  if (figures.length === 0) return null;
  return {
    average: figures.reduce((sum, value) => sum + value, 0) / figures.length,
    peak: Math.max(...figures),
  };
}

export type RateUnit = 'kbps' | 'mbps';

/** The unit a chart of bytes a second reads in: MB/s once its largest figure reaches 1 MB/s. */
export function rateUnit(values: readonly (number | null)[]): RateUnit {
  return values.some((value) => value !== null && value >= MB) ? 'mbps' : 'kbps';
}

/** Bytes a second in `unit`. */
export function inRateUnit(bytesPerSecond: number, unit: RateUnit): number {
  return bytesPerSecond / (unit === 'mbps' ? MB : KB);
}

/** The figures of a point that a machine that is off has not (its memory's total it keeps). */
const LOAD = ['cpu', 'memory', 'net_in', 'net_out', 'disk_read', 'disk_write'] as const;

/** Whether the points have any figure at all (none: the server was off the whole timeframe). */
export function hasFigures(points: readonly MetricsPoint[]): boolean {
  return points.some((point) => LOAD.some((figure) => point[figure] !== null));
}

/** Digits after the point a figure is shown with: one under 10 (2.4 GB), none above (36 KB/s). */
export function fractionDigits(value: number): number {
  return Math.abs(value) < 10 ? 1 : 0;
}
