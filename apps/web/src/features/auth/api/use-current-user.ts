import type { User } from '@tradehost/contracts';
import { useGetUserQuery } from './auth-api';

/**
 * The signed-in user for display, or undefined while it loads and after a failed fetch: a 429
 * (SPEC 8) resets the user shown, whatever an earlier fetch returned.
 */
export function useCurrentUser(): User | undefined {
  const { data, isError } = useGetUserQuery();
  return isError ? undefined : data;
}

/**
 * The reader's balance and partner balance from that same read of the user, so the header, the
 * balance page and the price checks show one figure from one call (a live update patches it).
 */
export function useBalances(): { balance?: number; partner?: number; isLoading: boolean } {
  return useGetUserQuery(undefined, {
    selectFromResult: ({ data, isError, isLoading }) => ({
      balance: isError ? undefined : data?.balance,
      partner: isError ? undefined : data?.balance_partner,
      isLoading,
    }),
  });
}
