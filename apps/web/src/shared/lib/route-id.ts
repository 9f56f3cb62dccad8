/**
 * The number an address names (a ticket's, a server's: "/support/12"), or null when its part
 * cannot be one: digits only (no "12.5", "1e3" or " 12"), at least 1, within a bigserial the
 * API takes. A page shows its not-found state for null without asking the API.
 */
export function routeIdOf(value: string | undefined): number | null {
  const id = Number(value);
  return /^\d{1,10}$/.test(value ?? '') && Number.isSafeInteger(id) && id > 0 ? id : null;
}
