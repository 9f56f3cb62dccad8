import type { Ref } from 'react';
import type { Failure } from '../../../shared/lib/use-failure';
import { FailureAlert as SharedFailureAlert } from '../../../shared/ui/failure-alert/failure-alert';
import { TopUpLink } from './balance-check';

/** A failed call's alert; a refusal for want of money offers the top-up. */
export function FailureAlert(props: { failure: Failure | null; alertRef: Ref<HTMLDivElement> }) {
  return <SharedFailureAlert {...props} topUp={<TopUpLink />} />;
}
