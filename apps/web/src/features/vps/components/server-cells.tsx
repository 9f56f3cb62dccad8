import { DAY_MS, type OperationKind, type Server } from '@tradehost/contracts';
import { Link } from 'react-router';
import { useVpsFormat } from '../lib/use-vps-format';
import { expiryOf, serverPath } from '../lib/vps';
import { ICON_PATHS, StrokeIcon } from '../../../shared/ui/icon/stroke-icon';
import { RateSpecs } from './rate-cards';
import { ServerStatusBadge } from './status-badge';
import styles from './vps.module.css';

/** The id of the line saying a server's upgrade is pending (the Upgrade button points to it). */
export const pendingUpgradeId = (server: Server) => `vps-${server.id}-upgrade-pending`;

/** The server's number ("#12"), leading to its page: the list names each server by it. */
export function ServerNumberLink({ server }: { server: Server }) {
  const { t } = useVpsFormat();
  return (
    <Link to={serverPath(server.id)} className={styles.numberLink}>
      {t('server.number', { id: server.id })}
    </Link>
  );
}

/** The rate's name, size and location; a test server and a pending upgrade say so. */
export function TariffCell({ server }: { server: Server }) {
  const { t, day } = useVpsFormat();
  const { rate } = server;
  return (
    <div className={styles.cellStack}>
      <span className={styles.tariffName}>
        {rate.name}
        {server.is_trial ? <span className={styles.tag}>{t('tariff.trial')}</span> : null}
      </span>
      <span className={styles.muted}>
        <RateSpecs rate={rate} />
      </span>
      <span className={styles.muted}>{rate.location}</span>
      {server.upgrade ? (
        <span id={pendingUpgradeId(server)} className={styles.pendingNote}>
          {t('upgrade.pendingRow', {
            rate: server.upgrade.to_rate,
            date: day(server.upgrade.scheduled_for),
          })}
        </span>
      ) : null}
    </div>
  );
}

/** Paid-until, marked (an icon and a word, not only colour) within 3 days of it or past it. */
export function PaidUntilCell({ server, now }: { server: Server; now: Date }) {
  const { t, listDate, dateTime } = useVpsFormat();
  const watched = server.status === 'active' || server.status === 'blocked';
  const expiry = watched ? expiryOf(new Date(server.paid_until), now) : null;
  return (
    <div className={styles.cellStack}>
      <time dateTime={server.paid_until} title={dateTime(server.paid_until)}>
        {listDate(server.paid_until)}
      </time>
      {expiry ? (
        <span className={styles.expiry} data-expiry={expiry}>
          <StrokeIcon size={14} strokeWidth={2.2} strokeLinejoin="miter" d={ICON_PATHS.clock} />
          {t(`paidUntil.${expiry}`)}
        </span>
      ) : null}
    </div>
  );
}

/** Operations the user hears the outcome of when they fail (creation failures show as the status). */
const REPORTED_FAILURES: readonly OperationKind[] = [
  'start',
  'shutdown',
  'reboot',
  'upgrade',
  'reactivate',
];
const REPORT_FOR_MS = DAY_MS;

/**
 * The status badge, why a server was not created, the machine's power, and the operation under
 * way (with a spinner, announced) or how the last one failed.
 */
export function StatusCell({ server, now }: { server: Server; now: Date }) {
  const { t } = useVpsFormat();
  const { operation, last_operation: last } = server;
  const showPower = server.status === 'active' && !operation;
  const lastFailed =
    !operation &&
    last?.status === 'failed' &&
    REPORTED_FAILURES.includes(last.kind) &&
    last.finished_at !== null &&
    now.getTime() - Date.parse(last.finished_at) < REPORT_FOR_MS;

  return (
    <div className={styles.cellStack}>
      <span>
        <ServerStatusBadge status={server.status} />
      </span>
      {server.status === 'failed' ? (
        <>
          {server.failure ? (
            <span className={styles.failure}>{t('status.failed', { reason: server.failure })}</span>
          ) : null}
          <span className={styles.muted}>{t('status.refunded')}</span>
        </>
      ) : null}
      {server.status === 'blocked' && !operation ? (
        <span className={styles.muted}>{t('status.blockedHint')}</span>
      ) : null}
      <span className={styles.live} aria-live="polite">
        {operation ? (
          <span className={styles.operation} data-testid={`operation-${server.id}`}>
            <span className={styles.smallSpinner} aria-hidden="true" />
            {t(`operation.${operation.kind}`)}
          </span>
        ) : showPower ? (
          <span className={styles.power} data-power={server.power}>
            <span className={styles.powerDot} aria-hidden="true" />
            {t(`power.${server.power}`)}
          </span>
        ) : null}
        {lastFailed && last ? (
          <span className={styles.failure}>
            {t('operation.lastFailed', {
              operation: t(`operationNames.${last.kind}`),
              error: last.error ?? t('operation.unknownError'),
            })}
          </span>
        ) : null}
      </span>
    </div>
  );
}

/**
 * The current ping to the broker of the terminals publishing from the server (the highest, when
 * there are several: the count says so), or a dash that says why there is none.
 */
/**
 * The ping as the last line of the table's status cell, labelled: the table has no room for a
 * column of its own (at 1024 px in Russian it would scroll sideways).
 */
export function PingLine({ server }: { server: Server }) {
  const { t } = useVpsFormat();
  return (
    <div className={styles.pingLine}>
      <span className={styles.muted}>{t('columns.ping')}</span> <PingCell server={server} />
    </div>
  );
}

export function PingCell({ server }: { server: Server }) {
  const { t } = useVpsFormat();
  if (server.ping_ms === null) {
    return (
      <span className={styles.muted} title={t('ping.none')} data-testid={`ping-${server.id}`}>
        <span aria-hidden="true">—</span>
        <span className="visually-hidden">{t('ping.none')}</span>
      </span>
    );
  }
  return (
    <span className={styles.cellStack} data-testid={`ping-${server.id}`}>
      <span className={styles.ping}>{t('ping.value', { ms: server.ping_ms })}</span>
      {server.ping_terminals > 1 ? (
        <>
          {' '}
          <span className={styles.muted}>
            {t('ping.highestOf', { count: server.ping_terminals })}
          </span>
        </>
      ) : null}
    </span>
  );
}
