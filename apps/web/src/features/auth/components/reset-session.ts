import { checkForgotOtpRequestSchema, type CheckForgotOtpRequest } from '@tradehost/contracts';

/**
 * The e-mail and the checked code travel from the forgot-password screen to the
 * password-reset screen in the router's location state, and in sessionStorage
 * so that a reload of the reset screen keeps working (same tab only).
 */
const STORAGE_KEY = 'tradehost.password-reset';

export type ResetSession = CheckForgotOtpRequest;

export function saveResetSession(session: ResetSession): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  } catch {
    // storage unavailable (private mode, quota): the location state still carries it
  }
}

export function clearResetSession(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing to clear
  }
}

function parse(value: unknown): ResetSession | null {
  const parsed = checkForgotOtpRequestSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The session from the location state, else from sessionStorage, else null. */
export function readResetSession(locationState: unknown): ResetSession | null {
  const fromState = parse(locationState);
  if (fromState) return fromState;
  try {
    const stored = sessionStorage.getItem(STORAGE_KEY);
    return stored ? parse(JSON.parse(stored)) : null;
  } catch {
    return null;
  }
}
