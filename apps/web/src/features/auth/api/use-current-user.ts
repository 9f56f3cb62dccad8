import type { User } from '@tradehost/contracts';
import { useGetUserQuery } from './auth-api';

/** The user shown from a read of it: none after a failed fetch, whatever an earlier one returned. */
const shownUser = ({ data, isError }: { data?: User; isError: boolean }) =>
  isError ? undefined : data;

/**
 * The signed-in user for display, or undefined while it loads and after a failed fetch: a 429
 * (SPEC 8) resets the user shown, whatever an earlier fetch returned.
 */
export function useCurrentUser(): User | undefined {
  return shownUser(useGetUserQuery());
}

/**
 * The reader's balance and partner balance from that same read of the user, so the header, the
 * balance page and the price checks show one figure from one call (a live update patches it).
 */
export function useBalances(): { balance?: number; partner?: number; isLoading: boolean } {
  return useGetUserQuery(undefined, {
    selectFromResult: (result) => {
      const user = shownUser(result);
      return {
        balance: user?.balance,
        partner: user?.balance_partner,
        isLoading: result.isLoading,
      };
    },
  });
}
