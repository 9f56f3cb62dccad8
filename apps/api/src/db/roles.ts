import type pg from 'pg';
import PgBoss from 'pg-boss';

/**
 * Two database roles: the owner, who runs the migrations and owns every table, trigger and
 * function of the product's schema, and the application's role, which reads and writes rows and
 * nothing more. The application therefore cannot switch off what guards the money: the ledger's
 * and the audit's append-only triggers (`ALTER TABLE ... DISABLE TRIGGER`, `DROP TRIGGER` and
 * `TRUNCATE` need the owner), nor add or change a table. The job queue's schema (pg-boss, which
 * makes a table per queue as queues are created) is the application's own.
 *
 * The embedded PostgreSQL makes both (`postgres`, the superuser, owns; `APP_ROLE` runs the
 * server). With DATABASE_URL, DATABASE_MIGRATION_URL names the owner; without it the one role
 * of DATABASE_URL does both, and the server warns at start (`ownsTables`).
 */
export const APP_ROLE = 'tradehost_app';
/** The job queue's schema (pg-boss's tables). */
export const PGBOSS_SCHEMA = 'pgboss';

/** `role`, quoted as an SQL identifier (a role name from a URL is the user's input). */
function quoted(role: string): string {
  return `"${role.replaceAll('"', '""')}"`;
}

/** The user name of a postgres:// URL. */
export function roleOf(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).username);
}

/** Creates the login role `role` with `password`, or sets its password (run as a superuser). */
export async function ensureLoginRole(
  admin: pg.ClientBase | pg.Pool,
  role: string,
  password: string,
): Promise<void> {
  const found = await admin.query('select 1 from pg_roles where rolname = $1', [role]);
  const verb = found.rowCount === 0 ? 'create' : 'alter';
  // a role's password cannot be a bind parameter
  const literal = `'${password.replaceAll("'", "''")}'`;
  await admin.query(`${verb} role ${quoted(role)} with login password ${literal}`);
}

/**
 * Gives `role` what the application needs after a migration, as the owner: rows of every table
 * of the public schema, its sequences, and the job queue's schema as its own. Run after every
 * migration (new tables) by the owner, under the migrations' lock; idempotent.
 */
export async function grantAppRole(owner: pg.ClientBase | pg.Pool, role: string): Promise<void> {
  const app = quoted(role);
  const boss = quoted(PGBOSS_SCHEMA);
  const { rows } = await owner.query<{ database: string }>('select current_database() as database');
  const statements = [
    `grant connect, temporary on database ${quoted(rows[0]!.database)} to ${app}`,
    // PostgreSQL before 15 let every role create tables in public
    'revoke create on schema public from public',
    `grant usage on schema public to ${app}`,
    `grant select, insert, update, delete on all tables in schema public to ${app}`,
    `grant usage, select, update on all sequences in schema public to ${app}`,
    `grant execute on all functions in schema public to ${app}`,
  ];
  for (const statement of statements) await owner.query(statement);
  // pg-boss installs its schema at its first start, which takes the right to create schemas in
  // the database: installed here by the owner instead, then handed over with the rest
  const installed = await owner.query<{ ok: boolean }>('select to_regclass($1) is not null as ok', [
    `${PGBOSS_SCHEMA}.version`,
  ]);
  if (!installed.rows[0]?.ok) await owner.query(PgBoss.getConstructionPlans(PGBOSS_SCHEMA));
  await owner.query(`alter schema ${boss} owner to ${app}`);
  // a queue schema installed before the roles were split belongs to the owner: hand it over
  const objects = await owner.query<{ kind: string; name: string }>(
    `select case when c.relkind = 'S' then 'sequence' else 'table' end as kind,
            format('%I.%I', n.nspname, c.relname) as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind in ('r', 'p', 'S') and pg_get_userbyid(c.relowner) <> $2
     union all
     select 'function', p.oid::regprocedure::text
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = $1 and pg_get_userbyid(p.proowner) <> $2`,
    [PGBOSS_SCHEMA, role],
  );
  for (const { kind, name } of objects.rows)
    await owner.query(`alter ${kind} ${name} owner to ${app}`);
}

/** How many tables of the public schema the connection's own role owns (0 for the application's). */
export async function ownsTables(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ owned: number }>(
    `select count(*)::int as owned from pg_tables
      where schemaname = 'public' and tableowner = current_user`,
  );
  return rows[0]!.owned;
}
