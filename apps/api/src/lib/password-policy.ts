import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { isCommonPassword } from './common-passwords.ts';
import { fieldError } from './errors.ts';
import { failingOpen, pwnedPasswords, type BreachCheck } from './password-breach.ts';

/**
 * What a new password must not be, beyond the contracts' length rule (sign-up, a change in the
 * profile, a reset by code): one of the 100,000 most common passwords (an offline list), nor,
 * when PASSWORD_BREACH_CHECK=hibp, one the Pwned Passwords range API knows from a breach. The
 * breach check fails open: when the service does not answer, the password is let through and
 * the failure logged.
 */
export interface PasswordPolicy {
  /** Why the password is refused, or null when it is not. */
  refusal(password: string): Promise<PasswordRefusal | null>;
  /** Throws 422 PASSWORD_TOO_COMMON or PASSWORD_BREACHED on `field` for a refused password. */
  check(password: string, field?: string): Promise<void>;
}

export type PasswordRefusal = 'PASSWORD_TOO_COMMON' | 'PASSWORD_BREACHED';

export function createPasswordPolicy(breachCheck?: BreachCheck): PasswordPolicy {
  const refusal = async (password: string): Promise<PasswordRefusal | null> => {
    if (await isCommonPassword(password)) return 'PASSWORD_TOO_COMMON';
    if (breachCheck && (await breachCheck(password)) === true) return 'PASSWORD_BREACHED';
    return null;
  };
  return {
    refusal,
    async check(password, field = 'password') {
      const code = await refusal(password);
      if (code) throw fieldError(422, field, code);
    },
  };
}

/** The policy the settings ask for (PASSWORD_BREACH_CHECK, PWNED_PASSWORDS_URL). */
export function passwordPolicyOf(config: Config, log: FastifyBaseLogger): PasswordPolicy {
  const breach = config.passwordBreachCheck;
  return createPasswordPolicy(breach ? failingOpen(pwnedPasswords(breach), log) : undefined);
}
