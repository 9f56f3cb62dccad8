import { hash, verify, type Algorithm, type Options } from '@node-rs/argon2';

/** OWASP's argon2id parameters: 19 MiB, 2 passes, 1 lane. */
export const ARGON2_OPTIONS: Options = {
  algorithm: 2 as Algorithm, // Algorithm.Argon2id (an ambient const enum, unusable under isolatedModules)
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

/**
 * A hash of a password nobody has, with the same parameters: checking an unknown
 * e-mail against it takes as long as checking a known one.
 */
export const DUMMY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$PhtanncjIw4zja5eb1ScLQ$5ZN/QAA+31BM0vgrBb6Ud9T7l/mO4CUzUpDyK7W7WOM';

/** How many argon2 computations ran in this process (tests check that rate limits stop requests before any). */
export const passwordStats = { hashes: 0, verifies: 0 };

export async function hashPassword(password: string): Promise<string> {
  passwordStats.hashes += 1;
  return hash(password, ARGON2_OPTIONS);
}

/** False for a wrong password or a malformed hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  passwordStats.verifies += 1;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Spends the time of one verification, for answers that must not reveal whether an account exists. */
export async function verifyDummyPassword(password: string): Promise<void> {
  await verifyPassword(DUMMY_HASH, password);
}
