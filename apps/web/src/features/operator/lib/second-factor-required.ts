import { useAppSelector } from '../../../app/hooks';
import { codeOf } from './use-operator-error';

/** The API's answer to an operator without a second factor, on every /api/admin call. */
export const SECOND_FACTOR_REQUIRED = 'OPERATOR_SECOND_FACTOR_REQUIRED';

/**
 * Whether a call started at `since` or later (a query or a mutation, any screen's) was refused
 * with OPERATOR_SECOND_FACTOR_REQUIRED, as the call's last answer. Calls from before `since`
 * do not count: an operator who has since turned a second factor on and comes back is not held
 * up by the refusals still cached from their last visit (the pages ask again as they open).
 */
export function useSecondFactorRequired(since: number): boolean {
  return useAppSelector((state) => {
    const api = state.api;
    if (!api) return false;
    return [...Object.values(api.queries), ...Object.values(api.mutations)].some(
      (call) =>
        call?.status === 'rejected' &&
        (call.startedTimeStamp ?? 0) >= since &&
        codeOf(call.error) === SECOND_FACTOR_REQUIRED,
    );
  });
}
