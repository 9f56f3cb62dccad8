import { sql } from 'drizzle-orm';
import type { Executor } from './client.ts';

/**
 * Who referred whom. A user's referrer is set once (at sign-up with a partner code, or by a
 * partner's promocode on the first paid order) and never changes; levels 2 and 3 are the
 * referrer's own referrers, kept as columns so each partner query is one indexed read. Used by
 * sign-up (auth) and orders (vps), in their transactions.
 */
export const referrals = {
  /**
   * Makes `referrerId` the referrer of `userId`, who has none yet: fills the user's three levels,
   * moves the user's own referrals (levels 2 and 3 below) under the new referrer too, and adds
   * them all to the referrers' counts. Refused (false, nothing written) when the user already has
   * a referrer, or when it would make anyone their own referrer within three levels.
   */
  async attach(tx: Executor, userId: number, referrerId: number): Promise<boolean> {
    if (referrerId === userId) return false;
    // both rows locked (in id order): two attachments of the same pair cannot make a loop
    const { rows } = await tx.execute<{
      id: string;
      r1: string | null;
      r2: string | null;
      r3: string | null;
    }>(
      sql`select id, referrer_id as r1, referrer2_id as r2, referrer3_id as r3
          from users where id in (${userId}, ${referrerId}) order by id for update`,
    );
    const referrer = rows.find((row) => Number(row.id) === referrerId);
    if (!referrer) return false;
    const idOf = (id: string | null) => (id === null ? null : Number(id));
    const up1 = idOf(referrer.r1);
    const up2 = idOf(referrer.r2);
    const up3 = idOf(referrer.r3);
    // the referrer is among the user's own referrals
    if (up1 === userId || up2 === userId || up3 === userId) return false;
    const attached = await tx.execute(sql`
      update users set referrer_id = ${referrerId}, referrer2_id = ${up1}, referrer3_id = ${up2}
      where id = ${userId} and referrer_id is null`);
    if (attached.rowCount !== 1) return false;
    const children = await tx.execute(sql`
      update users set referrer2_id = ${referrerId}, referrer3_id = ${up1}
      where referrer_id = ${userId}`);
    const grandchildren = await tx.execute(sql`
      update users set referrer3_id = ${referrerId} where referrer2_id = ${userId}`);
    const below1 = children.rowCount ?? 0;
    const below2 = grandchildren.rowCount ?? 0;
    const added: Array<[partnerId: number | null, level: number, users: number]> = [
      [referrerId, 1, 1],
      [referrerId, 2, below1],
      [referrerId, 3, below2],
      [up1, 2, 1],
      [up1, 3, below1],
      [up2, 3, 1],
    ];
    const counts = added.filter(([partnerId, , users]) => partnerId !== null && users > 0);
    await tx.execute(sql`
      insert into partner_levels as p (partner_id, level, users)
      values ${sql.join(
        counts.map(([partnerId, level, users]) => sql`(${partnerId}, ${level}, ${users})`),
        sql`, `,
      )}
      on conflict (partner_id, level) do update set users = p.users + excluded.users`);
    return true;
  },
};
