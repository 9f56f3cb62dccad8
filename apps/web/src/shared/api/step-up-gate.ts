import type { StepUpMethod } from '@tradehost/contracts';

/**
 * The contracts' STEP_UP_METHODS, in their order: this file is in the console's entry chunk, and
 * a value import of the contracts would bring zod into it (the bundle-size check refuses that).
 * The type keeps the two lists the same.
 */
const STEP_UP_METHODS = [
  'password',
  'totp',
  'passkey',
  'recovery_code',
] as const satisfies readonly StepUpMethod[];
type Missing = Exclude<StepUpMethod, (typeof STEP_UP_METHODS)[number]>;
const everyMethod: [Missing] extends [never] ? true : Missing = true;
void everyMethod;

/**
 * Step-up between the base query and the dialog: a call answered 403 STEP_UP_REQUIRED asks here
 * for a proof (`requestStepUp`) and waits; the dialog (features/auth StepUpDialog, in the app
 * shell) reads the request under way, proves and settles it. Calls that need a proof at the same
 * time share the one request, so one dialog opens.
 */

export type StepUpOutcome = 'proved' | 'cancelled';

export interface PendingStepUp {
  /** The proofs the account takes, in the order the dialog offers them. */
  methods: StepUpMethod[];
}

let current: (PendingStepUp & { settle(outcome: StepUpOutcome): void }) | null = null;
let waiting: Promise<StepUpOutcome> | null = null;
const subscribers = new Set<() => void>();
const changed = () => subscribers.forEach((subscriber) => subscriber());

/** The methods of a STEP_UP_REQUIRED answer, the known ones only; the password when it names none. */
export function stepUpMethodsOf(value: unknown): StepUpMethod[] {
  const listed = Array.isArray(value) ? value : [];
  const methods = STEP_UP_METHODS.filter((method) => listed.includes(method));
  return methods.length > 0 ? methods : ['password'];
}

/** Asks the owner for a fresh proof; resolves once they gave one or gave up. */
export function requestStepUp(methods: StepUpMethod[]): Promise<StepUpOutcome> {
  waiting ??= new Promise<StepUpOutcome>((resolve) => {
    current = {
      methods,
      settle(outcome) {
        current = null;
        waiting = null;
        changed();
        resolve(outcome);
      },
    };
    changed();
  });
  return waiting;
}

/** For useSyncExternalStore: the request the dialog shows, or null. */
export const stepUpGate = {
  subscribe(subscriber: () => void) {
    subscribers.add(subscriber);
    return () => void subscribers.delete(subscriber);
  },
  current: (): PendingStepUp | null => current,
  /** The dialog's answer to the request under way (nothing when there is none). */
  settle(outcome: StepUpOutcome) {
    current?.settle(outcome);
  },
};
