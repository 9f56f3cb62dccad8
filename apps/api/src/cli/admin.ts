import { loadConfig } from '../config.ts';
import { createDb } from '../db/client.ts';
import { userRepository } from '../db/users.ts';
import { openCliDatabase } from './database.ts';

const USAGE =
  'usage: node apps/api/src/cli/admin.ts create <email>   (makes an existing user an admin)';

/** `admin create <email>`: gives an existing account the admin role. Uses the same database as the server. */
async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'reseal') return (await import('./reseal.ts')).reseal(loadConfig());
  const [command, email] = argv;
  if (command !== 'create' || !email) {
    console.error(USAGE);
    return 2;
  }
  const database = await openCliDatabase(loadConfig());
  try {
    const user = await userRepository.setRole(createDb(database.pool), email.trim(), 'admin');
    if (!user) {
      console.error(`No user with the e-mail ${email}. Sign up first, then run this again.`);
      return 1;
    }
    console.log(`${user.email} (id ${user.id}) is now an admin.`);
    return 0;
  } finally {
    await database.close();
  }
}

const code = await main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  return 1;
});
process.exit(code);
