import { sql, type SQL } from 'drizzle-orm';
import { monitoringAccounts, vpsServers } from './schema/index.ts';

/**
 * Which monitored terminal runs on which VPS server, for the modules that need to know (the
 * monitoring's silent-terminal alert names the servers, the servers list shows their terminals'
 * ping): an account publishes from a server when its publisher's latest address is the server's
 * and the server is the account owner's (another user's server at a reused address is not where
 * this terminal runs), and the server is not a failed order. A condition over monitoring_accounts
 * and vps_servers, as a statement joining the two puts it.
 */
export const publishesFrom = (): SQL =>
  sql`${monitoringAccounts.userId} = ${vpsServers.userId}
    and ${monitoringAccounts.publisherIp} = ${vpsServers.host} and ${vpsServers.status} <> 'failed'`;
