import { OPERATOR_ROLES, type OperatorRole } from '@tradehost/contracts';
import { loadConfig } from '../config.ts';
import { createDb, type Db } from '../db/client.ts';
import { userRepository } from '../db/users.ts';
import { AppError } from '../lib/errors.ts';
import { createOperatorsService } from '../modules/admin/operators.service.ts';
import { openCliDatabase } from './database.ts';

const USAGE = `usage: npm run admin -- <command>   (node apps/api/src/cli/admin.ts <command>)
  grant <email> <role>    give an existing account an operator role
  revoke <email> <role>   take it away (the last admin role stays)
  list                    every operator, their roles and whether a second factor is on
  create <email>          the same as: grant <email> admin
  reseal                  rewrite every sealed value under the current keys (README)
roles: ${OPERATOR_ROLES.join(', ')}. Every grant and revoke is written to the operator audit
(by "cli"). An operator uses the operator area only once their account has a second factor.`;

const isRole = (value: string | undefined): value is OperatorRole =>
  (OPERATOR_ROLES as readonly string[]).includes(value ?? '');

type Command =
  { name: 'list' } | { name: 'grant' | 'revoke' | 'create'; email: string; role: OperatorRole };

/** The command of the arguments, or null for anything else (the usage is shown). */
function commandOf([name, email, role]: string[]): Command | null {
  if (name === 'list') return { name };
  if (name === 'create' && email) return { name, email, role: 'admin' };
  if ((name === 'grant' || name === 'revoke') && email && isRole(role))
    return { name, email, role };
  return null;
}

/** What one command does, on the server's database; the process's exit code. */
async function run(db: Db, command: Command): Promise<number> {
  const operators = createOperatorsService({ db, now: () => new Date() });
  if (command.name === 'list') {
    const { data } = await operators.list();
    if (data.length === 0) console.log('No operators.');
    for (const { user, roles, second_factor } of data)
      console.log(
        `${user.email} (id ${user.id}): ${roles.map((r) => r.role).join(', ')}` +
          (second_factor ? '' : ' (no second factor yet: the operator area refuses them)'),
      );
    return 0;
  }
  const user = await userRepository.findByEmail(db, command.email.trim());
  if (!user) {
    console.error(`No user with the e-mail ${command.email}. Sign up first, then run this again.`);
    return 1;
  }
  const change = command.name === 'revoke' ? operators.revoke : operators.grant;
  const { operator } = await change('cli', user.id, command.role);
  const held = operator.roles.map((r) => r.role);
  console.log(
    command.name === 'create'
      ? `${user.email} (id ${user.id}) is now an admin.`
      : `${user.email} (id ${user.id}) holds: ${held.join(', ') || 'no operator role'}.`,
  );
  if (held.length > 0 && !operator.second_factor)
    console.log('They need a second factor (Profile, Second factor) before the operator area.');
  return 0;
}

/**
 * `npm run admin -- grant|revoke <email> <role>`, `list`, and `create <email>` (grant admin):
 * operator roles from the command line, on the same database as the server.
 */
async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'reseal') return (await import('./reseal.ts')).reseal(loadConfig());
  const command = commandOf(argv);
  if (!command) {
    console.error(USAGE);
    return 2;
  }
  const database = await openCliDatabase(loadConfig());
  try {
    return await run(createDb(database.pool), command);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    console.error(error.message);
    return 1;
  } finally {
    await database.close();
  }
}

const code = await main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  return 1;
});
process.exit(code);
