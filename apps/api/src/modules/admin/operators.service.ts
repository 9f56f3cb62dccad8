import type {
  Operator,
  OperatorResponse,
  OperatorRole,
  OperatorsResponse,
} from '@tradehost/contracts';
import type { Db, Executor } from '../../db/client.ts';
import { auditRepository } from '../../db/audit.ts';
import { byRoleOrder, operatorRepository } from '../../db/operators.ts';
import { secondFactor } from '../../db/second-factor.ts';
import { inTransaction } from '../../db/transaction.ts';
import { userRepository } from '../../db/users.ts';
import { AppError } from '../../lib/errors.ts';

/** Who grants or revokes: an admin of the operator area, or the command line (`npm run admin`). */
export type RoleChanger = { adminId: number } | 'cli';

export type OperatorsService = ReturnType<typeof createOperatorsService>;

type GrantRow = Awaited<ReturnType<typeof operatorRepository.grants>>[number];

/**
 * Who the operators are, and the granting and revoking of their roles, for the operator area
 * (admins, under step-up) and the command line alike. Each change is written to the operator
 * audit in its transaction (`operator.grant`, `operator.revoke`; the command line's with actor
 * null and `details.by: 'cli'`); a grant or revoke that changes nothing writes nothing. At least
 * one admin stays: the last admin role is not revoked (409 OPERATOR_LAST_ADMIN).
 */
export function createOperatorsService({ db, now }: { db: Db; now: () => Date }) {
  async function operatorsOf(on: Executor, rows: GrantRow[]): Promise<Operator[]> {
    const byUser = new Map<number, Operator>();
    for (const row of rows) {
      let operator = byUser.get(row.user.id);
      if (!operator) {
        operator = { user: row.user, roles: [], second_factor: false };
        byUser.set(row.user.id, operator);
      }
      operator.roles.push({
        role: row.role,
        granted_by: row.grantor?.id ? row.grantor : null,
        granted_at: row.grantedAt.toISOString(),
      });
    }
    const operators = [...byUser.values()];
    for (const operator of operators) {
      operator.roles.sort((a, b) => byRoleOrder(a.role, b.role));
      operator.second_factor = await secondFactor.isOn(on, operator.user.id);
    }
    return operators;
  }

  /** The user's roles now (none left after the last revoke); 404 for no such user. */
  async function operatorOf(on: Executor, userId: number): Promise<Operator> {
    const [operator] = await operatorsOf(on, await operatorRepository.grants(on, [userId]));
    if (operator) return operator;
    const user = await userRepository.findById(on, userId);
    if (!user) throw new AppError(404, 'NOT_FOUND');
    return {
      user: { id: user.id, email: user.email, name: user.name },
      roles: [],
      second_factor: await secondFactor.isOn(on, userId),
    };
  }

  const audit = (
    on: Executor,
    by: RoleChanger,
    action: 'operator.grant' | 'operator.revoke',
    userId: number,
    role: OperatorRole,
  ) =>
    auditRepository.insert(on, {
      actorId: by === 'cli' ? null : by.adminId,
      action,
      subjectType: 'user',
      subjectId: String(userId),
      targetUserId: userId,
      details: by === 'cli' ? { role, by: 'cli' } : { role },
    });

  return {
    /** Every user holding a role, by e-mail, with each role's grantor. */
    async list(): Promise<OperatorsResponse> {
      return { data: await operatorsOf(db, await operatorRepository.grants(db)) };
    },

    async grant(by: RoleChanger, userId: number, role: OperatorRole): Promise<OperatorResponse> {
      return inTransaction(db, async (tx) => {
        if (!(await userRepository.findById(tx, userId))) throw new AppError(404, 'NOT_FOUND');
        const grantedBy = by === 'cli' ? null : by.adminId;
        if (await operatorRepository.grant(tx, { userId, role, grantedBy, grantedAt: now() }))
          await audit(tx, by, 'operator.grant', userId, role);
        return { operator: await operatorOf(tx, userId) };
      });
    },

    async revoke(by: RoleChanger, userId: number, role: OperatorRole): Promise<OperatorResponse> {
      return inTransaction(db, async (tx) => {
        if (role === 'admin') {
          const admins = await operatorRepository.lockAdmins(tx);
          if (admins.length === 1 && admins[0] === userId)
            throw new AppError(409, 'OPERATOR_LAST_ADMIN');
        }
        if (await operatorRepository.revoke(tx, userId, role))
          await audit(tx, by, 'operator.revoke', userId, role);
        return { operator: await operatorOf(tx, userId) };
      });
    },
  };
}
