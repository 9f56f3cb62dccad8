import { and, count, desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { payments, users } from '../../db/schema/index.ts';
import type { PaymentStatusValue } from './balance.repository.ts';

const owner = alias(users, 'owner');
const reviewer = alias(users, 'reviewer');

/** The operator's queries of payments, with the people of each. */
export const balanceAdminRepository = {
  async payments(
    db: Executor,
    filter: { status: PaymentStatusValue; method?: string | undefined },
    limit: number,
    offset: number,
  ) {
    const where = and(
      eq(payments.status, filter.status),
      ...(filter.method ? [eq(payments.method, filter.method as 'crypto')] : []),
    );
    const rows = await db
      .select({
        payment: payments,
        user: { id: owner.id, email: owner.email, name: owner.name },
        reviewer: { id: reviewer.id, email: reviewer.email, name: reviewer.name },
      })
      .from(payments)
      .innerJoin(owner, eq(owner.id, payments.userId))
      .leftJoin(reviewer, eq(reviewer.id, payments.reviewedBy))
      .where(where)
      // the queue is served oldest first: the longest waiting is reviewed first
      .orderBy(
        ...(filter.status === 'under_review'
          ? [payments.createdAt, payments.id]
          : [desc(payments.createdAt), desc(payments.id)]),
      )
      .limit(limit)
      .offset(offset);
    const [total] = await db.select({ n: count() }).from(payments).where(where);
    return { rows, total: total?.n ?? 0 };
  },

  async paymentWithPeople(db: Executor, id: number) {
    const [row] = await db
      .select({
        payment: payments,
        user: { id: owner.id, email: owner.email, name: owner.name },
        reviewer: { id: reviewer.id, email: reviewer.email, name: reviewer.name },
      })
      .from(payments)
      .innerJoin(owner, eq(owner.id, payments.userId))
      .leftJoin(reviewer, eq(reviewer.id, payments.reviewedBy))
      .where(eq(payments.id, id));
    return row;
  },
};
