import { and, asc, count, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { vpsSnapshots } from '../../db/schema/index.ts';

export type SnapshotRow = typeof vpsSnapshots.$inferSelect;

/** The hypervisor's name of a snapshot row: Proxmox allows only a few characters. */
export const machineSnapshotName = (snapshot: Pick<SnapshotRow, 'id'>) => `th${snapshot.id}`;

/** The rows of a server's snapshots (vps_snapshots); the hypervisor holds the snapshots. */
export const snapshotsRepository = {
  async ofServer(db: Executor, serverId: number): Promise<SnapshotRow[]> {
    return db
      .select()
      .from(vpsSnapshots)
      .where(eq(vpsSnapshots.serverId, serverId))
      .orderBy(asc(vpsSnapshots.id));
  },

  async count(db: Executor, serverId: number): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(vpsSnapshots)
      .where(eq(vpsSnapshots.serverId, serverId));
    return row?.n ?? 0;
  },

  async find(db: Executor, serverId: number, id: number): Promise<SnapshotRow | undefined> {
    const [row] = await db
      .select()
      .from(vpsSnapshots)
      .where(and(eq(vpsSnapshots.serverId, serverId), eq(vpsSnapshots.id, id)));
    return row;
  },

  async insert(
    db: Executor,
    values: { serverId: number; name: string; automatic?: boolean },
  ): Promise<SnapshotRow> {
    const [row] = await db.insert(vpsSnapshots).values(values).returning();
    return row!;
  },

  async update(db: Executor, id: number, values: Partial<SnapshotRow>): Promise<void> {
    await db.update(vpsSnapshots).set(values).where(eq(vpsSnapshots.id, id));
  },

  async remove(db: Executor, id: number): Promise<void> {
    await db.delete(vpsSnapshots).where(eq(vpsSnapshots.id, id));
  },
};
