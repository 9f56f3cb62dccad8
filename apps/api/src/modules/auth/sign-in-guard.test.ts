import { describe, expect, it } from 'vitest';
import {
  delayAfter,
  NO_FAILURES,
  SIGN_IN_FAILURE_MEMORY_MS,
  SIGN_IN_LOCK_MS,
  UnknownEmails,
  verdict,
  type ThrottleState,
} from './sign-in-guard.ts';

const T0 = new Date('2025-06-01T12:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

/** Fails `n` times in a row, each try as soon as it is allowed; returns the state and when. */
function failTimes(n: number): { state: ThrottleState; time: number } {
  let state = NO_FAILURES;
  let time = 0;
  for (let i = 0; i < n; i += 1) {
    let decided = verdict(state, at(time));
    if (decided.kind === 'throttled') {
      time += decided.retryAfterMs;
      decided = verdict(state, at(time));
    }
    if (decided.kind !== 'try') throw new Error(`try ${i + 1} refused: ${decided.kind}`);
    state = decided.claimed;
  }
  return { state, time };
}

describe('the sign-in limit per account', () => {
  it('lets the first 4 failures through at once, then wants 1, 2, 4, 8, 16, 32 seconds between tries', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20].map(delayAfter)).toEqual([
      0, 0, 0, 0, 1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000,
    ]);
    const { state } = failTimes(4);
    expect(state.failures).toBe(4);
    expect(verdict(state, state.lastFailureAt!)).toEqual({ kind: 'throttled', retryAfterMs: 1000 });
    expect(verdict(state, at(999 + state.lastFailureAt!.getTime() - T0.getTime()))).toMatchObject({
      kind: 'throttled',
      retryAfterMs: 1,
    });
  });

  it('locks for 15 minutes with the 10th failure, then counts on: one more failure locks again', () => {
    const nine = failTimes(9);
    expect(nine.state.lockedUntil).toBeNull();
    const tenth = verdict(nine.state, at(nine.time + 32_000));
    expect(tenth.kind).toBe('try');
    const locked = (tenth as { claimed: ThrottleState }).claimed;
    expect(locked.failures).toBe(10);
    expect(locked.lockedUntil).toEqual(at(nine.time + 32_000 + SIGN_IN_LOCK_MS));
    const lockTime = nine.time + 32_000;
    expect(verdict(locked, at(lockTime + SIGN_IN_LOCK_MS - 1000))).toEqual({
      kind: 'locked',
      retryAfterMs: 1000,
    });
    const after = verdict(locked, at(lockTime + SIGN_IN_LOCK_MS));
    expect(after).toMatchObject({ kind: 'try', claimed: { failures: 11 } });
    expect((after as { claimed: ThrottleState }).claimed.lockedUntil).not.toBeNull();
  });

  it('forgets failures a day old', () => {
    const { state, time } = failTimes(7);
    const later = verdict(state, at(time + SIGN_IN_FAILURE_MEMORY_MS));
    expect(later).toMatchObject({ kind: 'try', claimed: { failures: 1, lockedUntil: null } });
  });

  it('remembers unknown e-mails case-insensitively, the least recently tried forgotten first', () => {
    const memory = new UnknownEmails(2);
    const failed = { failures: 3, lastFailureAt: T0, lockedUntil: null };
    memory.set('A@example.com', failed);
    memory.set('b@example.com', failed);
    memory.set('a@example.com', { ...failed, failures: 4 }); // a is now the most recent
    memory.set('c@example.com', failed);
    expect(memory.size).toBe(2);
    expect(memory.get('b@example.com')).toBe(NO_FAILURES);
    expect(memory.get('a@EXAMPLE.com').failures).toBe(4);
  });
});
