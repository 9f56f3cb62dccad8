import type { ReactNode, Ref } from 'react';
import type { Failure } from '../../lib/use-failure';
import { FormAlert } from '../form';

/** A failed call's alert (shared/lib/use-failure); a refusal for want of money offers `topUp`. */
export function FailureAlert({
  failure,
  alertRef,
  topUp,
}: {
  failure: Failure | null;
  alertRef: Ref<HTMLDivElement>;
  /** The link to the top-up, shown after a refusal for want of money. */
  topUp: ReactNode;
}) {
  if (!failure) return null;
  return (
    <FormAlert ref={alertRef} key={failure.serial} tone="error">
      <p>
        {failure.text}
        {failure.needsTopUp ? <> {topUp}</> : null}
      </p>
    </FormAlert>
  );
}
