import { createHash, randomBytes } from 'node:crypto';
import { CONSOLE_TICKET_SECONDS, type ConsoleTicket } from '@tradehost/contracts';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { auditRepository } from '../../db/audit.ts';
import type { Db } from '../../db/client.ts';
import { vpsConsoleTickets } from '../../db/schema/index.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Hypervisor, MachineId } from '../../integrations/hypervisor/index.ts';
import { acceptRfbClient, socketStream } from '../../integrations/hypervisor/rfb.ts';
import { AppError } from '../../lib/errors.ts';
import { ownServer, requireMachine, type MachineServer } from './vps.access.ts';
import { vpsRepository, type ServerRow } from './vps.repository.ts';

/**
 * The server's web console (issue 44), for when RDP does not answer: the owner's browser runs
 * noVNC over a WebSocket to this API, which relays it to the machine's screen on the hypervisor
 * (Hypervisor.openConsole). The browser never meets a hypervisor credential:
 * - `issue` (POST .../console) hands the owner of an active, running server a ticket: a random
 *   token, kept only as its SHA-256, good for CONSOLE_TICKET_SECONDS and one socket, for that
 *   server and user only. A browser's WebSocket cannot send the bearer token; the ticket is what
 *   signs the socket in.
 * - `take` (the socket's request, before it is upgraded) spends the ticket under its row's lock,
 *   so two instances behind a proxy cannot both take it; every refusal is an ordinary JSON error
 *   and spends nothing. Taking it is the console's opening: audited, on the server's activity.
 * - `relay` (after the upgrade) speaks RFB's handshake to the browser with security None, opens
 *   the machine's screen meanwhile, passes the browser's ClientInit on and from then on the bytes
 *   both ways, unread. Either side ending ends the other; so does CONSOLE_LIMITS' idle time (no
 *   byte from the browser: no key, no pointer, no update request) or total time.
 */

/** How long a console may sit idle, and last at all, before the relay ends it. */
export interface ConsoleLimits {
  idleMs: number;
  sessionMs: number;
}

export const CONSOLE_LIMITS: ConsoleLimits = { idleMs: 15 * 60_000, sessionMs: 4 * 3_600_000 };

/** WebSocket close codes the relay ends a console with (4000-4999: the application's own). */
export const CONSOLE_CLOSE = {
  /** The machine's screen could not be opened (the hypervisor refused or did not answer). */
  unavailable: 4001,
  idle: 4002,
  timeLimit: 4003,
} as const;

/** Tickets expired this long ago are deleted when the same user asks for a new one. */
const EXPIRED_KEPT_MS = 3_600_000;

export interface ConsoleDeps {
  db: Db;
  hypervisor: Hypervisor;
  now: () => Date;
  log: FastifyBaseLogger;
  limits: ConsoleLimits;
}

/** A ticket taken for a socket: the console to relay. */
export interface TakenTicket {
  serverId: number;
  userId: number;
  machineId: MachineId;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** The owner's server must have a running machine: the refusals, in the API's codes. */
function requireRunning(server: ServerRow): asserts server is MachineServer {
  requireMachine(server);
  if (server.power === 'stopped') throw new AppError(409, 'SERVER_NOT_RUNNING');
}

export function createConsoleService({ db, hypervisor, now, log, limits }: ConsoleDeps) {
  return {
    async issue(userId: number, id: number): Promise<ConsoleTicket> {
      requireRunning(await ownServer(db, userId, id));
      const token = randomBytes(32).toString('base64url');
      const at = now();
      const expiresAt = new Date(at.getTime() + CONSOLE_TICKET_SECONDS * 1000);
      await db.transaction(async (tx) => {
        await tx
          .delete(vpsConsoleTickets)
          .where(
            and(
              eq(vpsConsoleTickets.userId, userId),
              lt(vpsConsoleTickets.expiresAt, new Date(at.getTime() - EXPIRED_KEPT_MS)),
            ),
          );
        await tx.insert(vpsConsoleTickets).values({
          tokenHash: hashOf(token),
          serverId: id,
          userId,
          createdAt: at,
          expiresAt,
        });
      });
      return { ticket: token, expires_at: expiresAt.toISOString() };
    },

    /**
     * Spends the ticket for a socket to server `id`: unknown, of another server or already used
     * is CONSOLE_TICKET_INVALID, past its time CONSOLE_TICKET_EXPIRED, and a server that is no
     * longer its user's, active and running is refused as `issue` refuses it; none of those
     * spends the ticket.
     */
    async take(id: number, token: string): Promise<TakenTicket> {
      return inTransaction(db, async (tx) => {
        const [ticket] = await tx
          .select()
          .from(vpsConsoleTickets)
          .where(eq(vpsConsoleTickets.tokenHash, hashOf(token)))
          .for('update');
        if (!ticket || ticket.serverId !== id || ticket.usedAt)
          throw new AppError(403, 'CONSOLE_TICKET_INVALID');
        const at = now();
        if (ticket.expiresAt <= at) throw new AppError(403, 'CONSOLE_TICKET_EXPIRED');
        const server = await vpsRepository.findServer(tx, id, ticket.userId);
        if (!server) throw new AppError(403, 'CONSOLE_TICKET_INVALID');
        requireRunning(server);
        // conditional as well: spent once, whatever another instance did
        const [taken] = await tx
          .update(vpsConsoleTickets)
          .set({ usedAt: at })
          .where(
            and(
              eq(vpsConsoleTickets.id, ticket.id),
              isNull(vpsConsoleTickets.usedAt),
              gt(vpsConsoleTickets.expiresAt, at),
            ),
          )
          .returning({ id: vpsConsoleTickets.id });
        if (!taken) throw new AppError(403, 'CONSOLE_TICKET_INVALID');
        await auditRepository.insert(tx, {
          actorId: ticket.userId,
          action: 'vps.console_opened',
          subjectType: 'vps_server',
          subjectId: String(id),
          targetUserId: ticket.userId,
          details: {},
        });
        return { serverId: id, userId: ticket.userId, machineId: server.machineId };
      });
    },

    /** Relays the upgraded socket to the machine's screen (see the header); never throws. */
    relay(socket: WebSocket, { serverId, machineId }: TakenTicket): void {
      const browser = socketStream(socket);
      const accepted = acceptRfbClient(browser);
      const machine = hypervisor.openConsole(machineId);
      let idle: NodeJS.Timeout | undefined;
      let browserGone = false;
      const end = (code: number, reason: string) => {
        if (socket.readyState === socket.OPEN) socket.close(code, reason);
        else browser.close();
      };
      // the limits count from the upgrade: a browser silent in its handshake is idle too
      const awake = () => {
        clearTimeout(idle);
        idle = setTimeout(() => end(CONSOLE_CLOSE.idle, 'idle'), limits.idleMs);
      };
      const total = setTimeout(() => end(CONSOLE_CLOSE.timeLimit, 'time limit'), limits.sessionMs);
      awake();
      browser.onData(awake);
      browser.onClose(() => {
        browserGone = true;
        clearTimeout(idle);
        clearTimeout(total);
        void machine.then(
          (stream) => stream.close(),
          () => {},
        );
      });
      Promise.all([accepted, machine]).then(
        ([{ clientInit, stream: fromBrowser }, toMachine]) => {
          if (browserGone) return;
          log.info({ serverId }, 'web console opened');
          toMachine.onClose(() => {
            fromBrowser.close();
            log.info({ serverId }, 'web console closed');
          });
          fromBrowser.onData((bytes) => toMachine.write(bytes));
          toMachine.onData((bytes) => fromBrowser.write(bytes));
          toMachine.write(clientInit);
        },
        (error: unknown) => {
          // the browser leaving during its handshake is no fault; the machine's refusal is
          if (!browserGone) log.warn({ err: error, serverId }, 'the web console did not open');
          end(CONSOLE_CLOSE.unavailable, 'the screen could not be opened');
        },
      );
    },
  };
}

export type ConsoleService = ReturnType<typeof createConsoleService>;
