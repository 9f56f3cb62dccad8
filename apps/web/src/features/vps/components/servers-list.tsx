import type { PaidResponse, Server, UpgradeResponse } from '@tradehost/contracts';
import { TableFrame } from '../../../shared/ui/table/table-frame';
import tableStyles from '../../../shared/ui/table/table.module.css';
import { useGetVpsServerQuery } from '../api/vps-api';
import { useVpsFormat } from '../lib/use-vps-format';
import { isBusy } from '../lib/vps';
import { AutoRenewSwitch } from './auto-renew-switch';
import { CommentEditor } from './comment-editor';
import { LoginDetails } from './login-details';
import { hasActions, ServerActions } from './server-actions';
import { PaidUntilCell, StatusCell, TariffCell } from './server-cells';
import styles from './vps.module.css';
import { useLiveConnected } from '../../../shared/live/live-state';

/** How often a server with an operation under way is asked about (SPEC 4: it takes 1-2 minutes). */
export const OPERATION_POLL_MS = 2500;
/** While live updates bring each operation's end: a slow check for one ended elsewhere (an operator). */
export const OPERATION_LIVE_POLL_MS = 30_000;

/**
 * Follows a server while an operation runs on it (or it is being created): GET /servers/:id
 * every 2.5 s while the live updates are down (they tell when the operation ends: every 30 s
 * then); each answer replaces its row in the list (vps-api), and the polling stops once
 * the operation has ended.
 */
function useFollow(server: Server) {
  const busy = isBusy(server);
  const live = useLiveConnected();
  useGetVpsServerQuery(server.id, {
    skip: !busy,
    pollingInterval: busy ? (live ? OPERATION_LIVE_POLL_MS : OPERATION_POLL_MS) : 0,
    skipPollingIfUnfocused: false,
  });
}

export interface ServersListProps {
  servers: readonly Server[];
  now: Date;
  caption: string;
  onRenewed: (result: PaidResponse) => void;
  onUpgraded: (result: UpgradeResponse) => void;
}

type RowProps = Omit<ServersListProps, 'servers' | 'caption'> & { server: Server };

/** The servers as a table (tablet and desktop): the columns of SPEC 2 and the actions. */
export function ServersTable({ servers, caption, ...rest }: ServersListProps) {
  const { t } = useVpsFormat();
  return (
    <TableFrame>
      <table className={`${tableStyles.table} ${styles.table}`}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('columns.id')}</th>
            <th scope="col">{t('columns.tariff')}</th>
            <th scope="col">{t('columns.comment')}</th>
            <th scope="col">{t('columns.login')}</th>
            <th scope="col">{t('columns.issued')}</th>
            <th scope="col">{t('columns.paidUntil')}</th>
            <th scope="col">{t('columns.autoRenew')}</th>
            <th scope="col">{t('columns.status')}</th>
            <th scope="col">{t('columns.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {servers.map((server) => (
            <ServerRow key={server.id} server={server} {...rest} />
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}

function ServerRow({ server, now, onRenewed, onUpgraded }: RowProps) {
  const { t, listDate } = useVpsFormat();
  useFollow(server);
  return (
    <tr data-server={server.id} aria-busy={isBusy(server) || undefined}>
      <th scope="row" className={styles.idCell}>
        {t('server.number', { id: server.id })}
      </th>
      <td>
        <TariffCell server={server} />
      </td>
      <td className={styles.commentCell}>
        <CommentEditor server={server} />
      </td>
      <td>
        <LoginDetails server={server} />
      </td>
      <td className={styles.dateCell}>
        <time dateTime={server.issued_at}>{listDate(server.issued_at)}</time>
      </td>
      <td className={styles.dateCell}>
        <PaidUntilCell server={server} now={now} />
      </td>
      <td>
        <AutoRenewSwitch server={server} />
      </td>
      <td>
        <StatusCell server={server} now={now} />
      </td>
      <td>
        <ServerActions server={server} now={now} onRenewed={onRenewed} onUpgraded={onUpgraded} />
      </td>
    </tr>
  );
}

/** The servers as cards (phones, under 768 px), with the same facts and actions. */
export function ServerCards({ servers, caption, ...rest }: ServersListProps) {
  return (
    <ul className={tableStyles.cards} aria-label={caption}>
      {servers.map((server) => (
        <ServerCard key={server.id} server={server} {...rest} />
      ))}
    </ul>
  );
}

function ServerCard({ server, now, onRenewed, onUpgraded }: RowProps) {
  const { t, date } = useVpsFormat();
  useFollow(server);
  return (
    <li
      className={`${tableStyles.card} ${styles.card}`}
      data-server={server.id}
      aria-busy={isBusy(server) || undefined}
    >
      <div className={styles.cardTop}>
        <h3 className={styles.cardTitle}>{t('server.number', { id: server.id })}</h3>
        <StatusCell server={server} now={now} />
      </div>
      <TariffCell server={server} />
      <dl className={styles.cardFacts}>
        <div>
          <dt>{t('columns.comment')}</dt>
          <dd>
            <CommentEditor server={server} />
          </dd>
        </div>
        <div>
          <dt>{t('columns.login')}</dt>
          <dd>
            <LoginDetails server={server} />
          </dd>
        </div>
        <div>
          <dt>{t('columns.issued')}</dt>
          <dd>{date(server.issued_at)}</dd>
        </div>
        <div>
          <dt>{t('columns.paidUntil')}</dt>
          <dd>
            <PaidUntilCell server={server} now={now} />
          </dd>
        </div>
        <div>
          <dt>{t('columns.autoRenew')}</dt>
          <dd>
            <AutoRenewSwitch server={server} />
          </dd>
        </div>
      </dl>
      {hasActions(server) ? (
        <ServerActions server={server} now={now} onRenewed={onRenewed} onUpgraded={onUpgraded} />
      ) : null}
    </li>
  );
}
