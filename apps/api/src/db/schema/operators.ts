import type { OperatorRole } from '@tradehost/contracts';
import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.ts';
import { userRef, users } from './users.ts';

/**
 * Who may act as an operator, and in which part of the operator area (OPERATOR_ROLES): a user
 * may hold several roles. The only source of operator permissions, read on every operator call;
 * `users.role` follows it (a trigger: 'admin' while the user holds any role).
 */
export const operatorRoles = pgTable(
  'operator_roles',
  {
    userId: userRef('user_id'),
    role: text('role').$type<OperatorRole>().notNull(),
    /** The admin who granted it; null: the command line (`npm run admin`) or the move to roles. */
    grantedBy: bigint('granted_by', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    grantedAt: timestamptz('granted_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.role] }),
    // the admins, counted under lock before one is revoked (at least one stays)
    index('operator_roles_role_idx').on(t.role),
    check(
      'operator_roles_role_check',
      sql`${t.role} in ('support', 'billing', 'vps', 'monitoring', 'admin')`,
    ),
  ],
);

export type OperatorRoleRow = typeof operatorRoles.$inferSelect;
