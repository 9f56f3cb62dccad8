import type { OperatorRole, User } from '@tradehost/contracts';
import { useGetUserQuery } from '../../auth/api/auth-api';

/**
 * What an operator route declares beside its definition (app/router.tsx, the route's `handle`):
 * the role it needs (none: every operator, as the users and a user's page) and its entry in the
 * area's navigation (a key of the operator namespace).
 */
export interface OperatorRouteHandle {
  operatorRole?: OperatorRole;
  nav?: string;
}

/** An entry of the area's navigation, from the routes: where, its label key, the role it needs. */
export interface OperatorSection {
  to: string;
  /** Marked current on its own address only (the review queue, /operator). */
  end: boolean;
  label: string;
  role?: OperatorRole;
}

/** The operator area's layout route: its sections, in the order of its child routes. */
export interface OperatorLayoutHandle {
  operatorSections: OperatorSection[];
}

/**
 * The operator roles of a user: `operator_roles` as the API sends it. A payload without it (an
 * API from before the roles) gives role admin the admin role, which opens everything, as the
 * whole area was theirs then; anyone else holds none.
 */
export function operatorRolesOf(
  user: Pick<User, 'role' | 'operator_roles'> | undefined,
): readonly OperatorRole[] {
  if (!user) return [];
  return user.operator_roles ?? (user.role === 'admin' ? ['admin'] : []);
}

/**
 * Whether `roles` open what needs `role`: admin opens everything, and what needs no role is
 * every operator's (yet nobody's without a role).
 */
export function mayOpen(roles: readonly OperatorRole[], role: OperatorRole | undefined): boolean {
  if (roles.length === 0) return false;
  return role === undefined || roles.includes('admin') || roles.includes(role);
}

/**
 * `mayOpen` for the signed-in operator. Their user as last read: as for the area's gate
 * (RequireAdmin), a failed refetch takes nothing away.
 */
export function useMayOpen(): (role: OperatorRole | undefined) => boolean {
  const roles = operatorRolesOf(useGetUserQuery().data);
  return (role) => mayOpen(roles, role);
}
