/** The Russian form of a noun after `n`: 1 месяц, 3 месяца, 5 месяцев (11-14 take the last). */
export function pluralRu(n: number, one: string, few: string, many: string): string {
  if (n % 10 === 1 && n % 100 !== 11) return one;
  if ([2, 3, 4].includes(n % 10) && ![12, 13, 14].includes(n % 100)) return few;
  return many;
}

/** The English form: 1 month, 3 months. */
export const pluralEn = (n: number, one: string, many: string) => (n === 1 ? one : many);
