import {
  GUARDIAN_ACTION_GAP_MINUTES,
  MINUTE_MS,
  type GuardianAction,
  type GuardianCause,
  type OperationKind,
  type Platform,
} from '@tradehost/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import { type Hypervisor, type MachineId } from '../../integrations/hypervisor/index.ts';
import type { Mailer } from '../../integrations/mail/index.ts';
import { userMail } from '../../integrations/mail/templates.ts';
import type { TelegramOutbox } from '../../integrations/telegram/port.ts';
import { escapeHtml } from '../../lib/html.ts';
import { numero } from '../../lib/numero.ts';
import { serversLink } from '../../lib/vps-labels.ts';
import {
  guardianRepository as repo,
  type GuardedServer,
  type IncidentRow,
  type SilentAlert,
  type TerminalState,
} from './vps.guardian.repository.ts';
import { guardianMessage, type GuardianOutcome } from './vps.guardian.texts.ts';
import { insertOperation, type OperationQueue } from './vps.operations.ts';

/**
 * The terminal guardian (issue 44): when a silent-terminal alert names servers of the owner (the
 * monitoring module matched the publisher's address), it diagnoses before anyone acts, then acts
 * within the server's policy, then tells the owner once what happened, what was done and what is
 * true now.
 *
 * Diagnosis, from the machine outward: the hypervisor's state (shut down: `server_stopped`); the
 * terminals' processes through the guest agent (`tasklist`: none of the platform's image, or
 * fewer than the owner's terminals publishing from the server, is `terminal_closed`); the last
 * snapshot's `terminal_connected` (false: `broker_disconnected`); else `unknown`.
 *
 * Why counting: a trader often runs several terminals on one server, and from the services'
 * session the guest agent sees processes but not which account each is signed in to (their window
 * titles belong to the trader's desktop). One process fewer than the monitored terminals that
 * published lately says one has closed; the template's task starts whichever is not running. A
 * terminal the owner does not monitor hides a closed one (more processes than accounts): then the
 * cause stays `unknown`, and a policy that allows it reboots after the wait.
 *
 * Action (policy `restart` or `restart_then_reboot`): a stopped server is started, a closed
 * terminal started again through the template's scheduled task (a process the guest agent starts
 * would have no desktop), each an operation of the server (on its activity, by the guardian). A
 * reboot is the last resort (`restart_then_reboot`): when the terminal is still silent
 * `reboot_after_minutes` after the alert or the last action, and never with positions open unless
 * the policy allows it. At most one action per server in GUARDIAN_ACTION_GAP_MINUTES.
 *
 * The incident stays open while there is something to wait for; `check` (every minute) closes it
 * as resolved once the terminal publishes after the action, or escalates it when the wait is over.
 */

export interface GuardianDeps {
  config: Config;
  db: Db;
  hypervisor: Hypervisor;
  mailer: Mailer;
  telegram?: TelegramOutbox;
  operations: OperationQueue;
  now: () => Date;
  log: FastifyBaseLogger;
}

/** The terminal's process image per platform (64-bit MT5, MT4's 32-bit terminal). */
const TERMINAL_IMAGES: Record<Platform, string> = {
  MT5: 'terminal64.exe',
  MT4: 'terminal.exe',
};

/** What the guardian does about a cause when its policy lets it act (none: wait, then reboot). */
const REMEDY: Record<GuardianCause, GuardianAction> = {
  server_stopped: 'start',
  terminal_closed: 'terminal_restart',
  broker_disconnected: 'none',
  algo_trading_off: 'none',
  unknown: 'none',
};

const OPERATION_OF: Record<Exclude<GuardianAction, 'none'>, OperationKind> = {
  start: 'start',
  terminal_restart: 'terminal_restart',
  reboot: 'reboot',
};

/**
 * What `claim` read of an alert: the alert, and the servers it looked at (one read but not the
 * owner's usable server: undefined), for the take right after it.
 */
interface ClaimRead {
  alert: SilentAlert;
  servers: Map<number, GuardedServer | undefined>;
}

/** The processes of `image` in a `tasklist /fo csv /nh` listing (its lines start `"<image>",`). */
export function runningCount(listing: string, image: string): number {
  const start = `"${image.toLowerCase()}",`;
  return listing.split(/\r?\n/).filter((line) => line.toLowerCase().startsWith(start)).length;
}

export function createGuardian(deps: GuardianDeps) {
  const { db, hypervisor: hv, now, log } = deps;

  /**
   * `expected`: how many of the owner's terminals of the platform published from the server lately
   * (the silent one among them).
   */
  async function diagnose(
    machineId: MachineId,
    platform: Platform,
    terminal: TerminalState,
    expected: number,
  ): Promise<GuardianCause> {
    const state = await hv.status(machineId).catch(() => 'unknown' as const);
    if (state === 'stopped') return 'server_stopped';
    if (state !== 'running') return 'unknown';
    const image = TERMINAL_IMAGES[platform];
    try {
      const run = await hv.exec(machineId, [
        'tasklist',
        '/fo',
        'csv',
        '/nh',
        '/fi',
        `IMAGENAME eq ${image}`,
      ]);
      // a cut listing proves nothing; Windows says "INFO: No tasks are running ..." when none
      // matches, so only the lines naming the image count
      if (run.exitCode === 0 && !run.truncated && runningCount(run.stdout, image) < expected)
        return 'terminal_closed';
    } catch (error) {
      log.warn({ err: error, machineId }, 'the guardian could not list the terminals');
      return 'unknown';
    }
    if (!terminal.terminalConnected) return 'broker_disconnected';
    // with Algo Trading off the terminal stops running Expert Advisors, the publisher among them
    if (terminal.tradeAllowed === false) return 'algo_trading_off';
    return 'unknown';
  }

  /** Writes the action as an operation of the server; false when another one runs. */
  async function act(
    incident: IncidentRow,
    server: GuardedServer,
    action: Exclude<GuardianAction, 'none'>,
  ): Promise<boolean> {
    const at = now();
    const operationId = await inTransaction(db, async (tx) => {
      try {
        const operation = await insertOperation(tx, {
          serverId: server.id,
          kind: OPERATION_OF[action],
          actorId: null,
          payload: { by: 'guardian', incident_id: incident.id },
        });
        await repo.acted(tx, incident.id, { action, operationId: operation.id, actedAt: at });
        return operation.id;
      } catch (error) {
        log.info({ err: error, serverId: server.id }, 'the guardian waits: an operation runs');
        return null;
      }
    });
    if (operationId === null) return false;
    incident.action = action;
    incident.operationId = operationId;
    incident.actedAt = at;
    await deps.operations.dispatch(operationId);
    return true;
  }

  /** Tells the owner by mail and in the monitoring chat; a failing channel is logged. */
  async function tell(
    incident: IncidentRow,
    server: GuardedServer,
    alert: Pick<SilentAlert, 'platform' | 'accountName' | 'login'>,
    outcome: GuardianOutcome,
  ): Promise<void> {
    const { subject, lines } = guardianMessage(server.language, {
      ...alert,
      serverId: server.id,
      cause: incident.cause,
      silentSince: incident.silentSince,
      action: incident.action,
      actedAt: incident.actedAt,
      positions: incident.positions,
      outcome,
    });
    // the channels the alert would have used, to its address
    const channels = await repo.channels(db, incident.alertEventId);
    if (channels.email) {
      try {
        const link = `${serversLink(deps.config)}/servers/${server.id}`;
        const mail = userMail(server.language, { name: server.ownerName, link }, subject, lines);
        await deps.mailer.send({ to: channels.email, ...mail });
      } catch (error) {
        log.error({ err: error, serverId: server.id }, 'the guardian’s mail was not sent');
      }
    }
    if (!channels.telegram || !deps.telegram?.enabled) return;
    try {
      // still silent: the chat's button brings the server back (the bot starts a shut-down one)
      const ru = server.language === 'ru';
      const buttons =
        outcome.kind === 'escalated'
          ? [
              [
                {
                  text: ru
                    ? `Перезагрузить сервер ${numero(server.id)}`
                    : `Reboot server #${server.id}`,
                  data: `reboot:${server.id}`,
                },
              ],
            ]
          : undefined;
      await deps.telegram.sendToUser(server.userId, 'monitoring', {
        html: [`<b>${escapeHtml(subject)}</b>`, ...lines.map(escapeHtml)].join('\n\n'),
        ...(buttons ? { buttons } : {}),
      });
    } catch (error) {
      log.warn({ err: error, serverId: server.id }, 'the guardian’s chat message was not sent');
    }
  }

  async function close(
    incident: IncidentRow,
    server: GuardedServer,
    alert: Pick<SilentAlert, 'platform' | 'accountName' | 'login'>,
    outcome: GuardianOutcome,
  ): Promise<void> {
    const status =
      outcome.kind === 'resolved'
        ? 'resolved'
        : outcome.kind === 'notified'
          ? 'notified'
          : 'escalated';
    if (!(await repo.close(db, incident.id, status, now()))) return;
    await tell(incident, server, alert, outcome);
  }

  /** Whether the guardian acted on the server too recently to act again. */
  async function tooSoon(serverId: number): Promise<boolean> {
    const last = await repo.lastAction(db, serverId);
    return (
      last !== null && now().getTime() - last.getTime() < GUARDIAN_ACTION_GAP_MINUTES * MINUTE_MS
    );
  }

  /** The server as `read` has it, else read now. */
  async function serverOf(alert: SilentAlert, serverId: number, read?: ClaimRead) {
    return read?.servers.has(serverId)
      ? read.servers.get(serverId)
      : repo.server(db, serverId, alert.userId);
  }

  /** Takes up one alert for one server: opens the incident, diagnoses, acts or tells. */
  async function takeUp(alert: SilentAlert, serverId: number, read?: ClaimRead): Promise<void> {
    const server = await serverOf(alert, serverId, read);
    const terminal = await repo.terminal(db, alert.accountId);
    if (!server || !terminal) return;
    // the terminal spoke again since the alert: nothing to repair
    if (terminal.lastDataAt && terminal.lastDataAt > alert.silentSince) return;
    const expected = await repo.terminalsAt(db, server.id, alert.platform, alert.silentSince);
    const cause = await diagnose(server.machineId, alert.platform, terminal, expected);
    const incident = await repo.open(db, {
      openedAt: now(),
      serverId: server.id,
      accountId: alert.accountId,
      alertEventId: alert.eventId,
      silentSince: alert.silentSince,
      cause,
      positions: terminal.positions,
    });
    if (!incident) return; // one is open for this server: it goes on
    log.info({ serverId, accountId: alert.accountId, cause }, 'the guardian took up a silence');
    if (server.policy === 'notify') return close(incident, server, alert, { kind: 'notified' });
    // only the trader can switch it on again: no restart or reboot would
    if (cause === 'algo_trading_off')
      return close(incident, server, alert, { kind: 'escalated', why: 'algo_off' });
    const remedy = REMEDY[cause];
    if (remedy === 'none') {
      // nothing to repair from here; with a reboot allowed, `check` reboots when the wait is over
      if (server.policy === 'restart')
        await close(incident, server, alert, { kind: 'escalated', why: 'not_allowed' });
      return;
    }
    if (await tooSoon(server.id))
      return close(incident, server, alert, { kind: 'escalated', why: 'too_soon' });
    await act(incident, server, remedy);
  }

  /** An open incident after a minute more: resolved, escalated, rebooted, or still waited on. */
  async function follow(incident: IncidentRow): Promise<void> {
    const alert = await repo.incidentAccount(db, incident.accountId, incident.alertEventId);
    const terminal = await repo.terminal(db, incident.accountId);
    const server = alert && (await repo.server(db, incident.serverId, alert.userId));
    if (!alert || !terminal || !server) {
      await repo.close(db, incident.id, 'escalated', now());
      return;
    }
    const since = incident.actedAt ?? incident.openedAt;
    if (terminal.lastDataAt && terminal.lastDataAt > incident.silentSince) {
      return close(incident, server, alert, {
        kind: 'resolved',
        positionsNow: terminal.positions,
      });
    }
    const action = incident.operationId
      ? await repo.operationStatus(db, incident.operationId)
      : undefined;
    if (action === 'queued' || action === 'running') return; // the action is under way
    if (action === 'failed')
      return close(incident, server, alert, { kind: 'escalated', why: 'failed' });
    const waited = now().getTime() - since.getTime();
    if (waited < server.rebootAfterMinutes * MINUTE_MS) return;
    if (server.policy !== 'restart_then_reboot' || incident.action === 'reboot')
      return close(incident, server, alert, { kind: 'escalated', why: 'still_silent' });
    if (terminal.positions > 0 && !server.rebootWithPositions)
      return close(incident, server, alert, { kind: 'escalated', why: 'positions_open' });
    // behind one address (a NAT) the alert names every server there: a reboot might hit the
    // wrong one, so it is left to the owner
    if (alert.serversNamed > 1)
      return close(incident, server, alert, { kind: 'escalated', why: 'shared' });
    if (await tooSoon(server.id)) return; // the gap after the last action is not over yet
    await act(incident, server, 'reboot');
  }

  /** Takes up a silent-terminal alert for each server it names (from `read` when given). */
  async function takeAlert(eventId: number, read?: ClaimRead): Promise<void> {
    const alert = read?.alert ?? (await repo.silentAlert(db, eventId));
    if (!alert) return;
    for (const serverId of alert.serverIds) {
      try {
        await takeUp(alert, serverId, read);
      } catch (error) {
        log.error({ err: error, serverId, eventId }, 'the guardian failed on a silence');
      }
    }
  }

  /**
   * What the last `claim` read, by event id. Only the last claim's: with a queue the alerts are
   * taken by its jobs instead (on any instance, later), which read them afresh.
   */
  let lastClaim = new Map<number, ClaimRead>();

  return {
    /**
     * Of these silent-terminal alerts, those naming a server the guardian may act on: it tells
     * about those itself. A server whose policy is to tell only leaves the alert its own message
     * (the guardian still records what it found, on the server's page).
     */
    async claim(eventIds: number[]): Promise<number[]> {
      const claimed: number[] = [];
      const reads = new Map<number, ClaimRead>();
      lastClaim = reads;
      for (const eventId of eventIds) {
        const alert = await repo.silentAlert(db, eventId);
        if (!alert) continue;
        const read: ClaimRead = { alert, servers: new Map() };
        reads.set(eventId, read);
        for (const serverId of alert.serverIds) {
          const server = await repo.server(db, serverId, alert.userId);
          read.servers.set(serverId, server);
          if (server && server.policy !== 'notify') {
            claimed.push(eventId);
            break;
          }
        }
      }
      return claimed;
    },

    /** A silent-terminal alert (its event id) that names the owner's servers, read afresh (a job). */
    take: (eventId: number): Promise<void> => takeAlert(eventId),

    /**
     * The same for an alert `claim` has just read (no queue: at once after it), with what it read:
     * the alert and the servers it looked at are not read again.
     */
    async takeClaimed(eventId: number): Promise<void> {
      const read = lastClaim.get(eventId);
      lastClaim.delete(eventId);
      await takeAlert(eventId, read);
    },

    /** Every open incident, once (a schedule every minute). */
    async check(): Promise<void> {
      for (const incident of await repo.openIncidents(db)) {
        try {
          await follow(incident);
        } catch (error) {
          log.error({ err: error, incidentId: incident.id }, 'the guardian failed on an incident');
        }
      }
    },
  };
}

export type Guardian = ReturnType<typeof createGuardian>;
