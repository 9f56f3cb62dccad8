/**
 * A made-up but steady machine load, for the simulated driver's `metrics` and the Proxmox fake's
 * rrddata: the same machine and step always give the same figures (a chart does not jump when it
 * is read again), and they move as a trading machine's do, busier while the markets are open.
 */
import { METRICS_POINTS, METRICS_STEP_SECONDS, type MetricsTimeframe } from './port.ts';

/** A number in [0, 1) that depends only on (seed, n): a 32-bit hash (murmur3's finaliser). */
function noise(seed: number, n: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(n | 0, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 2 ** 32;
}

export interface SyntheticLoad {
  /** Share of the machine's cores, 0..1. */
  cpu: number;
  memoryBytes: number;
  netInBps: number;
  netOutBps: number;
  diskReadBps: number;
  diskWriteBps: number;
}

const DAY = 86_400;

/**
 * The load of machine `seed` over the step of `stepSeconds` starting at unix second `time`: a
 * daily curve peaking in the European and American sessions, plus the step's own noise.
 */
export function syntheticLoad(
  seed: number,
  time: number,
  stepSeconds: number,
  memoryTotalBytes: number,
): SyntheticLoad {
  const dayShare = (time % DAY) / DAY;
  const session = 0.5 + 0.5 * Math.sin(2 * Math.PI * (dayShare - 0.3));
  const bucket = Math.floor(time / stepSeconds);
  const n = (k: number) => noise(seed * 7 + k, bucket);
  return {
    cpu: Math.min(1, 0.04 + 0.14 * session + 0.1 * n(1)),
    memoryBytes: Math.round(memoryTotalBytes * (0.38 + 0.12 * session + 0.06 * n(2))),
    netInBps: Math.round(12_000 + 30_000 * session + 8_000 * n(3)),
    netOutBps: Math.round(3_000 + 6_000 * session + 2_000 * n(4)),
    diskReadBps: Math.round(2_000 + 40_000 * n(5) ** 3),
    diskWriteBps: Math.round(20_000 + 60_000 * session * n(6)),
  };
}

/**
 * The start of each step of a timeframe, oldest first, the last one the step that holds `now`
 * (Proxmox's RRD aligns its steps to multiples of the step since the epoch).
 */
export function metricsSteps(timeframe: MetricsTimeframe, now: Date): number[] {
  const step = METRICS_STEP_SECONDS[timeframe];
  const last = Math.floor(now.getTime() / 1000 / step) * step;
  return Array.from({ length: METRICS_POINTS }, (_, i) => last - (METRICS_POINTS - 1 - i) * step);
}
