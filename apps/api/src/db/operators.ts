import { OPERATOR_ROLES, type OperatorRole } from '@tradehost/contracts';
import { and, asc, eq, inArray, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { AppError } from '../lib/errors.ts';
import type { Executor } from './client.ts';
import { mappedOnce } from './prepared.ts';
import { operatorRoles, users, type UserRow } from './schema/index.ts';
import { secondFactor } from './second-factor.ts';

/**
 * Who may act as an operator, and where: the roles of operator_roles (a user may hold several),
 * the one source of the operator area's permissions. `admin` reaches every operator route; each
 * other role its part (README, "Operators and their roles").
 */

/** Whether roles `held` may call a route that allows `allowed` (admin may call every one). */
export function permits(held: readonly OperatorRole[], allowed: readonly OperatorRole[]): boolean {
  return held.includes('admin') || held.some((role) => allowed.includes(role));
}

/**
 * Why the user may not act now as an operator with one of `allowed` (or admin), or null when
 * they may: FORBIDDEN without such a role (a customer learns no more), and
 * OPERATOR_SECOND_FACTOR_REQUIRED for an operator whose account has no second factor. The roles
 * are read now, so a revoked one stops at once.
 */
export async function operatorRefusal(
  db: Executor,
  userId: number,
  allowed: readonly OperatorRole[],
): Promise<'FORBIDDEN' | 'OPERATOR_SECOND_FACTOR_REQUIRED' | null> {
  const held = await operatorRepository.rolesOf(db, userId);
  if (held.length === 0) return 'FORBIDDEN';
  if (!(await secondFactor.isOn(db, userId))) return 'OPERATOR_SECOND_FACTOR_REQUIRED';
  return permits(held, allowed) ? null : 'FORBIDDEN';
}

/**
 * Four eyes on money: no operator acts on their own account (their payment, balance, withdrawal,
 * test server, refund). 403 OPERATOR_SELF_ACTION before anything changes.
 */
export function refuseOwnAccount(operatorId: number, userId: number | null | undefined): void {
  if (operatorId === userId) throw new AppError(403, 'OPERATOR_SELF_ACTION');
}

/** SQL: the user of `userId` holds one of `roles` or admin (for a query's where). */
export function holdsRole(userId: AnyColumn, roles: readonly OperatorRole[]): SQL {
  return sql`exists (select 1 from ${operatorRoles} where ${operatorRoles.userId} = ${userId}
    and ${inArray(operatorRoles.role, [...roles, 'admin'])})`;
}

/** Sorts roles as OPERATOR_ROLES lists them. */
export const byRoleOrder = (a: OperatorRole, b: OperatorRole) =>
  OPERATOR_ROLES.indexOf(a) - OPERATOR_ROLES.indexOf(b);

/** The roles of a user, read on every operator call: a prepared statement per database. */
const rolesById = new WeakMap<Executor, ReturnType<typeof buildRolesById>>();
const buildRolesById = (db: Executor) =>
  mappedOnce(
    db
      .select({ role: operatorRoles.role })
      .from(operatorRoles)
      .where(eq(operatorRoles.userId, sql.placeholder('id')))
      .prepare('operator_roles_by_user'),
  );

const grantor = alias(users, 'grantor');

export const operatorRepository = {
  /** The user's operator roles in OPERATOR_ROLES order; none for a customer. */
  async rolesOf(db: Executor, userId: number): Promise<OperatorRole[]> {
    let query = rolesById.get(db);
    if (!query) rolesById.set(db, (query = buildRolesById(db)));
    const rows = await query.execute({ id: userId });
    return rows.map((row) => row.role).sort(byRoleOrder);
  },

  /**
   * The roles of a user row: none without a query for a customer (users.role follows
   * operator_roles, 'admin' exactly while any role is held).
   */
  async rolesOfRow(db: Executor, user: Pick<UserRow, 'id' | 'role'>): Promise<OperatorRole[]> {
    return user.role === 'admin' ? operatorRepository.rolesOf(db, user.id) : [];
  },

  /** Gives `role` to the user; false when they held it already (nothing changes then). */
  async grant(
    db: Executor,
    values: { userId: number; role: OperatorRole; grantedBy: number | null; grantedAt: Date },
  ): Promise<boolean> {
    const inserted = await db
      .insert(operatorRoles)
      .values(values)
      .onConflictDoNothing()
      .returning({ role: operatorRoles.role });
    return inserted.length > 0;
  },

  /** Takes `role` away; false when the user did not hold it. */
  async revoke(db: Executor, userId: number, role: OperatorRole): Promise<boolean> {
    const deleted = await db
      .delete(operatorRoles)
      .where(and(eq(operatorRoles.userId, userId), eq(operatorRoles.role, role)))
      .returning({ role: operatorRoles.role });
    return deleted.length > 0;
  },

  /**
   * The admins, their rows locked until the transaction ends: two admins revoking each other at
   * once wait for one another, so the second counts what the first left.
   */
  async lockAdmins(db: Executor): Promise<number[]> {
    const rows = await db
      .select({ userId: operatorRoles.userId })
      .from(operatorRoles)
      .where(eq(operatorRoles.role, 'admin'))
      .for('update');
    return rows.map((row) => row.userId);
  },

  /** Every role held (of `userIds`, or of everyone), with its user and grantor, by user. */
  async grants(db: Executor, userIds?: number[]) {
    return db
      .select({
        user: { id: users.id, email: users.email, name: users.name },
        role: operatorRoles.role,
        grantedAt: operatorRoles.grantedAt,
        grantor: { id: grantor.id, email: grantor.email, name: grantor.name },
      })
      .from(operatorRoles)
      .innerJoin(users, eq(users.id, operatorRoles.userId))
      .leftJoin(grantor, eq(grantor.id, operatorRoles.grantedBy))
      .where(userIds ? inArray(operatorRoles.userId, userIds) : undefined)
      .orderBy(asc(users.email), asc(operatorRoles.userId));
  },
};
