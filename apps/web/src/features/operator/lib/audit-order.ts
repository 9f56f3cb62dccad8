import type { AuditEntry } from '@tradehost/contracts';

/** A new value's key, and the key of the old value it replaced. */
const OLD_VALUE_OF: Record<string, string> = {
  to: 'from',
  after: 'before',
  ends_at: 'previous_ends_at',
  paid_until: 'previous_paid_until',
};
const OLD_VALUES = new Set(Object.values(OLD_VALUE_OF));

/**
 * The details in reading order: an old value just before its new one ('From', 'To'). The API
 * stores them as jsonb, which keeps keys shortest first, so they came as 'To', 'From'.
 */
export function inReadingOrder(details: AuditEntry['details']): [string, unknown][] {
  const paired = (key: string) => {
    const old = OLD_VALUE_OF[key];
    return old !== undefined && old in details ? old : null;
  };
  const hasNew = (key: string) =>
    OLD_VALUES.has(key) && Object.keys(details).some((other) => paired(other) === key);
  return Object.entries(details).flatMap(([key, value]): [string, unknown][] => {
    if (hasNew(key)) return [];
    const old = paired(key);
    return old === null
      ? [[key, value]]
      : [
          [old, details[old]],
          [key, value],
        ];
  });
}
