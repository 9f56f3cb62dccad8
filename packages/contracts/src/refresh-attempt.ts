/**
 * A refresh sent again because its answer was lost (the page reloaded or closed while it was on
 * its way) or shared with another tab's refresh under way carries the same attempt in this
 * header. For REFRESH_RETRY_MS after the rotation the server takes the spent cookie with that
 * attempt for the retry it is, and starts another session of the family, rather than for a
 * stolen cookie, whose reuse revokes the family. The attempt is random, from the console's storage.
 *
 * A module of its own, like limits.ts: the console's first view refreshes sessions, and reaching
 * these through auth.ts would put that module's schemas, and zod, in the entry chunk.
 */
export const REFRESH_ATTEMPT_HEADER = 'x-refresh-attempt';
export const REFRESH_ATTEMPT_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
export const REFRESH_RETRY_MS = 60_000;
