import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LogDestination } from './log-destination.ts';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'th-log-'));
  dirs.push(dir);
  return join(dir, 'log');
}

/** Line `n` as pino would give it: JSON, a newline at its end; `padding` makes it longer. */
const line = (n: number, padding = 0) => `${JSON.stringify({ n, pad: 'x'.repeat(padding) })}\n`;
const numbersIn = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((entry) => JSON.parse(entry) as { n?: number; msg?: string });

const moduleFile = fileURLToPath(new URL('./log-destination.ts', import.meta.url));

/**
 * A process that logs to its stdout, a pipe this test reads (or not): `script` runs with
 * `LogDestination` imported and `send`/`on` of its IPC channel; what it writes is in `out()`.
 * The stdout is read only after `read()`: until then the pipe and the socket's buffer fill up, and
 * a write to the pipe is refused (EAGAIN).
 */
function writer(script: string) {
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { LogDestination } = await import(${JSON.stringify(moduleFile)});
       const send = (message) => process.send(message);
       const turn = () => new Promise((resolve) => setImmediate(resolve));
       ${script}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
  );
  children.push(child);
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const messages: unknown[] = [];
  child.on('message', (message) => messages.push(message));
  return {
    child,
    messages,
    read: () => child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString())),
    out: () => out,
    /** Its stderr (a crash's stack). */
    err: () => err,
  };
}

describe('LogDestination', () => {
  it('writes every line, in order, after the turn that gave it: never while pino waits', async () => {
    const file = tempFile();
    const fd = openSync(file, 'w');
    try {
      const destination = new LogDestination({ fd });
      for (let n = 0; n < 1_000; n++) destination.write(line(n));
      expect(readFileSync(file, 'utf8')).toBe(''); // nothing yet: the request goes on
      await vi.waitFor(() => expect(numbersIn(readFileSync(file, 'utf8'))).toHaveLength(1_000));
      for (let n = 1_000; n < 1_500; n++) destination.write(line(n));
      await vi.waitFor(() => expect(numbersIn(readFileSync(file, 'utf8'))).toHaveLength(1_500));
      expect(numbersIn(readFileSync(file, 'utf8')).map((entry) => entry.n)).toEqual(
        Array.from({ length: 1_500 }, (_, n) => n),
      );
    } finally {
      closeSync(fd);
    }
  });

  it('a reader that reads nothing holds up no call, and gets every line, in order, once it reads', async () => {
    // 2 MB: thirty times what the pipe holds, all given while nothing is read
    const logger = writer(`
      const destination = new LogDestination();
      for (let n = 0; n < 10000; n++) {
        destination.write(JSON.stringify({ n, pad: 'x'.repeat(200) }) + '\\n');
        if (n % 500 === 0) await turn();
      }
      send('written');
      process.on('message', () => process.exit(0));
    `);
    await vi.waitFor(() => expect(logger.messages).toEqual(['written']), { timeout: 20_000 });
    logger.read();
    await vi.waitFor(() => expect(numbersIn(logger.out())).toHaveLength(10_000), {
      timeout: 20_000,
    });
    expect(numbersIn(logger.out()).map((entry) => entry.n)).toEqual(
      Array.from({ length: 10_000 }, (_, n) => n),
    );
    logger.child.send('end');
  });

  it('keeps at most maxPending for a reader that does not keep up, and says how many lines it dropped', async () => {
    const logger = writer(`
      const destination = new LogDestination({ maxPending: 20000 });
      for (let n = 0; n < 3000; n++) {
        destination.write(JSON.stringify({ n, pad: 'x'.repeat(100) }) + '\\n');
        if (n % 100 === 0) await turn();
      }
      send('written');
      // a last line once the reader has read all: after the count of the dropped ones
      process.on('message', (message) => {
        if (message === 'last') destination.write(JSON.stringify({ n: 3000 }) + '\\n');
        else process.exit(0);
      });
    `);
    await vi.waitFor(() => expect(logger.messages).toEqual(['written']), { timeout: 20_000 });
    logger.read();
    const dropped = () =>
      numbersIn(logger.out())
        .filter((entry) => entry.msg?.includes('were dropped'))
        .reduce((sum, entry) => sum + Number(/^(\d+) log lines/.exec(entry.msg!)![1]), 0);
    const kept = () => numbersIn(logger.out()).filter((entry) => entry.n !== undefined);
    // each line written or counted, none twice
    await vi.waitFor(() => expect(kept().length + dropped()).toBe(3_000), { timeout: 20_000 });
    expect(dropped()).toBeGreaterThan(0);
    const order = kept().map((entry) => entry.n!);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    logger.child.send('last');
    await vi.waitFor(() => expect(kept().at(-1)?.n).toBe(3_000));
    logger.child.send('end');
  });

  it('a reader that has gone ends the log quietly: no error told, nothing thrown', async () => {
    const logger = writer(`
      process.on('message', async () => {
        let told = 0;
        const destination = new LogDestination({ onError: () => (told += 1) });
        for (let n = 0; !destination.closed && n < 100000; n++) {
          destination.write(JSON.stringify({ n }) + '\\n');
          await turn();
        }
        destination.write('after\\n');
        send({ closed: destination.closed, told, failures: destination.failures });
        process.exit(0);
      });
    `);
    logger.child.stdout!.destroy(); // the reader goes: the next write meets EPIPE
    logger.child.send('go');
    await vi.waitFor(() => expect(logger.messages).toHaveLength(1), { timeout: 20_000 });
    expect(logger.messages[0]).toEqual({ closed: true, told: 0, failures: 0 });
  });

  it('tells of another failure once a minute, counts its lines as dropped, and tries the next ones', async () => {
    const file = tempFile();
    writeFileSync(file, '');
    const readOnly = openSync(file, 'r'); // every write: EBADF
    try {
      const onError = vi.fn();
      const destination = new LogDestination({ fd: readOnly, onError });
      destination.write(line(1));
      await vi.waitFor(() => expect(onError).toHaveBeenCalledTimes(1));
      expect(onError.mock.calls[0]![0]).toMatchObject({ code: 'EBADF' });
      destination.write(line(2));
      destination.write(line(3));
      // the second write failed too (its line and the count of the first), and was not told
      await vi.waitFor(() => expect(destination.failures).toBe(2));
      expect(onError).toHaveBeenCalledTimes(1);
      expect(destination.closed).toBe(false);
    } finally {
      closeSync(readOnly);
    }
  });

  it('at the process’s exit, writes what it kept, though no turn of the loop came to write it', async () => {
    for (const ending of ['process.exit(0)', "throw new Error('crash')"]) {
      const logger = writer(`
        const destination = new LogDestination();
        for (let n = 0; n < 2000; n++) destination.write(JSON.stringify({ n }) + '\\n');
        ${ending};
      `);
      logger.read();
      await new Promise((resolve) => logger.child.once('close', resolve));
      if (ending.startsWith('throw')) expect(logger.err()).toContain('Error: crash');
      expect(numbersIn(logger.out()).map((entry) => entry.n)).toEqual(
        Array.from({ length: 2000 }, (_, n) => n),
      );
    }
  });
});
