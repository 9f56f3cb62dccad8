import { describe, expect, it } from 'vitest';
import type { TradeSessions } from './monitoring.alerts.evaluate.ts';
import {
  advanceVerification,
  type HostedPoint,
  NOT_FOLLOWED,
  type VerificationState,
  verificationOf,
} from './monitoring.verification.ts';

/** Minutes of Wednesday 7 January 2026 (UTC), and of other days of that week. */
const wed = (hhmm: string, seconds = 0) => Date.parse(`2026-01-07T${hhmm}:${pad(seconds)}Z`);
const fri = (hhmm: string) => Date.parse(`2026-01-09T${hhmm}:00Z`);
const sat = (hhmm: string) => Date.parse(`2026-01-10T${hhmm}:00Z`);
const sun = (hhmm: string) => Date.parse(`2026-01-11T${hhmm}:00Z`);
const mon = (hhmm: string) => Date.parse(`2026-01-05T${hhmm}:00Z`);
const pad = (n: number) => String(n).padStart(2, '0');

const hosted = (...ats: number[]): HostedPoint[] => ats.map((at) => ({ at, hosted: true }));
const from = (hostedness: boolean | null, ...ats: number[]): HostedPoint[] =>
  ats.map((at) => ({ at, hosted: hostedness }));
const follow = (points: HostedPoint[], sessions?: TradeSessions) =>
  advanceVerification(NOT_FOLLOWED, points, sessions);

describe('advanceVerification: the run over the equity points', () => {
  it('starts a run at the first hosted point and keeps it over silences of up to 10 market minutes', () => {
    // 10:01 -> 10:10 is 9 minutes, 10:10 -> 10:20 is 10: neither is longer than the window
    expect(follow(hosted(wed('10:00'), wed('10:01'), wed('10:10'), wed('10:20')))).toEqual({
      runStartedAt: wed('10:00'),
      lastHostedAt: wed('10:20'),
      checkedUntil: wed('10:20'),
      brokenReason: null,
      brokenFrom: null,
      brokenTo: null,
    });
  });

  it('breaks it at a silence of 11 minutes in market hours, the later point starting the next run', () => {
    expect(follow(hosted(wed('10:00'), wed('10:20'), wed('10:31'), wed('10:32')))).toEqual({
      runStartedAt: wed('10:31'),
      lastHostedAt: wed('10:32'),
      checkedUntil: wed('10:32'),
      brokenReason: 'gap',
      brokenFrom: wed('10:20'),
      brokenTo: wed('10:31'),
    });
  });

  it('counts no weekend: Friday 21:55 to Sunday 22:03 is 5 + 3 market minutes', () => {
    expect(follow(hosted(fri('21:55'), sun('22:03')))).toMatchObject({
      runStartedAt: fri('21:55'),
      lastHostedAt: sun('22:03'),
      brokenReason: null,
    });
    // to 22:06 it is 5 + 6 = 11: a break, however short the weekend made it look
    expect(follow(hosted(fri('21:55'), sun('22:06')))).toMatchObject({
      runStartedAt: sun('22:06'),
      brokenReason: 'gap',
      brokenFrom: fri('21:55'),
      brokenTo: sun('22:06'),
    });
  });

  it('counts the broker’s own sessions: its daily break is not a silence', () => {
    // open all week but Wednesday 21:00-22:00 UTC (minutes of the week from Sunday 00:00)
    const breakAt = 3 * 1440 + 21 * 60;
    const sessions: TradeSessions = [
      [0, breakAt],
      [breakAt + 60, 7 * 1440],
    ];
    // 20:55 -> 22:05 is 5 + 5 market minutes with the break, 70 in the Forex week
    expect(follow(hosted(wed('20:55'), wed('22:05')), sessions).brokenReason).toBeNull();
    expect(follow(hosted(wed('20:55'), wed('22:05'))).brokenReason).toBe('gap');
    // and Saturday is open for this broker: a silence there counts
    expect(follow(hosted(sat('10:00'), sat('10:11')), sessions).brokenReason).toBe('gap');
  });

  it('breaks it at a point from elsewhere, whose stretch is the break’s span; the next hosted point starts anew', () => {
    const points = [
      ...hosted(wed('10:00'), wed('10:01')),
      ...from(false, wed('10:02'), wed('10:03')),
      ...hosted(wed('10:04')),
    ];
    expect(follow(points.slice(0, 3))).toMatchObject({
      runStartedAt: null,
      lastHostedAt: wed('10:01'),
      brokenReason: 'elsewhere',
      brokenFrom: wed('10:02'),
      brokenTo: wed('10:02'),
    });
    expect(follow(points)).toEqual({
      runStartedAt: wed('10:04'),
      lastHostedAt: wed('10:04'),
      checkedUntil: wed('10:04'),
      brokenReason: 'elsewhere',
      brokenFrom: wed('10:02'),
      brokenTo: wed('10:03'),
    });
  });

  it('takes an unknown point (null: older than the flag, or sent late) as no evidence either way', () => {
    // before the first known-hosted point: no run is older than it
    expect(follow([...from(null, wed('09:00'), wed('09:01')), ...hosted(wed('10:00'))])).toEqual({
      runStartedAt: wed('10:00'),
      lastHostedAt: wed('10:00'),
      checkedUntil: wed('10:00'),
      brokenReason: null,
      brokenFrom: null,
      brokenTo: null,
    });
    // inside a run: it does not break it, nor bridge a silence (measured from the last hosted)
    expect(
      follow([...hosted(wed('10:00')), ...from(null, wed('10:05')), ...hosted(wed('10:09'))]),
    ).toMatchObject({ runStartedAt: wed('10:00'), brokenReason: null });
    expect(
      follow([
        ...hosted(wed('10:00')),
        ...from(null, wed('10:05'), wed('10:10'), wed('10:15')),
        ...hosted(wed('10:16')),
      ]),
    ).toMatchObject({
      runStartedAt: wed('10:16'),
      brokenReason: 'gap',
      brokenFrom: wed('10:00'),
      brokenTo: wed('10:16'),
    });
  });

  it('records no break for an account never hosted: there was no run to break', () => {
    expect(follow(from(false, wed('10:00'), wed('10:01')))).toEqual({
      ...NOT_FOLLOWED,
      checkedUntil: wed('10:01'),
    });
    // its first hosted point starts a run, with nothing said of before
    expect(follow([...from(false, wed('10:00')), ...hosted(wed('10:30'))])).toMatchObject({
      runStartedAt: wed('10:30'),
      brokenReason: null,
    });
  });

  it('goes on from where it stopped, passing over the points already followed', () => {
    const points = [
      ...hosted(wed('10:00'), wed('10:05')),
      ...from(false, wed('10:06')),
      ...hosted(wed('10:07'), wed('10:30')),
    ];
    const once = follow(points);
    const first = follow(points.slice(0, 2));
    // the second batch starts again at the last followed minute: passed over, not counted twice
    expect(advanceVerification(first, points.slice(1))).toEqual(once);
    expect(advanceVerification(once, points)).toEqual(once);
    // two cash-flow segments of one minute: the same minute, no silence
    expect(follow(hosted(wed('10:00'), wed('10:00'), wed('10:01'))).lastHostedAt).toBe(
      wed('10:01'),
    );
  });
});

describe('verificationOf: the mark now', () => {
  /** A run from Wednesday 10:00 to 11:00, the account's first equity point at 10:00:10. */
  const running: VerificationState = {
    runStartedAt: wed('10:00'),
    lastHostedAt: wed('11:00'),
    checkedUntil: wed('11:00'),
    brokenReason: null,
    brokenFrom: null,
    brokenTo: null,
  };
  const facts = {
    now: wed('11:05'),
    periodFrom: wed('10:00', 10),
    equitySince: wed('10:00', 10),
    historyIncomplete: false,
  };

  it('verifies a run that began with the first equity point, goes on, with a history that adds up', () => {
    expect(verificationOf(running, facts)).toEqual({
      verified: true,
      reason: null,
      since: '2026-01-07T10:00:00.000Z',
      last_hosted_at: '2026-01-07T11:00:00.000Z',
      period_from: '2026-01-07T10:00:10.000Z',
      covered: 1,
      checked_at: '2026-01-07T11:00:00.000Z',
      broken_from: null,
      broken_to: null,
    });
  });

  it('covers only the period since the first equity point: deals sent from before it were not watched', () => {
    // the first deal Monday 09:00: Monday 09:00 -> Wednesday 11:05 is 2 days and 125 minutes of
    // market time (3,005 minutes), of which the run covers 10:00 -> 11:05, 65
    const v = verificationOf(running, { ...facts, periodFrom: mon('09:00') });
    expect(v).toMatchObject({ verified: true, period_from: '2026-01-05T09:00:00.000Z' });
    expect(v.covered).toBeCloseTo(65 / 3005, 12);
  });

  it('loses it when the publisher has been silent longer than the window and the settling time', () => {
    // 14 market minutes since the last hosted point: the job may not have followed the last 4
    expect(verificationOf(running, { ...facts, now: wed('11:14') }).verified).toBe(true);
    const silent = verificationOf(running, { ...facts, now: wed('11:15') });
    expect(silent).toMatchObject({ verified: false, reason: 'silent_now' });
    // the run covered 10:00:10 -> 11:00 of 10:00:10 -> 11:15
    expect(silent.covered).toBeCloseTo(59 / 74, 12);
    // over a weekend the market is shut: no silence
    const friday = { ...running, runStartedAt: fri('10:00'), lastHostedAt: fri('21:55') };
    expect(
      verificationOf(friday, {
        ...facts,
        now: sat('12:00'),
        periodFrom: fri('10:00'),
        equitySince: fri('10:00'),
      }),
    ).toMatchObject({ verified: true, covered: 1 });
  });

  it('loses it when the deals do not add up to the balance', () => {
    expect(verificationOf(running, { ...facts, historyIncomplete: true })).toMatchObject({
      verified: false,
      reason: 'history_incomplete',
      covered: 1,
    });
  });

  it('says which break lost it, with its span, and how much the run since covers', () => {
    const after: VerificationState = {
      ...running,
      runStartedAt: wed('10:31'),
      brokenReason: 'gap',
      brokenFrom: wed('10:20'),
      brokenTo: wed('10:31'),
    };
    const v = verificationOf(after, { ...facts, historyIncomplete: true });
    expect(v).toMatchObject({
      verified: false,
      reason: 'gap',
      since: '2026-01-07T10:31:00.000Z',
      broken_from: '2026-01-07T10:20:00.000Z',
      broken_to: '2026-01-07T10:31:00.000Z',
    });
    // 10:31 -> 11:05 of 10:00:10 -> 11:05 (whole minutes: 34 of 64)
    expect(v.covered).toBeCloseTo(34 / 64, 12);
    // broken from elsewhere, and still elsewhere: no run, nothing covered
    const away: VerificationState = {
      ...running,
      runStartedAt: null,
      brokenReason: 'elsewhere',
      brokenFrom: wed('11:01'),
      brokenTo: wed('11:04'),
    };
    expect(verificationOf(away, facts)).toMatchObject({
      verified: false,
      reason: 'elsewhere',
      since: null,
      covered: 0,
      broken_from: '2026-01-07T11:01:00.000Z',
      broken_to: '2026-01-07T11:04:00.000Z',
    });
  });

  it('says not hosted when there is no run, or it began after the first point with no break seen', () => {
    expect(verificationOf(NOT_FOLLOWED, facts)).toEqual({
      verified: false,
      reason: 'not_hosted',
      since: null,
      last_hosted_at: null,
      period_from: '2026-01-07T10:00:10.000Z',
      covered: 0,
      checked_at: null,
      broken_from: null,
      broken_to: null,
    });
    // points from before the flag was kept (unknown), then a run from 10:31
    const later = { ...running, runStartedAt: wed('10:31') };
    expect(verificationOf(later, facts)).toMatchObject({
      verified: false,
      reason: 'not_hosted',
      broken_from: null,
    });
    // nothing published at all
    expect(
      verificationOf(NOT_FOLLOWED, { ...facts, periodFrom: null, equitySince: null }),
    ).toMatchObject({ reason: 'not_hosted', covered: 0, period_from: null });
  });

  it('covers a period that lies wholly outside market hours when the run began with it', () => {
    const weekend = {
      ...running,
      runStartedAt: sat('10:00'),
      lastHostedAt: sat('11:00'),
      checkedUntil: sat('11:00'),
    };
    expect(
      verificationOf(weekend, {
        ...facts,
        now: sat('12:00'),
        periodFrom: sat('10:00'),
        equitySince: sat('10:00'),
      }),
    ).toMatchObject({ verified: true, covered: 1 });
  });
});
