/** Refresh the access token before a call when less than this is left of it (SPEC section 9). */
export const TOKEN_REFRESH_THRESHOLD_MS = 5_000;

/**
 * Whether the token that expires at `expiresIso` must be refreshed before a call made at `nowMs`:
 * under 5 seconds left, already expired, or no readable expiry at all.
 */
export function needsRefresh(expiresIso: string | null | undefined, nowMs: number): boolean {
  if (!expiresIso) return true;
  const expiresMs = Date.parse(expiresIso);
  if (Number.isNaN(expiresMs)) return true;
  return expiresMs - nowMs < TOKEN_REFRESH_THRESHOLD_MS;
}
