import { Agent, createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createProxyServer } from 'http-proxy-3';

/**
 * A load balancer of the smallest kind for the tests of several instances: a node:http server on a
 * free loopback port that hands each request to the next of its targets in turn (round robin),
 * through http-proxy-3. It does what the README asks of a real proxy in front of the API:
 * - sets X-Forwarded-For to the client's address (what it claims is dropped, as nginx's
 *   `proxy_set_header X-Forwarded-For $remote_addr` does), for instances with TRUST_PROXY=1; or,
 *   with `forwardedFor: 'append'`, adds it after what the client sent (nginx's
 *   `$proxy_add_x_forwarded_for`, the usual setting, and the one where a forged header reaches
 *   the API);
 * - passes every answer on as it arrives, unbuffered: the live-updates stream
 *   (GET /api/user/events) flows through it event by event;
 * - passes WebSocket upgrades on (nginx's `Upgrade`/`Connection` headers), to the next target
 *   like any request: the web console's socket (GET .../console/socket).
 * Every request is recorded with the target that got it, so a test can tell where each went.
 */

export interface Served {
  method: string;
  /** The path with its query. */
  path: string;
  /** The base URL of the instance that got it. */
  target: string;
}

export interface RoundRobinProxy {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** The instances' base URLs, taken in turn (may be filled in after the start). */
  targets: string[];
  /** Every request passed on, in arrival order. */
  served: Served[];
  /** How many of the requests served from index `since` on each target got. */
  countsByTarget(since?: number): Record<string, number>;
  close(): Promise<void>;
}

export interface RoundRobinOptions {
  targets?: string[];
  /**
   * The address the proxy connects to the instances from, so that they see a peer other than the
   * client (e.g. 127.0.0.2: every 127.x address is the loopback on Linux).
   */
  localAddress?: string;
  /** `replace` (the default) or `append`: what becomes of the client's own X-Forwarded-For. */
  forwardedFor?: 'replace' | 'append';
}

export async function startRoundRobinProxy(
  options: RoundRobinOptions = {},
): Promise<RoundRobinProxy> {
  const targets = [...(options.targets ?? [])];
  const served: Served[] = [];
  const agent = new Agent({
    keepAlive: true,
    ...(options.localAddress ? { localAddress: options.localAddress } : {}),
  });
  const proxy = createProxyServer({
    agent,
    ...(options.localAddress ? { localAddress: options.localAddress } : {}),
  });
  let turn = 0;

  /** The next target, the request recorded and its forwarding headers set. */
  const pass = (req: IncomingMessage): string => {
    const target = targets[turn % targets.length]!;
    turn += 1;
    served.push({ method: req.method ?? 'GET', path: req.url ?? '/', target });
    const peer = req.socket.remoteAddress ?? '';
    const claimed = req.headers['x-forwarded-for'];
    req.headers['x-forwarded-for'] =
      options.forwardedFor === 'append' && claimed ? `${String(claimed)}, ${peer}` : peer;
    req.headers['x-forwarded-proto'] = 'http';
    return target;
  };

  const server = createServer((req, res) => {
    if (targets.length === 0) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('proxy: no instance to send to');
      return;
    }
    const target = pass(req);
    proxy.web(req, res, { target }, (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${target} did not answer (${error.message})`);
    });
  });
  server.on('upgrade', (req, socket: Socket, head) => {
    if (targets.length === 0) return socket.destroy();
    proxy.ws(req, socket, head, { target: pass(req) }, () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    targets,
    served,
    countsByTarget(since = 0) {
      const counts: Record<string, number> = {};
      for (const { target } of served.slice(since)) counts[target] = (counts[target] ?? 0) + 1;
      return counts;
    },
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      agent.destroy();
      await closed;
    },
  };
}
