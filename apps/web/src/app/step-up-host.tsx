import { lazy, Suspense } from 'react';
import { stepUpGate } from '../shared/api/step-up-gate';
import { useSyncExternalStore } from '../shared/lib/use-sync-external-store';

// loaded with the first call that asks for a step-up, not with the first view
const StepUpDialog = lazy(() =>
  import('../features/auth/components/step-up-dialog').then((module) => ({
    default: module.StepUpDialog,
  })),
);

/** The step-up dialog while a call waits for a fresh proof (shared/api/step-up-gate.ts). */
export function StepUpHost() {
  const pending = useSyncExternalStore(stepUpGate.subscribe, stepUpGate.current, () => null);
  if (!pending) return null;
  return (
    <Suspense fallback={null}>
      <StepUpDialog methods={pending.methods} onSettled={stepUpGate.settle} />
    </Suspense>
  );
}
