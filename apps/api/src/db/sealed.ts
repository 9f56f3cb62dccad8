import { getTableName, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Config } from '../config.ts';
import {
  isStale,
  open,
  seal,
  SealedSecretError,
  type SealedPlace,
  type SealingKeys,
} from '../lib/crypto-box.ts';
import type { Db } from './client.ts';
import { monitoringSubscriptions, userTotp, vpsServers } from './schema/index.ts';
import { secondFactorSettings } from './second-factor.ts';

/**
 * Every column of sealed values (lib/crypto-box.ts): where they live, the row key they are bound
 * to, and the keys of their purpose. `npm run admin -- reseal` goes through them all.
 */
export interface SealedColumn {
  table: string;
  column: string;
  /** The column of the row key a value is bound to. */
  key: string;
  keys: (config: Config) => SealingKeys;
}

const column = (
  table: PgTable,
  value: PgColumn,
  key: PgColumn,
  keys: (config: Config) => SealingKeys,
): SealedColumn => ({ table: getTableName(table), column: value.name, key: key.name, keys });

export const SEALED = {
  vpsPassword: column(vpsServers, vpsServers.passwordEnc, vpsServers.id, (c) => c.vps.passwordKeys),
  monitoringKey: column(
    monitoringSubscriptions,
    monitoringSubscriptions.keySealed,
    monitoringSubscriptions.id,
    (c) => c.monitoring.activationKeys,
  ),
  totpSecret: column(
    userTotp,
    userTotp.secret,
    userTotp.userId,
    (c) => secondFactorSettings(c).totpKeys,
  ),
} as const;

/** The place of row `id`'s value in `sealed`: the value opens there only. */
export const sealedPlace = (sealed: SealedColumn, id: number | string): SealedPlace => ({
  table: sealed.table,
  column: sealed.column,
  id,
});

/** `plaintext` sealed for row `id` of `sealed`, under the current key. */
export const sealIn = (config: Config, sealed: SealedColumn, id: number, plaintext: string) =>
  seal(sealed.keys(config), sealedPlace(sealed, id), plaintext);

/** Row `id`'s `value` of `sealed`, opened; SealedSecretError when it does not open there. */
export const openIn = (config: Config, sealed: SealedColumn, id: number, value: string) =>
  open(sealed.keys(config), sealedPlace(sealed, id), value);

/** What a reseal did to one column. */
export interface ResealCounts {
  table: string;
  column: string;
  /** Rows with a value. */
  sealed: number;
  /** Rewritten under the current key (v1 or the previous key's). */
  resealed: number;
  /** Left as they were: none of the keys opens them (each is logged). */
  unopenable: number;
}

export const RESEAL_BATCH = 500;

/**
 * Rewrites every value of `sealed` that is not under the current key yet (`isStale`), in batches
 * of `batch` rows by row key, each batch one transaction holding its rows (FOR UPDATE). A value no
 * key opens is left as it is and told to `warn`. Idempotent: a second run rewrites nothing.
 */
export async function resealColumn(
  db: Db,
  config: Config,
  sealed: SealedColumn,
  { batch = RESEAL_BATCH, warn = console.warn }: { batch?: number; warn?: (line: string) => void },
): Promise<ResealCounts> {
  const keys = sealed.keys(config);
  const counts = {
    table: sealed.table,
    column: sealed.column,
    sealed: 0,
    resealed: 0,
    unopenable: 0,
  };
  const [table, value, key] = [sealed.table, sealed.column, sealed.key].map((name) =>
    sql.identifier(name),
  );
  let after: string | undefined;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const { rows } = await tx.execute<{ id: string; sealed: string }>(sql`
        select ${key}::text as id, ${value} as sealed from ${table}
        where ${value} is not null ${after === undefined ? sql`` : sql`and ${key} > ${after}`}
        order by ${key} limit ${batch} for update`);
      let resealed = 0;
      let unopenable = 0;
      for (const row of rows) {
        if (!isStale(keys, row.sealed)) continue;
        const place = sealedPlace(sealed, row.id);
        let plaintext: string;
        try {
          plaintext = open(keys, place, row.sealed);
        } catch (error) {
          if (!(error instanceof SealedSecretError)) throw error;
          warn(`${sealed.table}.${sealed.column} ${row.id}: ${error.message}; left as it is`);
          unopenable += 1;
          continue;
        }
        await tx.execute(
          sql`update ${table} set ${value} = ${seal(keys, place, plaintext)} where ${key} = ${row.id}`,
        );
        resealed += 1;
      }
      return { rows: rows.length, last: rows.at(-1)?.id, resealed, unopenable };
    });
    counts.sealed += done.rows;
    counts.resealed += done.resealed;
    counts.unopenable += done.unopenable;
    if (done.rows < batch || done.last === undefined) return counts;
    after = done.last;
  }
}

/** `resealColumn` for every sealed column, in order. */
export async function resealAll(
  db: Db,
  config: Config,
  options: { batch?: number; warn?: (line: string) => void } = {},
): Promise<ResealCounts[]> {
  const counts: ResealCounts[] = [];
  for (const sealed of Object.values(SEALED))
    counts.push(await resealColumn(db, config, sealed, options));
  return counts;
}
