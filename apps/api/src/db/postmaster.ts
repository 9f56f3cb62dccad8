import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { connect } from 'node:net';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A cluster's `postmaster.pid`, as PostgreSQL writes it while it runs: the PID, the data
 * directory, the start time, the port, then the socket directory, the listen address, the
 * shared-memory key and the status. A server that ended without stopping leaves it behind.
 */
export interface PostmasterLock {
  pid: number;
  port: number;
}

export function readPostmasterLock(cluster: string): PostmasterLock | undefined {
  let text: string;
  try {
    text = readFileSync(join(cluster, 'postmaster.pid'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const [pid = '', , , port = ''] = text.split('\n');
  return { pid: Number.parseInt(pid, 10) || 0, port: Number.parseInt(port, 10) || 0 };
}

interface ProcessInfo {
  args: string[];
  ppid: number;
  /** The working directory, where it can be read (the postmaster works in its data directory). */
  cwd?: string;
  zombie: boolean;
}

/** A process's arguments, parent and working directory: /proc on Linux, `ps` elsewhere. */
export function processInfo(pid: number): ProcessInfo | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  if (existsSync('/proc/self/stat')) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      let cwd: string | undefined;
      try {
        cwd = readlinkSync(`/proc/${pid}/cwd`);
      } catch {
        // another user's process
      }
      return { args, ppid: Number(ppid), cwd, zombie: state === 'Z' };
    } catch {
      return undefined;
    }
  }
  try {
    const line = execFileSync('ps', ['-o', 'ppid=,stat=,args=', '-p', String(pid)], {
      encoding: 'utf8',
    }).trim();
    const match = /^(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    if (!match) return undefined;
    return {
      ppid: Number(match[1]),
      zombie: match[2]!.startsWith('Z'),
      args: match[3]!.split(/\s+/),
    };
  } catch {
    return undefined;
  }
}

export function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return processInfo(pid)?.zombie !== true;
}

const samePath = (a: string, b: string) => {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return a === b;
  }
};

/** Whether `pid` is a PostgreSQL server working on the data directory `cluster`. */
export function isPostmasterOf(pid: number, cluster: string): boolean {
  const info = processInfo(pid);
  if (!info || info.zombie || !/^postgres(\.exe)?$/.test(basename(info.args[0] ?? ''))) {
    return false;
  }
  const flag = info.args.indexOf('-D');
  const dataDir = flag >= 0 ? info.args[flag + 1] : info.cwd;
  return dataDir !== undefined && samePath(dataDir, cluster);
}

/**
 * The live processes working in `dir` (their current directory; every PostgreSQL process works
 * in its data directory), where /proc tells; an empty list elsewhere.
 */
export function processesIn(dir: string): number[] {
  if (!existsSync('/proc/self/cwd')) return [];
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (samePath(readlinkSync(`/proc/${pid}/cwd`), dir) && isRunning(pid)) found.push(pid);
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/** Waits until `pid` has ended; false when it outlasted `timeoutMs`. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isRunning(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

/**
 * Stops a postmaster as PostgreSQL documents it: SIGINT is the fast shutdown (sessions end, a
 * checkpoint is written, the lock file removed); a server that outlasts it gets SIGQUIT, the
 * immediate shutdown, after which the next start recovers from the write-ahead log.
 */
export async function stopPostmaster(pid: number, timeoutMs = 60_000): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  };
  signal('SIGINT');
  if (await waitForExit(pid, timeoutMs)) return;
  signal('SIGQUIT');
  if (await waitForExit(pid, 10_000)) return;
  throw new Error(`PostgreSQL (PID ${pid}) did not stop; stop it by hand (kill ${pid})`);
}

/** Whether anything accepts connections on 127.0.0.1:`port`. */
export function portAnswers(port: number, timeoutMs = 2_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (answered: boolean) => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(timeoutMs, () => done(true)); // something is there, if slow
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
