/**
 * The Windows guest as far as `exec` sees it, shared by the simulated driver and the Proxmox fake
 * (test/proxmox-fake.ts) so both answer a terminal guardian alike: a process table, and the two
 * programs the guardian runs, printing what Windows prints (en-US):
 * - `tasklist [/fo table|list|csv] [/nh] [/fi "<filter>"]...`, e.g. with /fo csv /nh one line a
 *   process, `"terminal64.exe","4312","Console","1","182,420 K"`, and, when no process matches the
 *   filters, `INFO: No tasks are running which match the specified criteria.` on stdout with exit
 *   code 0 (a guardian must not read that line as a process).
 * - `schtasks /run /tn <task>`: for the task the template ships (START_TERMINALS_TASK) it prints
 *   `SUCCESS: Attempted to run the scheduled task "<task>".` and the terminals installed on the
 *   disk that are not running start again; an unknown task is Windows' "ERROR: The system cannot
 *   find the file specified." on stderr with exit code 1.
 * Lines end in CRLF; the listing has Windows' own processes and tasklist itself besides the
 * terminals; filters on IMAGENAME (a trailing '*' allowed), PID, SESSIONNAME and SESSION are
 * understood, others are tasklist's "ERROR: The search filter cannot be recognized.". Anything
 * else exits 1 with a line saying it is not modelled. The commands come as the guest agent passes
 * them: program, then each argument (no shell, so no quotes around a filter).
 *
 * Why the template's task: the template signs the trading user in automatically and its task
 * `TradeHost\StartTerminals` runs at that logon, so a boot starts the terminals, and a guardian
 * that finds one gone runs the task rather than knowing where each terminal is installed.
 */

/** The MetaTrader 5 terminal's process image (MetaTrader 4 is terminal.exe). */
export const TERMINAL_IMAGE = 'terminal64.exe';

/** The scheduled task of the template that starts the installed terminals. */
export const START_TERMINALS_TASK = 'TradeHost\\StartTerminals';

/** A process as tasklist shows it. */
export interface GuestProcess {
  image: string;
  pid: number;
  sessionName: string;
  sessionNumber: number;
  /** Its working set in KiB; a terminal's is derived from its pid (steady, as a quiet one's is). */
  memoryKb?: number;
}

export interface GuestRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** The command asks the installed terminals that are not running to start. */
  startsTerminals: boolean;
}

/**
 * What runs on every booted machine besides the terminals (a Windows Server's own processes and
 * the guest agent), with their usual low pids; terminals get pids clear of them.
 */
const SYSTEM_PROCESSES: readonly GuestProcess[] = (
  [
    // image, pid, session (0: the services', 1: the console's), working set in KiB
    ['System Idle Process', 0, 0, 8],
    ['System', 4, 0, 144],
    ['smss.exe', 388, 0, 1_204],
    ['csrss.exe', 532, 0, 5_228],
    ['wininit.exe', 612, 0, 6_892],
    ['csrss.exe', 620, 1, 5_504],
    ['winlogon.exe', 680, 1, 11_736],
    ['services.exe', 744, 0, 10_516],
    ['lsass.exe', 764, 0, 18_240],
    ['svchost.exe', 892, 0, 24_612],
    ['qemu-ga.exe', 1_840, 0, 7_340],
    ['explorer.exe', 3_440, 1, 98_120],
  ] as const
).map(([image, pid, session, memoryKb]) => ({
  image,
  pid,
  sessionName: session === 0 ? 'Services' : 'Console',
  sessionNumber: session,
  memoryKb,
}));

const LOWEST_PID = 4_000;
const PID_RANGE = 60_000;

/** A pid Windows could give a new process: a multiple of 4, not in use. */
export function freePid(taken: Iterable<number>, random: () => number = Math.random): number {
  const used = new Set(taken);
  for (;;) {
    const pid = LOWEST_PID + 4 * Math.floor(random() * (PID_RANGE / 4));
    if (!used.has(pid)) return pid;
  }
}

/**
 * The terminals to start so that each installed one runs: the installed list less the running
 * ones, image by image (three installed and one running start two).
 */
export function terminalsToStart(
  installed: readonly string[],
  running: readonly Pick<GuestProcess, 'image'>[],
): string[] {
  const left = running.map((p) => p.image.toLowerCase());
  return installed.filter((image) => {
    const at = left.indexOf(image.toLowerCase());
    if (at < 0) return true;
    left.splice(at, 1);
    return false;
  });
}

const memoryKb = (process: GuestProcess) =>
  process.memoryKb ?? 150_000 + ((process.pid * 7_919) % 90_000);

/** "182,420 K", as tasklist writes a working set with en-US digit grouping. */
const memUsage = (kb: number) => `${String(kb).replace(/\B(?=(\d{3})+(?!\d))/g, ',')} K`;

const CRLF = '\r\n';
const ok = (stdout: string): GuestRun => ({
  exitCode: 0,
  stdout,
  stderr: '',
  startsTerminals: false,
});
const error = (stderr: string): GuestRun => ({
  exitCode: 1,
  stdout: '',
  stderr: stderr + CRLF,
  startsTerminals: false,
});

/** The program's name as Windows resolves it: any folder, any case, '.exe' optional. */
function programName(path: string): string {
  return (path.split(/[\\/]/).pop() ?? '').toLowerCase().replace(/\.exe$/, '');
}

type Filter = (process: GuestProcess) => boolean;

const COMPARE: Record<string, (a: number, b: number) => boolean> = {
  eq: (a, b) => a === b,
  ne: (a, b) => a !== b,
  gt: (a, b) => a > b,
  lt: (a, b) => a < b,
  ge: (a, b) => a >= b,
  le: (a, b) => a <= b,
};

/** A tasklist /fi filter ("IMAGENAME eq terminal64.exe"), or undefined if tasklist refuses it. */
function parseFilter(text: string): Filter | undefined {
  const match = /^\s*(\S+)\s+(\S+)\s+(.+?)\s*$/.exec(text);
  if (!match) return undefined;
  const [, field = '', op = '', value = ''] = match;
  const operator = op.toLowerCase();
  const name = field.toLowerCase();
  if (name === 'imagename' || name === 'sessionname') {
    if (operator !== 'eq' && operator !== 'ne') return undefined;
    // a trailing '*' matches any ending, as tasklist allows
    const wanted = value.toLowerCase();
    const matches = (actual: string) =>
      wanted.endsWith('*')
        ? actual.toLowerCase().startsWith(wanted.slice(0, -1))
        : actual.toLowerCase() === wanted;
    const pick = (p: GuestProcess) => (name === 'imagename' ? p.image : p.sessionName);
    return (p) => matches(pick(p)) === (operator === 'eq');
  }
  if (name === 'pid' || name === 'session') {
    const compare = COMPARE[operator];
    if (!compare || !/^\d+$/.test(value)) return undefined;
    return (p) => compare(name === 'pid' ? p.pid : p.sessionNumber, Number(value));
  }
  return undefined;
}

const COLUMNS = ['Image Name', 'PID', 'Session Name', 'Session#', 'Mem Usage'] as const;
const fields = (p: GuestProcess) => [
  p.image,
  String(p.pid),
  p.sessionName,
  String(p.sessionNumber),
  memUsage(memoryKb(p)),
];

function formatTable(processes: GuestProcess[], header: boolean): string {
  const widths = [25, 8, 16, 11, 12];
  const row = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 || i === 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join(' ');
  const lines = [''];
  if (header) {
    lines.push(row([...COLUMNS]));
    lines.push(widths.map((w) => '='.repeat(w)).join(' '));
  }
  for (const p of processes) lines.push(row(fields(p).map((c, i) => c.slice(0, widths[i]))));
  return lines.join(CRLF) + CRLF;
}

function formatList(processes: GuestProcess[]): string {
  const blocks = processes.map((p) =>
    fields(p)
      .map((value, i) => `${`${COLUMNS[i]}:`.padEnd(14)}${value}`)
      .join(CRLF),
  );
  return CRLF + blocks.join(CRLF + CRLF) + CRLF;
}

const quote = (cells: string[]) => cells.map((c) => `"${c}"`).join(',');

function tasklist(
  args: readonly string[],
  processes: readonly GuestProcess[],
  selfPid: number,
): GuestRun {
  let format = 'table';
  let header = true;
  const filters: Filter[] = [];
  const invalid = (arg: string) =>
    error(`ERROR: Invalid argument/option - '${arg}'.${CRLF}Type "TASKLIST /?" for usage.`);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const option = arg.toLowerCase();
    if (option === '/nh') header = false;
    else if (option === '/fo' || option === '/fi') {
      const value = args[++i];
      if (value === undefined)
        return error(
          `ERROR: Invalid syntax. Value expected for '${arg}'.${CRLF}Type "TASKLIST /?" for usage.`,
        );
      if (option === '/fo') {
        format = value.toLowerCase();
        if (!['table', 'list', 'csv'].includes(format)) return invalid(value);
      } else {
        const filter = parseFilter(value);
        if (!filter) return error('ERROR: The search filter cannot be recognized.');
        filters.push(filter);
      }
    } else return invalid(arg);
  }
  // tasklist lists itself too: the agent started it in the services' session
  const self: GuestProcess = {
    image: 'tasklist.exe',
    pid: selfPid,
    sessionName: 'Services',
    sessionNumber: 0,
    memoryKb: 9_012,
  };
  const all = [...SYSTEM_PROCESSES, ...[...processes].sort((a, b) => a.pid - b.pid), self];
  const shown = all.filter((p) => filters.every((f) => f(p)));
  if (shown.length === 0)
    return ok(`INFO: No tasks are running which match the specified criteria.${CRLF}`);
  if (format === 'csv') {
    const lines = shown.map((p) => quote(fields(p)));
    if (header) lines.unshift(quote([...COLUMNS]));
    return ok(lines.join(CRLF) + CRLF);
  }
  return ok(format === 'list' ? formatList(shown) : formatTable(shown, header));
}

function schtasks(args: readonly string[]): GuestRun | undefined {
  const lower = args.map((a) => a.toLowerCase());
  if (lower[0] !== '/run') return undefined;
  const at = lower.indexOf('/tn');
  const name = at >= 0 ? args[at + 1] : undefined;
  if (name === undefined)
    return error(
      `ERROR: Invalid syntax. Mandatory option '/tn' is missing.${CRLF}` +
        'Type "SCHTASKS /RUN /?" for usage.',
    );
  const known = name.replace(/^\\/, '').toLowerCase() === START_TERMINALS_TASK.toLowerCase();
  if (!known) return error('ERROR: The system cannot find the file specified.');
  return {
    ...ok(`SUCCESS: Attempted to run the scheduled task "${name}".${CRLF}`),
    startsTerminals: true,
  };
}

/**
 * Runs `command` on a guest whose terminals are `processes` (the system's own are added here);
 * `selfPid` is the pid the agent gave the command. The caller starts the terminals when the
 * answer says so.
 */
export function runGuestCommand(
  command: readonly string[],
  processes: readonly GuestProcess[],
  selfPid: number,
): GuestRun {
  const [path = '', ...args] = command;
  const program = programName(path);
  const run =
    program === 'tasklist'
      ? tasklist(args, processes, selfPid)
      : program === 'schtasks'
        ? schtasks(args)
        : undefined;
  return (
    run ??
    error(
      `The simulated guest runs only "tasklist" and "schtasks /run /tn <task>"; ` +
        `"${command.join(' ')}" is not modelled.`,
    )
  );
}
