import { parseArgs } from 'node:util';
import { createTerminal, PublisherRefused } from '@tradehost/simulator';
import { loadConfig } from '../config.ts';
import { createDb } from '../db/client.ts';
import { openIn, SEALED, sealIn } from '../db/sealed.ts';
import { newActivationKey, newMonitoringId } from '../modules/monitoring/monitoring.service.ts';
import { monitoringRepository as repo } from '../modules/monitoring/monitoring.repository.ts';
import { userRepository } from '../db/users.ts';
import { openCliDatabase } from './database.ts';

const USAGE =
  'usage: npm run demo -- <email> [--url http://localhost:8080] [--months 6]   (the server must be running: npm start)';

/**
 * `npm run demo -- you@example.com`: gives an existing user a monitored account with months of
 * realistic history. It takes the user's free plan (or uses the account already in it), then a
 * simulated terminal publishes to the running server over the real ingestion protocol.
 */
async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      months: { type: 'string', default: '6' },
    },
  });
  const [email] = positionals;
  const months = Number(values.months);
  if (!email || !Number.isInteger(months) || months < 1 || months > 36) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const url = values.url ?? `http://localhost:${config.port}`;
  try {
    await fetch(`${url}/api/front/permissions`);
  } catch {
    console.error(`No server answers at ${url}: start it first (npm start), then run this again.`);
    return 1;
  }

  const database = await openCliDatabase(config);
  let demo: { key: string; login: number; monitoringId: string };
  try {
    const db = createDb(database.pool);
    const user = await userRepository.findByEmail(db, email.trim());
    if (!user) {
      console.error(`No user with the e-mail ${email}. Sign up first, then run this again.`);
      return 1;
    }
    demo = await db.transaction(async (tx) => {
      const fresh = newActivationKey();
      const subscription =
        (await repo.subscriptions(tx, user.id)).find((r) => r.subscription.plan === 'free')
          ?.subscription ??
        (await repo.insertSubscription(
          tx,
          { userId: user.id, plan: 'free', accounts: 1, keyHash: fresh.keyHash },
          (id) => sealIn(config, SEALED.monitoringKey, id, fresh.key),
        ));
      const account =
        (await repo.accounts(tx, user.id)).find((r) => r.account.subscriptionId === subscription.id)
          ?.account ??
        (await repo.insertAccount(tx, {
          subscriptionId: subscription.id,
          userId: user.id,
          monitoringId: newMonitoringId(),
          login: 50_000_000 + user.id,
          platform: 'MT5',
          name: 'Demo account',
          email: user.email,
        }));
      return {
        key: openIn(config, SEALED.monitoringKey, subscription.id, subscription.keySealed),
        login: account.login,
        monitoringId: account.monitoringId,
      };
    });
  } finally {
    await database.close();
  }

  const terminal = createTerminal({
    url,
    key: demo.key,
    login: demo.login,
    months,
    log: (line) => console.log(line),
  });
  try {
    await terminal.publishHistory();
    await terminal.streamSnapshots(6, 10_000, 10);
  } catch (error) {
    if (error instanceof PublisherRefused) {
      console.error(`The server refused the publisher: ${error.message}`);
      return 1;
    }
    throw error;
  }
  console.log(`Open ${config.publicUrl}/online-monitoring/${demo.monitoringId}`);
  return 0;
}

const code = await main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  return 1;
});
process.exit(code);
