import {
  addMonths,
  rentalPrice,
  upgradePriceCents,
  type PeriodDiscount,
  type Price,
  type Rate,
  type Server,
  DAY_MS,
} from '@tradehost/contracts';

/**
 * The VPS page's own arithmetic over the contracts' pricing: the API sends dollars, the
 * contracts price in cents, the page shows dollars again. Pure functions of their arguments
 * (the moment included), so that they are tested without a clock.
 */

/** Paid-until this close (or past) is highlighted in the list. */
export const EXPIRY_WARNING_DAYS = 3;

/** Cents of a dollar amount as the API sends it (two decimals at most). */
export function toCents(dollars: number): number {
  return Math.round(dollars * 100);
}

/** The discount of a rental period, 0 when the catalogue does not list it. */
export function periodDiscount(periods: readonly PeriodDiscount[], months: number): number {
  return periods.find((period) => period.months === months)?.discount_percent ?? 0;
}

/** The price of renting `rate` for `months`, with the period's discount and a promocode's. */
export function priceOf(
  rate: Pick<Rate, 'monthly_price'>,
  months: number,
  periods: readonly PeriodDiscount[],
  promoDiscountPercent = 0,
): Price {
  return rentalPrice({
    monthlyCents: toCents(rate.monthly_price),
    months,
    periodDiscountPercent: periodDiscount(periods, months),
    promoDiscountPercent,
  });
}

/** `YYYY-MM-DD` of a moment's calendar day in UTC (the API's dates are UTC days). */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The moment a `YYYY-MM-DD` UTC day starts. */
export function startOfUtcDay(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

/**
 * The days an upgrade may be asked for: from today to the day before the paid-until date
 * (UTC days), or null when there is none (the paid period ends today or has ended).
 */
export function upgradeDates(now: Date, paidUntil: Date): { min: string; max: string } | null {
  const min = utcDay(now);
  const lastDay = new Date(
    Date.UTC(paidUntil.getUTCFullYear(), paidUntil.getUTCMonth(), paidUntil.getUTCDate() - 1),
  );
  const max = utcDay(lastDay);
  return max < min ? null : { min, max };
}

/** Whether `day` (`YYYY-MM-DD`) is a real day within the bounds. */
export function isDayWithin(day: string, bounds: { min: string; max: string }): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const date = startOfUtcDay(day);
  if (Number.isNaN(date.getTime()) || utcDay(date) !== day) return false;
  return day >= bounds.min && day <= bounds.max;
}

/** The upgrade's price in cents: the monthly difference for the days from `day` to paid-until. */
export function upgradePrice(from: Rate, to: Rate, day: string, paidUntil: Date): number {
  return upgradePriceCents(
    toCents(from.monthly_price),
    toCents(to.monthly_price),
    startOfUtcDay(day),
    paidUntil,
  );
}

/** The rates a server may move to: dearer, and with no less of anything. */
export function largerRates(rates: readonly Rate[], current: Rate): Rate[] {
  return rates.filter(
    (rate) =>
      rate.id !== current.id &&
      rate.monthly_price > current.monthly_price &&
      rate.cpu_cores >= current.cpu_cores &&
      rate.ram_gb >= current.ram_gb &&
      rate.disk_gb >= current.disk_gb,
  );
}

/** Paid-until after renewing for `months`: a lapsed server's new period starts now. */
export function renewedUntil(paidUntil: Date, now: Date, months: number): Date {
  return addMonths(paidUntil.getTime() > now.getTime() ? paidUntil : now, months);
}

/** `past` when paid-until has passed, `soon` within 3 days of it, else null. */
export function expiryOf(paidUntil: Date, now: Date): 'past' | 'soon' | null {
  const left = paidUntil.getTime() - now.getTime();
  if (left <= 0) return 'past';
  return left <= EXPIRY_WARNING_DAYS * DAY_MS ? 'soon' : null;
}

/** The address of a server's page. */
export const serverPath = (id: number) => `/vps/servers/${id}`;

/** Whether the list should follow a server closely: an operation runs, or it is being created. */
export function isBusy(server: Pick<Server, 'operation' | 'status'>): boolean {
  return server.operation !== null || server.status === 'provisioning';
}

/** Host, port and user of an .rdp file ("full address:s:host:port", "username:s:name"). */
export function parseRdp(text: string): { host: string; port: number; username: string } | null {
  const address = /^full address:s:(.+)$/m.exec(text)?.[1]?.trim();
  const username = /^username:s:(.*)$/m.exec(text)?.[1]?.trim();
  if (!address || !username) return null;
  const match = /^(.*):(\d{1,5})$/.exec(address);
  const host = (match ? match[1] : address)?.replace(/^\[(.*)\]$/, '$1') ?? '';
  const port = match ? Number(match[2]) : 3389;
  if (!host) return null;
  return { host, port, username };
}

/** A search the list can send: digits only (the server's number), up to 20 of them. */
export function isSearchValid(search: string): boolean {
  return /^\d{0,20}$/.test(search.trim());
}
