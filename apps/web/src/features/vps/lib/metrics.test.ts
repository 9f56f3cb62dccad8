import { describe, expect, it } from 'vitest';
import { metrics, metricsOff } from '../test-utils';
import {
  chartTime,
  fractionDigits,
  hasFigures,
  hasIsolated,
  inRateUnit,
  rateUnit,
  seriesOf,
  summaryOf,
} from './metrics';

describe("a server's load as its charts draw it", () => {
  it('places a moment at the reader’s clock (the library reads every time as UTC)', () => {
    const at = '2026-11-10T11:54:00.000Z';
    const offset = new Date(at).getTimezoneOffset() * 60;
    expect(chartTime(at)).toBe(Date.parse(at) / 1000 - offset);
  });

  it('leaves a gap, not a zero, where the machine was off', () => {
    const { points } = metrics();
    const cpu = seriesOf(points, (point) => point.cpu);
    expect(cpu).toHaveLength(points.length);
    expect(cpu[2]).toEqual({ time: chartTime(points[2]!.at) });
    expect(cpu[0]).toEqual({ time: chartTime(points[0]!.at), value: 0.2 });
  });

  it('knows a figure with a gap on either side, which is a dot rather than a line', () => {
    const series = (...values: (number | null)[]) =>
      seriesOf(
        values.map((cpu, minute) => ({
          ...metrics().points[0]!,
          at: `2026-11-10T11:0${minute}:00.000Z`,
          cpu,
        })),
        (point) => point.cpu,
      );
    expect(hasIsolated(series(null, null, 0.2))).toBe(true);
    expect(hasIsolated(series(0.1, null, 0.2, 0.3))).toBe(true);
    expect(hasIsolated(series(0.1, 0.2, null, 0.2, 0.3))).toBe(false);
  });

  it('averages and peaks the figures there are', () => {
    expect(summaryOf([1, null, 3, 5])).toEqual({ average: 3, peak: 5 });
    expect(summaryOf([null, null])).toBeNull();
  });

  it('reads traffic in KB/s, in MB/s once a figure reaches 1 MB/s', () => {
    expect(rateUnit([30_720, null, 1_048_575])).toBe('kbps');
    expect(rateUnit([null, 1_048_576])).toBe('mbps');
    expect(inRateUnit(30_720, 'kbps')).toBe(30);
    expect(inRateUnit(1_572_864, 'mbps')).toBe(1.5);
    expect([fractionDigits(2.44), fractionDigits(36.2)]).toEqual([1, 0]);
  });

  it('knows a timeframe the machine was off all along', () => {
    expect(hasFigures(metricsOff().points)).toBe(false);
    expect(hasFigures(metrics().points)).toBe(true);
  });
});
