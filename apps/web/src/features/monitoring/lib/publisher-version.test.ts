import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isOutdatedPublisher, PUBLISHER_VERSION, tellsExcursions } from './publisher-version';

describe('isOutdatedPublisher', () => {
  it('is true for versions before 1.2 only', () => {
    expect(isOutdatedPublisher('1.1.0')).toBe(true);
    expect(isOutdatedPublisher('1.0.0')).toBe(true);
    expect(isOutdatedPublisher('0.9')).toBe(true);
    expect(isOutdatedPublisher('1.2.0')).toBe(false);
    expect(isOutdatedPublisher('1.10.0')).toBe(false);
    expect(isOutdatedPublisher('2.0.0')).toBe(false);
  });

  it('does not judge what is not a version of ours', () => {
    expect(isOutdatedPublisher(null)).toBe(false);
    expect(isOutdatedPublisher('simulator-1.0')).toBe(false);
    expect(isOutdatedPublisher('')).toBe(false);
  });
});

describe('tellsExcursions', () => {
  it('is true from 1.4 on, false before, null for what is not a version of ours', () => {
    expect(tellsExcursions('1.4.0')).toBe(true);
    expect(tellsExcursions('1.4')).toBe(true);
    expect(tellsExcursions('1.10.0')).toBe(true);
    expect(tellsExcursions('2.0.0')).toBe(true);
    expect(tellsExcursions('1.3.0')).toBe(false);
    expect(tellsExcursions('0.9')).toBe(false);
    expect(tellsExcursions('simulator-1.0')).toBeNull();
    expect(tellsExcursions(null)).toBeNull();
  });
});

describe('PUBLISHER_VERSION', () => {
  it('is the version the publishers served to the traders say they are', () => {
    const publisher = join(import.meta.dirname, '../../../../public/publisher');
    for (const name of ['TradeHostPublisher.mq5', 'TradeHostPublisher.mq4']) {
      const source = readFileSync(join(publisher, name), 'utf8');
      expect(source, name).toContain(`#define EA_VERSION "${PUBLISHER_VERSION.join('.')}"`);
    }
  });
});
