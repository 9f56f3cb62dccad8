import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { quickUser, useTestApp } from './helpers.ts';

const run = promisify(execFile);
const DEMO = fileURLToPath(new URL('../src/cli/demo.ts', import.meta.url));

describe('npm run demo', () => {
  const t = useTestApp();
  const demo = (args: string[]) =>
    run(process.execPath, [DEMO, ...args], {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        DATABASE_URL: t.config.databaseUrl,
        VPS_SECRET_KEY: 'test-vps-key-test-vps-key-test-vps-key-0123',
        JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
        LOG_LEVEL: 'silent',
      },
    });

  it('gives a user a monitored account with months of history over the real protocol', async () => {
    const user = await quickUser(t);
    const { stdout } = await demo([user.email, '--url', t.url, '--months', '2']);
    expect(stdout).toMatch(/deals stored/);
    const accounts = await t.api.get('/api/user/monitoring/accounts', { token: user.token });
    expect(accounts.body.accounts).toHaveLength(1);
    const account = accounts.body.accounts[0];
    expect(account).toMatchObject({
      name: 'Demo account',
      platform: 'MT5',
      terminal_connected: true,
    });
    expect(account.ea_version).toBe('simulator-1.0');
    // it ends with where to look: the account's page
    expect(stdout).toContain(`/online-monitoring/${account.monitoring_id}\n`);
    const trades = await t.api.get(`/api/user/monitoring/accounts/${account.id}/trades`, {
      token: user.token,
    });
    expect(trades.body.meta.total).toBeGreaterThan(50);

    // run again: the same account, nothing sent twice
    const again = await demo([user.email, '--url', t.url, '--months', '2']);
    expect(again.stdout).toMatch(/: 0 deals stored/);
    expect(
      (await t.api.get('/api/user/monitoring/accounts', { token: user.token })).body.accounts,
    ).toHaveLength(1);
  }, 60_000);

  it('refuses an unknown e-mail and a server that does not answer, with what to do', async () => {
    const unknown = await demo(['nobody@example.com', '--url', t.url]).catch((error) => error);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Sign up first');
    const down = await demo(['nobody@example.com', '--url', 'http://127.0.0.1:9']).catch((e) => e);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('start it first');
    const usage = await demo([]).catch((error) => error);
    expect(usage.code).toBe(2);
  }, 60_000);
});
