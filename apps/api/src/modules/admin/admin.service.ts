import {
  centsToDollars,
  type AdminUser,
  type AuditEntry,
  type LedgerAccount,
  type LedgerEntry,
  type Page,
} from '@tradehost/contracts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { auditRepository } from '../../db/audit.ts';
import { pagingOf } from '../../db/paging.ts';
import { ledgerRepository } from '../../db/ledger.ts';
import type { ServiceDeps } from '../deps.ts';
import { toAdminUser } from '../../db/user-response.ts';
import { userRepository } from '../../db/users.ts';
import { adminRepository } from './admin.repository.ts';

export type AdminService = ReturnType<typeof createAdminService>;

/**
 * The operator area's own part: the users, their ledgers and the audit log (who the operators
 * are: operators.service.ts).
 * Each module serves its own operator routes (`<module>.admin.routes.ts`).
 */
export function createAdminService(deps: Pick<ServiceDeps, 'db'>) {
  const { db } = deps;

  async function userOr404(userId: number, on: Executor = db) {
    const user = await userRepository.findById(on, userId);
    if (!user) throw new AppError(404, 'NOT_FOUND');
    return user;
  }

  return {
    async users(filter: {
      query: string;
      page: number;
      per_page: number;
    }): Promise<Page<AdminUser>> {
      const { limit, offset } = pagingOf(filter.page, filter.per_page);
      const { rows, total } = await adminRepository.users(db, filter.query, limit, offset);
      return {
        data: rows.map(toAdminUser),
        meta: { page: filter.page, per_page: filter.per_page, total },
      };
    },

    async user(userId: number): Promise<{ user: AdminUser }> {
      return { user: toAdminUser(await userOr404(userId)) };
    },

    async ledger(userId: number, page: number, perPage: number): Promise<Page<LedgerEntry>> {
      await userOr404(userId);
      const { limit, offset } = pagingOf(page, perPage);
      const { rows, total } = await ledgerRepository.pageForUser(db, userId, limit, offset);
      return {
        data: rows.map((row) => ({
          id: row.id,
          transaction_id: row.transactionId,
          created_at: row.createdAt.toISOString(),
          kind: row.kind,
          account: row.account as LedgerAccount,
          amount: centsToDollars(row.amountCents),
          balance_after: centsToDollars(row.balanceAfterCents ?? 0),
          memo: row.memo,
          memo_code: row.memoCode,
          memo_params: row.memoParams,
        })),
        meta: { page, per_page: perPage, total },
      };
    },

    async audit(page: number, perPage: number): Promise<Page<AuditEntry>> {
      const { limit, offset } = pagingOf(page, perPage);
      const { rows, total } = await auditRepository.page(db, limit, offset);
      return {
        data: rows.map(({ entry, actor, target }) => ({
          id: entry.id,
          created_at: entry.createdAt.toISOString(),
          actor: actor?.id ? actor : null,
          action: entry.action,
          subject_type: entry.subjectType,
          subject_id: entry.subjectId,
          target_user: target?.id ? target : null,
          details: entry.details,
        })),
        meta: { page, per_page: perPage, total },
      };
    },
  };
}
