/**
 * A clock the simulator's terminal and Expert Advisor read instead of the machine's, so a
 * scenario covering a weekend or a 3-minute retry runs in milliseconds: nothing waits, time
 * moves when the driver moves it.
 */
export interface VirtualClock {
  now(): Date;
  /** Milliseconds since 1970 now. */
  ms(): number;
  advance(ms: number): void;
  /** Moves the clock on by `ms` at once: what `sleep` is for code written against a real one. */
  sleep(ms: number): Promise<void>;
}

export function createVirtualClock(start: Date | number | string): VirtualClock {
  let at = new Date(start).getTime();
  if (!Number.isFinite(at)) throw new Error(`not a moment: ${String(start)}`);
  return {
    now: () => new Date(at),
    ms: () => at,
    advance(ms) {
      if (!(ms >= 0)) throw new Error(`the clock goes forward only (${ms} ms)`);
      at += ms;
    },
    async sleep(ms) {
      this.advance(ms);
    },
  };
}
