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
