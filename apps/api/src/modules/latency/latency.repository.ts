import { BROKER_SUGGESTIONS_MAX, LATENCY_MIN_OWNERS } from '@tradehost/contracts';
import { and, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { monitoringPings, vpsRates } from '../../db/schema/index.ts';

/**
 * The latency map's reads, over the publishers' ping points (`monitoring_pings`, written by the
 * monitoring ingestion) and the rate catalogue. Every figure is an aggregate of a (trade server,
 * location) whose points come from terminals of at least LATENCY_MIN_OWNERS owners: the rule is
 * in the SQL (`owners >= ...`), so no caller can read a figure of fewer. A trade server is its
 * name in any case (`lower(server)`, what monitoring_pings_server_idx holds).
 */

export interface LocationFiguresRow {
  location: string;
  median_ms: number | null;
  p90_ms: number | null;
  terminals: number | null;
  [key: string]: unknown;
}

export interface AdminFiguresRow {
  location: string;
  broker: string;
  median_ms: number;
  p90_ms: number;
  terminals: number;
}

/** `text` for LIKE as itself: its wildcards and the escape character escaped. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Each (location, trade server) of the points taken since `since` that `where` keeps: the
 * median and 90th percentile (PostgreSQL's percentile_cont, interpolated) and the distinct
 * terminals and owners behind them.
 */
const measured = (since: Date, where: SQL) => sql`
  select location, lower(server) as key, min(server) as broker,
    percentile_cont(array[0.5, 0.9]) within group (order by ping_ms) as p,
    count(distinct account_id) as terminals, count(distinct user_id) as owners
  from ${monitoringPings}
  where at >= ${since} and location is not null and ${where}
  group by location, lower(server)`;

export const latencyRepository = {
  /**
   * The locations of the offered rates, in the catalogue's order (a location's first rate's),
   * each with its figures to `broker`, or nulls.
   */
  async byLocation(db: Executor, broker: string, since: Date): Promise<LocationFiguresRow[]> {
    const { rows } = await db.execute<LocationFiguresRow>(sql`
      with measured as (${measured(since, sql`lower(server) = lower(${broker})`)}),
      catalogue as (
        select location, min(sort) as sort, min(id) as first from ${vpsRates}
        where active group by location)
      select c.location, round(m.p[1]::numeric)::int as median_ms,
        round(m.p[2]::numeric)::int as p90_ms,
        m.terminals::int as terminals
      from catalogue c
      -- the anonymity rule: no figure of fewer owners' terminals
      left join measured m on m.location = c.location and m.owners >= ${LATENCY_MIN_OWNERS}
      order by c.sort, c.first`);
    return rows;
  },

  /**
   * Trade server names starting with `prefix` (any case) that have a point, alphabetically by
   * their lower case, one spelling each: a walk of the index from name to name (each step one
   * probe past the last name), so a name with many points costs no more than one with a few.
   */
  async brokers(db: Executor, prefix: string): Promise<string[]> {
    const pattern = sql`lower(${likeEscaped(prefix)}) || '%'`;
    const { rows } = await db.execute<{ server: string }>(sql`
      with recursive names as (
        (select lower(server) as key, server from ${monitoringPings}
          where lower(server) like ${pattern} order by lower(server) using ~<~ limit 1)
        union all
        (select lower(p.server), p.server from names n, lateral (
          select server from ${monitoringPings}
          where lower(server) ~>~ n.key and lower(server) like ${pattern}
          order by lower(server) using ~<~ limit 1) p))
      select server from names limit ${BROKER_SUGGESTIONS_MAX}`);
    return rows.map((r) => r.server);
  },

  /**
   * The operator's list: every (location, trade server) with figures, by location, then the
   * most terminals, then the name; a page of them and how many there are.
   */
  async page(
    db: Executor,
    since: Date,
    filter: { location?: string | undefined; broker?: string | undefined },
    paging: { limit: number; offset: number },
  ): Promise<{ rows: AdminFiguresRow[]; total: number }> {
    const where = and(
      sql`true`,
      filter.location === undefined ? undefined : sql`location = ${filter.location}`,
      filter.broker === undefined
        ? undefined
        : sql`lower(server) like lower(${likeEscaped(filter.broker)}) || '%'`,
    )!;
    const { rows } = await db.execute<{ total: string; rows: AdminFiguresRow[] | null }>(sql`
      with shown as (
        select * from (${measured(since, where)}) m
        -- the anonymity rule, as for users
        where owners >= ${LATENCY_MIN_OWNERS})
      select (select count(*) from shown) as total, (
        select json_agg(json_build_object('location', location, 'broker', broker,
            'median_ms', round(p[1]::numeric)::int, 'p90_ms', round(p[2]::numeric)::int,
            'terminals', terminals::int) order by location, terminals desc, key)
        from (select * from shown order by location, terminals desc, key
          limit ${paging.limit} offset ${paging.offset}) page) as rows`);
    return { rows: rows[0]?.rows ?? [], total: Number(rows[0]?.total ?? 0) };
  },
};
