import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from './error-codes.ts';
import {
  ALERT_KINDS,
  ALERT_UNITS,
  alertEventSchema,
  PING_ALERT_MS_MAX,
  PING_ALERT_MS_MIN,
  updateAlertSettingsSchema,
} from './monitoring-alerts.ts';

const codesOf = (result: { error?: { issues: Array<{ message: string }> } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

const ping = (threshold: unknown) =>
  updateAlertSettingsSchema.safeParse({ rules: { ping_above: { enabled: true, threshold } } });

describe('the ping rule', () => {
  it('is a kind of its own, its line in milliseconds', () => {
    expect(ALERT_KINDS).toContain('ping_above');
    expect(ALERT_UNITS.ping_above).toBe('ms');
  });

  it('takes whole milliseconds from 10 to 5000, both ends included', () => {
    for (const threshold of [PING_ALERT_MS_MIN, 150, PING_ALERT_MS_MAX])
      expect(ping(threshold).success, String(threshold)).toBe(true);
    expect([PING_ALERT_MS_MIN, PING_ALERT_MS_MAX]).toEqual([10, 5000]);
  });

  it('refuses anything else with the one code that names the range', () => {
    for (const threshold of [9, 5001, 0, -150, 150.5, '150', null, undefined, Number.NaN])
      expect(codesOf(ping(threshold)), String(threshold)).toEqual(['MONITORING_ALERT_PING_RANGE']);
    expect(ERROR_MESSAGES.MONITORING_ALERT_PING_RANGE).toBe(
      'Enter whole milliseconds from 10 to 5000',
    );
  });

  it('reads an event naming the trade server pinged and its minutes', () => {
    const event = {
      id: 1,
      kind: 'ping_above',
      at: '2026-01-07T10:07:05.000Z',
      value: 212,
      threshold: 150,
      details: { server: 'ICMarkets-Live02', minutes: 5 },
      email_status: 'sent',
      telegram_status: 'skipped',
    };
    expect(alertEventSchema.parse(event)).toEqual(event);
  });
});
