import type { PingResponse } from '@tradehost/contracts';
import type { LineData, UTCTimestamp, WhitespaceData } from 'lightweight-charts';

/**
 * The ping chart's figures: the API's points (a step's mean ping, only the steps with one) as a
 * line broken where steps were not measured, on the reader's clock. Pure functions.
 */

type PingPoint = PingResponse['points'][number];
export type PingDatum = LineData<UTCTimestamp> | WhitespaceData<UTCTimestamp>;

/**
 * The second of a moment as the chart places it: lightweight-charts reads a time as UTC, so each
 * moment is moved by the reader's offset then, and the axis shows the reader's clock (a day's
 * minutes read as the reader lived them).
 */
export function pingChartTime(at: string): UTCTimestamp {
  const date = new Date(at);
  return (Math.floor(date.getTime() / 1000) - date.getTimezoneOffset() * 60) as UTCTimestamp;
}

/** The mean ping of each step, a gap (a point without a value) after a step not followed by the next. */
export function pingSeries(points: readonly PingPoint[], stepSec: number): PingDatum[] {
  const data: PingDatum[] = [];
  points.forEach((point, i) => {
    const time = pingChartTime(point.time);
    data.push({ time, value: point.ping_ms });
    const next = points[i + 1];
    if (next && Date.parse(next.time) - Date.parse(point.time) > stepSec * 1000)
      data.push({ time: (time + stepSec) as UTCTimestamp });
  });
  return data;
}

/** The mean of the steps' means and the longest ping of the period, or null without points. */
export function pingSummary(points: readonly PingPoint[]) {
  if (points.length === 0) return null;
  return {
    average: points.reduce((sum, p) => sum + p.ping_ms, 0) / points.length,
    peak: Math.max(...points.map((p) => p.max_ms)),
  };
}

/**
 * Whether a publisher's version (the hello's `ea_version`, "1.3.0") tells the ping: 1.3 on.
 * Anything that is not a version of ours (none yet, the simulator's) is not judged: null.
 */
export function tellsPing(version: string | null): boolean | null {
  const match = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(version ?? '');
  if (!match) return null;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > 1 || (major === 1 && minor >= 3);
}
