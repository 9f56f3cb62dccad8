import type { MonitoringFormat } from './use-monitoring-format';

/** A trade's or a position's excursions as the API gives them (all null before publisher 1.4). */
export interface Excursions {
  mae: number | null;
  mfe: number | null;
  mae_points: number | null;
  mfe_points: number | null;
}

/** A move in the symbol's points: "−120 pts", "−120 пп.". */
export const pointsText = (f: MonitoringFormat, points: number) =>
  f.t('excursions.points', { value: f.figure(points, 0) });

/**
 * One excursion as a row shows it: the money when known, else (money hidden) the points; null
 * when the publisher told none (before 1.4).
 */
export function excursionText(
  f: MonitoringFormat,
  money: number | null,
  points: number | null,
  currency: string | null,
): string | null {
  if (money !== null) return f.money(money, currency);
  if (points !== null) return pointsText(f, points);
  return null;
}

/** Whether the publisher told the excursions (1.4 on): the points come whether money is shown. */
export const hasExcursions = (row: Excursions) => row.mae_points !== null || row.mae !== null;
