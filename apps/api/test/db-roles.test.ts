import { randomBytes } from 'node:crypto';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { grantAppRole, ownsTables, PGBOSS_SCHEMA } from '../src/db/roles.ts';
import { databaseUrl } from './global-setup.ts';

/**
 * The application's database role (db/roles.ts) writes rows and nothing else: what guards the
 * money (the ledger's append-only triggers) cannot be switched off through it. A database of its
 * own (copied from the migrated template) and a role of its own, granted as the server grants it
 * after a migration.
 */
const adminUrl = inject('adminUrl');
const database = `th_roles_${randomBytes(6).toString('hex')}`;
const role = `th_app_${randomBytes(6).toString('hex')}`;
const password = randomBytes(12).toString('hex');
let owner: pg.Pool;
let app: pg.Pool;

/** The connection string of the test database as `user`. */
function urlAs(user: string, secret: string): string {
  const url = new URL(databaseUrl(adminUrl, database));
  url.username = user;
  url.password = secret;
  return url.toString();
}

/** The SQLSTATE `statement` fails with as the application's role (undefined: it worked). */
async function failureOf(statement: string): Promise<string | undefined> {
  try {
    await app.query(statement);
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${database} template ${inject('templateDatabase')}`);
    await admin.query(`create role ${role} login password '${password}'`);
  } finally {
    await admin.end();
  }
  owner = new pg.Pool({ connectionString: databaseUrl(adminUrl, database), max: 1 });
  await grantAppRole(owner, role);
  app = new pg.Pool({ connectionString: urlAs(role, password), max: 2 });
});

afterAll(async () => {
  await app?.end();
  await owner?.end();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.query(`drop role if exists ${role}`);
  } finally {
    await admin.end();
  }
});

describe("the application's database role", () => {
  it('reads and writes rows', async () => {
    await app.query(`insert into settings (key, value) values ('roles-test', '1'::jsonb)`);
    await app.query(`update settings set value = '2'::jsonb where key = 'roles-test'`);
    const { rows } = await app.query(`select value from settings where key = 'roles-test'`);
    expect(rows).toEqual([{ value: 2 }]);
    await app.query(`delete from settings where key = 'roles-test'`);
    expect(await ownsTables(app)).toBe(0);
    expect(await ownsTables(owner)).toBeGreaterThan(50);
  });

  it('cannot switch off, drop or go around the ledger’s append-only triggers', async () => {
    // 42501: insufficient privilege (must be the owner)
    expect(await failureOf('alter table ledger_entries disable trigger all')).toBe('42501');
    expect(
      await failureOf('alter table ledger_entries disable trigger ledger_entries_append_only'),
    ).toBe('42501');
    expect(await failureOf('drop trigger ledger_entries_append_only on ledger_entries')).toBe(
      '42501',
    );
    expect(await failureOf('truncate ledger_entries')).toBe('42501');
    expect(await failureOf("set session_replication_role = 'replica'")).toBe('42501');
    expect(
      await failureOf(
        'create or replace function ledger_append_only() returns trigger language plpgsql as $$ begin return new; end $$',
      ),
    ).toBe('42501');
    // and the triggers are all there, switched on
    const { rows } = await app.query(
      `select tgname, tgenabled from pg_trigger
        where tgrelid = 'ledger_entries'::regclass and not tgisinternal order by tgname`,
    );
    expect(rows.map((row) => row.tgenabled)).toEqual(rows.map(() => 'O'));
    expect(rows.map((row) => row.tgname)).toEqual(
      expect.arrayContaining(['ledger_entries_append_only', 'ledger_entries_no_truncate']),
    );
  });

  it('cannot add or change tables of the product', async () => {
    expect(await failureOf('create table public.mine (id int)')).toBe('42501');
    expect(await failureOf('alter table users add column mine int')).toBe('42501');
    expect(await failureOf('drop table settings')).toBe('42501');
  });

  it('runs the job queue in a schema of its own (pg-boss makes a table per queue)', async () => {
    const boss = new PgBoss({ connectionString: urlAs(role, password), schema: PGBOSS_SCHEMA });
    boss.on('error', () => undefined);
    await boss.start();
    try {
      const queue = `roles-test-${randomBytes(3).toString('hex')}`;
      await boss.createQueue(queue);
      const id = await boss.send(queue, { hello: 'world' });
      expect(id).toEqual(expect.any(String));
      const [job] = await boss.fetch<{ hello: string }>(queue);
      expect(job?.data).toEqual({ hello: 'world' });
    } finally {
      await boss.stop({ graceful: false, wait: true });
    }
  });

  it('is granted again without harm (every start does it)', async () => {
    await grantAppRole(owner, role);
    expect(await failureOf('select count(*) from users')).toBeUndefined();
  });
});
