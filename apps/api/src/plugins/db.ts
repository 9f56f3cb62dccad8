import fp from 'fastify-plugin';
import type pg from 'pg';
import { createDb, createPool, endPool, type Db } from '../db/client.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    pg: pg.Pool;
  }
}

/** The node-postgres pool and its drizzle instance; a pool the plugin created is closed with the app. */
export const dbPlugin = fp(
  async (
    app,
    { pool, databaseUrl }: { pool?: pg.Pool | undefined; databaseUrl?: string | undefined },
  ) => {
    let owned: pg.Pool | undefined;
    if (!pool) {
      if (!databaseUrl) throw new Error('buildApp needs deps.pool or config.databaseUrl');
      owned = createPool(databaseUrl);
    }
    const usable = pool ?? owned!;
    app.decorate('pg', usable);
    app.decorate('db', createDb(usable));
    if (owned) app.addHook('onClose', async () => endPool(owned));
  },
  { name: 'tradehost-db' },
);
