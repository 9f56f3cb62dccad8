import { expect, type APIRequestContext } from '@playwright/test';
import { createTerminal, snapshotAt } from '../../packages/simulator/src/index.ts';
import { sql } from './money.ts';
import { monitoredAccount, type MonitoredAccount } from './monitoring.ts';

/**
 * The latency map's measurements for the journeys: one terminal of each of several traders,
 * each publishing through the simulator (the real ingestion protocol) from its owner's VPS
 * server in `location`. The server is a row at the address the publisher's requests come from
 * (the journeys' server sees them all from the loopback), as the hypervisor would have made it,
 * so that each ping point carries the location exactly as in production. The owners, in the
 * order of `pings`.
 */
export async function measuredBroker(
  request: APIRequestContext,
  baseURL: string,
  broker: string,
  pings: number[],
  location = 'London (LD4)',
): Promise<MonitoredAccount[]> {
  const owners: MonitoredAccount[] = [];
  for (const [index, ping] of pings.entries()) {
    const monitored = await monitoredAccount(request, { userName: `Lena Latency ${index + 1}` });
    const { login, key } = monitored;
    const terminal = createTerminal({ url: baseURL, key, login, months: 1, server: broker });
    await terminal.publishHistory();
    const minutesAgo = (minutes: number) => ({
      ...snapshotAt(terminal.history, login, new Date(Date.now() - minutes * 60_000), Math.random),
      ping_ms: ping,
    });
    // a first snapshot tells the address the publisher writes from (its ping has no location)
    await terminal.publisher.snapshot(minutesAgo(3));
    const made = await sql(
      `insert into vps_servers (user_id, rate_id, status, power, host, paid_until)
       select a.user_id, r.id, 'active', 'running', a.publisher_ip, now() + interval '30 days'
       from monitoring_accounts a,
         lateral (select id from vps_rates where location = $2 and active order by sort limit 1) r
       where a.id = $1 and a.publisher_ip is not null`,
      [monitored.account.id, location],
    );
    expect(made, `a server of ${monitored.user.email} at its publisher's address`).toBe(1);
    // a later minute's first snapshot: its ping point is measured from that server
    await terminal.publisher.snapshot(minutesAgo(1));
    owners.push(monitored);
  }
  return owners;
}
