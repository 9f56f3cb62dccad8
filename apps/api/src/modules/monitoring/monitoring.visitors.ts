import { createHash, createHmac } from 'node:crypto';

/** Who opened a public page: the address and the browser it came with. */
export interface Visitor {
  ip: string;
  agent: string;
}

/**
 * A visitor of a public page on `day` (`YYYY-MM-DD`, UTC), as the views count them: a hash of the
 * address and the browser under a salt made from the secret, the `kind` of page and the day, so
 * no address is kept and yesterday's hashes cannot be matched with today's.
 */
export function visitorHash(secret: string, kind: string, day: string, visitor: Visitor): string {
  const salt = createHmac('sha256', secret).update(`${kind} ${day}`).digest();
  return createHash('sha256')
    .update(salt)
    .update(`${visitor.ip}\n${visitor.agent}`)
    .digest('base64url');
}
