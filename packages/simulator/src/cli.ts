import { parseArgs } from 'node:util';
import { PublisherRefused } from './publisher.ts';
import { createTerminal } from './terminal.ts';

/**
 * `npm run simulate -- --key mk_... --login 5012345 [--url http://localhost:8080]
 *   [--platform MT5] [--months 6] [--seed N] [--snapshots 30] [--speed 1]`
 * Publishes a generated history to a running server, then a stream of snapshots.
 */
const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://localhost:8080' },
    key: { type: 'string' },
    login: { type: 'string' },
    platform: { type: 'string', default: 'MT5' },
    months: { type: 'string', default: '6' },
    seed: { type: 'string' },
    snapshots: { type: 'string', default: '30' },
    speed: { type: 'string', default: '1' },
  },
});

if (!values.key || !values.login || !['MT4', 'MT5'].includes(values.platform)) {
  console.error(
    'usage: npm run simulate -- --key <activation key> --login <account number> [--url http://localhost:8080] [--platform MT5|MT4] [--months 6] [--seed N] [--snapshots 30] [--speed 1]',
  );
  process.exit(2);
}

const terminal = createTerminal({
  url: values.url,
  key: values.key,
  login: Number(values.login),
  platform: values.platform as 'MT4' | 'MT5',
  months: Number(values.months),
  ...(values.seed ? { seed: Number(values.seed) } : {}),
  log: (line) => console.log(line),
});
try {
  await terminal.publishHistory();
  await terminal.streamSnapshots(Number(values.snapshots), 10_000, Number(values.speed));
} catch (error) {
  if (error instanceof PublisherRefused) {
    console.error(`the server refused: ${error.message} (${error.status})`);
    process.exit(1);
  }
  throw error;
}
