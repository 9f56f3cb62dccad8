import { Agent, request } from 'node:http';

/** One request of a paced load. */
export interface PacedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface PacedFigure {
  /** Answers per second over the measured seconds. */
  rps: number;
  /** The 99th percentile latency in ms, timed from when each request was due. */
  p99: number;
  /** Answers other than 2xx, and requests that failed. */
  errors: number;
}

/**
 * An open-loop load: `rate` requests a second at even intervals, for `warmup` seconds not counted
 * and then `seconds` measured, over at most `sockets` keep-alive connections.
 *
 * Each latency is timed from when its request was due, not from when a free connection sent it,
 * so a slow answer that holds up the next sends counts against the server (no "coordinated
 * omission"). autocannon's overallRate is not this: each of its connections sends its share of a
 * second in a burst as the second starts, so its p99 measures that burst's queue.
 */
export async function pacedLoad(
  origin: string,
  {
    rate,
    seconds,
    warmup,
    sockets,
  }: { rate: number; seconds: number; warmup: number; sockets: number },
  next: () => PacedRequest,
): Promise<PacedFigure> {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const { hostname, port } = new URL(origin);
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const measuredFrom = start + warmup * 1000;
  const total = Math.round(rate * (warmup + seconds));
  const interval = 1000 / rate;
  const inFlight = new Set<Promise<void>>();

  const send = (due: number): Promise<void> =>
    new Promise((resolve) => {
      const { method, path, headers, body } = next();
      const counted = due >= measuredFrom;
      const done = (ok: boolean) => {
        if (counted) {
          latencies.push(performance.now() - due);
          if (!ok) errors += 1;
        }
        resolve();
      };
      const req = request({ agent, hostname, port, method, path, headers }, (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode !== undefined && res.statusCode < 300));
        res.on('error', () => done(false));
      });
      req.on('error', () => done(false));
      req.end(body);
    });

  for (let sent = 0; sent < total;) {
    const now = performance.now();
    // every request due by now goes out; the timer's lateness is counted in their latency
    while (sent < total && start + sent * interval <= now) {
      const work = send(start + sent * interval);
      inFlight.add(work);
      void work.then(() => inFlight.delete(work));
      sent += 1;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + sent * interval - now)));
  }
  await Promise.all(inFlight);
  agent.destroy();

  latencies.sort((a, b) => a - b);
  const p99 = latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * 0.99) - 1)];
  return {
    rps: latencies.length / ((performance.now() - measuredFrom) / 1000),
    p99: Math.round(p99 ?? 0),
    errors,
  };
}
