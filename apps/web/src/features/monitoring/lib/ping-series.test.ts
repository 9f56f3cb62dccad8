import { describe, expect, it } from 'vitest';
import { pingChartTime, pingSeries, pingSummary, tellsPing } from './ping-series';

const point = (minute: number, ping_ms: number, max_ms = ping_ms) => ({
  time: new Date(Date.UTC(2026, 10, 28, 10, minute)).toISOString(),
  ping_ms,
  max_ms,
});

describe('the ping chart’s series', () => {
  it('is each step’s mean, broken after a step the next is more than a step away from', () => {
    const at = (minute: number) => pingChartTime(point(minute, 0).time);
    expect(pingSeries([point(0, 24), point(1, 30), point(4, 40), point(5, 41)], 60)).toEqual([
      { time: at(0), value: 24 },
      { time: at(1), value: 30 },
      { time: at(2) },
      { time: at(4), value: 40 },
      { time: at(5), value: 41 },
    ]);
    expect(pingSeries([], 60)).toEqual([]);
  });

  it('places a moment on the reader’s clock', () => {
    const at = '2026-11-28T10:00:00.000Z';
    const offset = new Date(at).getTimezoneOffset() * 60;
    expect(pingChartTime(at)).toBe(Date.parse(at) / 1000 - offset);
  });

  it('sums a period up: the mean of the means, the longest of the steps', () => {
    expect(pingSummary([point(0, 20, 25), point(1, 40, 90)])).toEqual({ average: 30, peak: 90 });
    expect(pingSummary([])).toBeNull();
  });
});

describe('whether a publisher tells the ping', () => {
  it('is so from 1.3 on, not before; another version string is not judged', () => {
    expect(tellsPing('1.3.0')).toBe(true);
    expect(tellsPing('1.4')).toBe(true);
    expect(tellsPing('2.0.0')).toBe(true);
    expect(tellsPing('1.2.9')).toBe(false);
    expect(tellsPing('0.9')).toBe(false);
    expect(tellsPing('simulator-1.0')).toBeNull();
    expect(tellsPing(null)).toBeNull();
  });
});
