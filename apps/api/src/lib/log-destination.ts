import { write, writeSync } from 'node:fs';

/**
 * How long a line may wait for the lines after it: one write for all of them. Each write costs a
 * trip to the thread pool and back (a few system calls and thread switches), which per turn of
 * the event loop cost as much as the lines themselves.
 */
const GATHER_MS = 20;
/** What is written at once without waiting for GATHER_MS (characters). */
const GATHER_MAX = 64 * 1024;
/** How soon a write a full non-blocking pipe refused (EAGAIN) is tried again. */
const RETRY_MS = 10;
/** How long the exit's synchronous flush keeps trying a reader that does not read. */
const EXIT_PATIENCE_MS = 1_000;
/** A failing destination is told of once a minute at most. */
const TELL_INTERVAL_MS = 60_000;

export interface LogDestinationOptions {
  /** The file descriptor written to (default 1, stdout). */
  fd?: number;
  /**
   * How many characters may wait for a reader that does not keep up before further lines are
   * dropped; their number is written as a line of its own once there is room (default 16 Mi).
   */
  maxPending?: number;
  /**
   * Told of a write that failed for another reason than a closed reader, once a minute at most
   * (default: stderr).
   */
  onError?: (error: NodeJS.ErrnoException) => void;
}

/**
 * pino's destination for the log: lines are kept in memory and written together, asynchronously
 * (one `write` on libuv's thread pool), GATHER_MS after the first of them or as soon as they
 * reach GATHER_MAX, so a request never waits for the disk or for a slow reader of stdout. At the
 * process's exit (a crash included) what is still kept is written synchronously.
 *
 * pino's default destination (sonic-boom) writes asynchronously too, but as soon as it can, and
 * it measures its whole pending text again for every line (`Buffer.byteLength` of a growing
 * string): a twentieth of a whole API request under load.
 */
export class LogDestination {
  readonly #fd: number;
  readonly #maxPending: number;
  readonly #onError: (error: NodeJS.ErrnoException) => void;
  #lines: string[] = [];
  #pending = 0;
  #dropped = 0;
  /** The timer that writes what is kept, when one is set. */
  #gathering: NodeJS.Timeout | null = null;
  /** A write is on the thread pool, or waiting to be tried again. */
  #writing = false;
  /** What a full pipe refused, until it is tried again. */
  #refused: Buffer | null = null;
  /** The reader has gone (EPIPE): nothing more is written. */
  #closed = false;
  #failures = 0;
  #toldAt = -Infinity;

  constructor({ fd = 1, maxPending = 16 * 1024 * 1024, onError }: LogDestinationOptions = {}) {
    this.#fd = fd;
    this.#maxPending = maxPending;
    this.#onError =
      onError ??
      ((error) => process.stderr.write(`the log could not be written: ${error.message}\n`));
    process.once('exit', () => this.flushSync());
  }

  /** The file descriptor written to. */
  get fd(): number {
    return this.#fd;
  }

  /** Whether the reader has gone (EPIPE), so that nothing more is written. */
  get closed(): boolean {
    return this.#closed;
  }

  /** How many writes have failed for another reason than a gone reader. */
  get failures(): number {
    return this.#failures;
  }

  /** pino's call: one line, ending in a newline. */
  write(line: string): void {
    if (this.#closed) return;
    if (this.#pending + line.length > this.#maxPending) {
      this.#dropped += 1;
      return;
    }
    this.#lines.push(line);
    this.#pending += line.length;
    this.#gather();
  }

  /**
   * Writes, synchronously, what a full pipe refused and what is kept (at the process's exit: a
   * write already on the thread pool finishes by itself). A reader that reads nothing is given
   * EXIT_PATIENCE_MS.
   */
  flushSync(): void {
    if (this.#closed) return;
    const kept = this.#take();
    let chunk = kept;
    if (this.#refused) {
      chunk = Buffer.concat([this.#refused, kept]);
      this.#refused = null;
      this.#writing = false; // its retry finds it gone
    }
    const giveUpAt = Date.now() + EXIT_PATIENCE_MS;
    while (chunk.length > 0) {
      try {
        chunk = chunk.subarray(writeSync(this.#fd, chunk));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EAGAIN' || Date.now() > giveUpAt) return this.#failed(error, chunk);
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MS);
      }
    }
  }

  /** The kept lines as one buffer, after a line that counts the dropped ones if any. */
  #take(): Buffer {
    const dropped =
      this.#dropped > 0
        ? `${JSON.stringify({
            level: 40,
            time: Date.now(),
            msg: `${this.#dropped} log lines were dropped: the log's reader did not keep up`,
          })}\n`
        : '';
    const text = dropped + this.#lines.join('');
    this.#lines = [];
    this.#pending = 0;
    this.#dropped = 0;
    return Buffer.from(text);
  }

  /** Has what is kept written: at once past GATHER_MAX, else GATHER_MS after the first line. */
  #gather(): void {
    if (this.#writing) return; // the write on its way gathers again when it is done
    if (this.#pending >= GATHER_MAX) return this.#writeKept();
    this.#gathering ??= setTimeout(() => this.#writeKept(), GATHER_MS).unref();
  }

  #writeKept(): void {
    if (this.#gathering) clearTimeout(this.#gathering);
    this.#gathering = null;
    if (this.#writing || this.#closed || (this.#lines.length === 0 && this.#dropped === 0)) return;
    this.#writing = true;
    this.#send(this.#take());
  }

  #send(chunk: Buffer): void {
    write(this.#fd, chunk, 0, chunk.length, null, (error, written) => {
      if (this.#closed) return;
      if (error?.code === 'EAGAIN') {
        this.#refused = chunk;
        setTimeout(() => {
          if (this.#refused !== chunk) return; // written by flushSync meanwhile
          this.#refused = null;
          this.#send(chunk);
        }, RETRY_MS).unref();
        return;
      }
      if (error) return this.#failed(error, chunk);
      if (written < chunk.length) return this.#send(chunk.subarray(written));
      this.#writing = false;
      if (this.#lines.length > 0 || this.#dropped > 0) this.#gather();
    });
  }

  /**
   * A reader that has gone (EPIPE) ends the log quietly. Any other failure (a full disk) is told
   * (once a minute at most) and the lines of that write are counted as dropped; lines kept
   * meanwhile are tried next, the count alone waits for the next line.
   */
  #failed(error: unknown, unwritten: Buffer): void {
    const failure = error as NodeJS.ErrnoException;
    this.#writing = false;
    if (failure.code === 'EPIPE') {
      this.#closed = true;
      this.#lines = [];
      this.#pending = 0;
      return;
    }
    this.#failures += 1;
    const now = Date.now();
    if (now - this.#toldAt >= TELL_INTERVAL_MS) {
      this.#toldAt = now;
      this.#onError(failure);
    }
    for (let at = unwritten.indexOf(10); at !== -1; at = unwritten.indexOf(10, at + 1))
      this.#dropped += 1;
    if (this.#lines.length > 0) this.#gather();
  }
}

let stdout: LogDestination | undefined;

/** The one destination for stdout that every app of this process logs to. */
export function stdoutLog(): LogDestination {
  stdout ??= new LogDestination();
  return stdout;
}
