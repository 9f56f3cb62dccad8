import type { Ref } from 'react';
import { FormAlert } from '../../../shared/ui/form';
import type { Failure } from '../lib/use-failure';
import { TopUpLink } from './balance-check';

/** A failed call's alert; a refusal for want of money offers the top-up. */
export function FailureAlert({
  failure,
  alertRef,
}: {
  failure: Failure | null;
  alertRef: Ref<HTMLDivElement>;
}) {
  if (!failure) return null;
  return (
    <FormAlert ref={alertRef} key={failure.serial} tone="error">
      <p>
        {failure.text}
        {failure.needsTopUp ? (
          <>
            {' '}
            <TopUpLink />
          </>
        ) : null}
      </p>
    </FormAlert>
  );
}
