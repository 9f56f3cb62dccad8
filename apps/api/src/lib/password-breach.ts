import { createHash } from 'node:crypto';

/**
 * Whether a password has appeared in a data breach: true or false, or null when the service could
 * not answer (the caller lets the password through: a breach check must never block sign-up).
 */
export type BreachCheck = (password: string) => Promise<boolean | null>;

export interface PwnedPasswordsOptions {
  /** The range API's base, e.g. https://api.pwnedpasswords.com (PWNED_PASSWORDS_URL). */
  url: string;
  /** How long to wait for the answer; slower counts as no answer. */
  timeoutMs?: number;
}

/** A range answer's line: the hash's 35 hex digits after the prefix, a colon, the count. */
const RANGE_LINE = /^([0-9A-F]{35}):(\d+)$/;

/**
 * The Have I Been Pwned "Pwned Passwords" range API, by k-anonymity: only the first 5 hex digits
 * of the password's SHA-1 leave the server (GET {url}/range/{prefix}); the answer lists the
 * suffixes of every breached hash with that prefix, one `SUFFIX:COUNT` a line. With
 * `Add-Padding: true` it also carries random suffixes with the count 0, so that the answer's size
 * does not tell the prefix: those are not breaches.
 */
export function pwnedPasswords({ url, timeoutMs = 3000 }: PwnedPasswordsOptions): BreachCheck {
  const base = url.replace(/\/+$/, '');
  return async (password) => {
    const sha1 = createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase();
    const prefix = sha1.slice(0, 5);
    const suffix = sha1.slice(5);
    const response = await fetch(`${base}/range/${prefix}`, {
      headers: { 'add-padding': 'true', 'user-agent': 'TradeHost password check' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new Error(`the breach check answered HTTP ${response.status}`);
    for (const line of (await response.text()).split('\n')) {
      const match = RANGE_LINE.exec(line.trim().toUpperCase());
      if (match?.[1] === suffix) return Number(match[2]) > 0;
    }
    return false;
  };
}

/** A check that logs its failures and answers null for them (fail open). */
export function failingOpen(
  check: BreachCheck,
  log: { warn: (object: object, message: string) => void },
): BreachCheck {
  return async (password) => {
    try {
      return await check(password);
    } catch (error) {
      log.warn(
        { err: error },
        'the password breach check did not answer; the password is let through',
      );
      return null;
    }
  };
}
