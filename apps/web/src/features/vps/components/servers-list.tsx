import type { PaidResponse, Server, UpgradeResponse } from '@tradehost/contracts';
import { TableFrame } from '../../../shared/ui/table/table-frame';
import tableStyles from '../../../shared/ui/table/table.module.css';
import { useFollow } from '../lib/use-follow';
import { useVpsFormat } from '../lib/use-vps-format';
import { isBusy } from '../lib/vps';
import { AutoRenewSwitch } from './auto-renew-switch';
import { CommentEditor } from './comment-editor';
import { LoginDetails } from './login-details';
import { hasActions, ServerActions } from './server-actions';
import {
  PaidUntilCell,
  PingCell,
  PingLine,
  ServerNumberLink,
  StatusCell,
  TariffCell,
} from './server-cells';
import styles from './vps.module.css';

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
  const { listDate } = useVpsFormat();
  useFollow(server);
  return (
    <tr data-server={server.id} aria-busy={isBusy(server) || undefined}>
      <th scope="row" className={styles.idCell}>
        <ServerNumberLink server={server} />
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
        <PingLine server={server} />
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
        <h3 className={styles.cardTitle}>
          <ServerNumberLink server={server} />
        </h3>
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
        <div>
          <dt>{t('columns.ping')}</dt>
          <dd>
            <PingCell server={server} />
          </dd>
        </div>
      </dl>
      {hasActions(server) ? (
        <ServerActions server={server} now={now} onRenewed={onRenewed} onUpgraded={onUpgraded} />
      ) : null}
    </li>
  );
}
