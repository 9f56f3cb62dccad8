import { and, desc, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { Executor } from './client.ts';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { createReadBatcher } from '../lib/read-batcher.ts';
import { mappedOnce } from './prepared.ts';
import { alerts, users, type NewUserRow, type UserRow } from './schema/index.ts';

/**
 * The user by id, the statement most calls run (the signed-in user's row): built once per
 * database or transaction and run as a named prepared statement. Drizzle's query building (its
 * `is` checks over every column) was the largest part of GET /api/user/auth's CPU.
 */
const byId = new WeakMap<Executor, ReturnType<typeof buildById>>();
const buildById = (db: Executor) =>
  mappedOnce(
    db
      .select()
      .from(users)
      .where(eq(users.id, sql.placeholder('id')))
      .prepare('users_by_id'),
  );

/**
 * Outside a transaction, the reads by id of requests that arrive together are one statement
 * (lib/read-batcher.ts): under load the round trip to PostgreSQL, not the row, was what GET
 * /api/user/auth cost, in this process and in PostgreSQL's. A read still sees every commit made
 * before it was asked for; in a transaction it is the transaction's own statement.
 */
const byIds = new WeakMap<Executor, ReturnType<typeof createReadBatcher<number, UserRow>>>();
const buildByIds = (db: Executor) => {
  const query = mappedOnce(
    db
      .select()
      .from(users)
      .where(sql`${users.id} = any(${sql.placeholder('ids')}::bigint[])`)
      .prepare('users_by_ids'),
  );
  return createReadBatcher<number, UserRow>({
    read: async (ids) => new Map((await query.execute({ ids })).map((row) => [row.id, row])),
    max: 100,
    concurrency: 2,
  });
};

/** SQL on the users table (and the alerts users see). */
export const userRepository = {
  async findById(db: Executor, id: number): Promise<UserRow | undefined> {
    if (!(db instanceof PgTransaction)) {
      let batcher = byIds.get(db);
      if (!batcher) byIds.set(db, (batcher = buildByIds(db)));
      return batcher.load(id);
    }
    let query = byId.get(db);
    if (!query) byId.set(db, (query = buildById(db)));
    const [row] = await query.execute({ id });
    return row;
  },

  /** Case-insensitive, through the unique index on lower(email). */
  async findByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
    const [row] = await db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = lower(${email})`);
    return row;
  },

  /** The partner owning a referral code, case-insensitive (codes are stored upper-case). */
  async findIdByReferralCode(db: Executor, code: string): Promise<number | undefined> {
    const [row] = await db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.referralCode, code.trim().toUpperCase()));
    return row?.id;
  },

  async insert(db: Executor, values: NewUserRow): Promise<UserRow> {
    const [row] = await db.insert(users).values(values).returning();
    if (!row) throw new Error('insert into users returned no row');
    return row;
  },

  async setLanguage(db: Executor, id: number, language: 'en' | 'ru'): Promise<void> {
    await db.update(users).set({ language }).where(eq(users.id, id));
  },

  async setPasswordHash(db: Executor, id: number, passwordHash: string): Promise<void> {
    await db.update(users).set({ passwordHash }).where(eq(users.id, id));
  },

  /** Marks the e-mail confirmed unless it already is. */
  async markEmailVerified(db: Executor, id: number, at: Date): Promise<void> {
    await db
      .update(users)
      .set({ emailVerifiedAt: at })
      .where(and(eq(users.id, id), isNull(users.emailVerifiedAt)));
  },

  /** The newest active alert whose window covers `now`. */
  async findCurrentAlert(db: Executor, now: Date) {
    const [row] = await db
      .select()
      .from(alerts)
      .where(
        and(
          eq(alerts.active, true),
          lte(alerts.startsAt, now),
          or(isNull(alerts.endsAt), gt(alerts.endsAt, now)),
        ),
      )
      .orderBy(desc(alerts.createdAt), desc(alerts.id))
      .limit(1);
    return row;
  },
};
