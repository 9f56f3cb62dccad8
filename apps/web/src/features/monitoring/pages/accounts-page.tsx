import type { MonitoringAccount } from '@tradehost/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { TableFrame } from '../../../shared/ui/table/table-frame';
import tableStyles from '../../../shared/ui/table/table.module.css';
import { Button } from '../../../shared/ui/form';
import { EmptyState, useDocumentTitle } from '../../../shared/ui/page/page';
import { ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { useCurrentUser } from '../../auth/api/use-current-user';
import {
  monitoringApi,
  useGetMonitoringAccountsQuery,
  useGetSubscriptionsQuery,
} from '../api/monitoring-api';
import { AddAccountDialog } from '../components/add-account-dialog';
import { numberCell } from '../components/tone';
import styles from '../components/monitoring.module.css';
import { algoTradingOff, TerminalState } from '../components/terminal-state';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import { useLiveConnected } from '../../../shared/live/live-state';

/** While an account waits for its first data, the list asks again this often. */
const WAITING_POLL_MS = 5000;
const LIVE_POLL_MS = 30_000;

/**
 * Route module (lazy): the reader's monitored accounts with their figures and whether the
 * terminal is connected, and the way to add one; empty states lead to the next step.
 */
export function Component() {
  const { t } = useMonitoringFormat();
  useDocumentTitle(`${t('accounts.title')} · ${t('title')}`);
  const user = useCurrentUser();
  const subscriptions = useGetSubscriptionsQuery();
  // the list as it is cached now decides how often it is asked for again
  const cached = monitoringApi.endpoints.getMonitoringAccounts.useQueryState();
  const anyWaiting = (cached.data ?? []).some((a) => !a.last_data_at);
  const live = useLiveConnected();
  const accounts = useGetMonitoringAccountsQuery(undefined, {
    // new data comes as live updates; the slow poll keeps the terminals' connection state fresh
    pollingInterval: anyWaiting && !live ? WAITING_POLL_MS : LIVE_POLL_MS,
    skipPollingIfUnfocused: true,
  });
  const [adding, setAdding] = useState(false);

  if (accounts.isError || subscriptions.isError)
    return (
      <ErrorState
        title={t('accounts.loadFailed')}
        retryLabel={t('retry')}
        onRetry={() => {
          void accounts.refetch();
          void subscriptions.refetch();
        }}
      />
    );
  if (!accounts.data || !subscriptions.data) return <LoadingState>{t('loading')}</LoadingState>;

  const withRoom = subscriptions.data.filter((s) => s.active && s.used_accounts < s.accounts);
  if (subscriptions.data.length === 0)
    return (
      <EmptyState title={t('accounts.noSubscription')}>
        <p>{t('accounts.noSubscriptionLead')}</p>
        <Link to="/online-monitoring">{t('accounts.toPlans')}</Link>
      </EmptyState>
    );

  return (
    <section className={styles.section} aria-labelledby="accounts-title">
      <div className={styles.sectionHead}>
        <h2 id="accounts-title" className={styles.sectionTitle}>
          {t('accounts.title')}
        </h2>
        {withRoom.length > 0 ? (
          <Button onClick={() => setAdding(true)}>{t('addAccount.open')}</Button>
        ) : (
          <Link to="/online-monitoring">{t('accounts.noRoom')}</Link>
        )}
      </div>
      {accounts.data.length === 0 ? (
        <EmptyState title={t('accounts.empty')}>
          <p>{t('accounts.emptyLead')}</p>
        </EmptyState>
      ) : (
        <AccountsTable
          accounts={accounts.data}
          ended={new Set(subscriptions.data.filter((s) => !s.active).map((s) => s.id))}
        />
      )}
      {anyWaiting ? (
        <p className={styles.muted} role="status">
          {t('accounts.waiting')} <Link to="/online-monitoring/guide">{t('accounts.toGuide')}</Link>
        </p>
      ) : null}
      {adding ? (
        <AddAccountDialog
          subscriptions={withRoom}
          email={user?.email ?? ''}
          onClose={() => setAdding(false)}
        />
      ) : null}
    </section>
  );
}

/**
 * The accounts; those of an `ended` subscription say so, with the way to renew it. Wider than a
 * phone, the table scrolls in its frame, the edge with columns beyond it shaded.
 */
function AccountsTable({
  accounts,
  ended,
}: {
  accounts: MonitoringAccount[];
  ended: ReadonlySet<number>;
}) {
  const f = useMonitoringFormat();
  const { t } = f;
  return (
    <TableFrame labelledBy="accounts-title">
      <table className={tableStyles.table} aria-labelledby="accounts-title">
        <thead>
          <tr>
            <th className={styles.tableCell} scope="col">
              {t('accounts.name')}
            </th>
            <th className={styles.num} scope="col">
              {t('accounts.gain')}
            </th>
            <th className={styles.num} scope="col">
              {t('accounts.drawdown')}
            </th>
            <th className={styles.num} scope="col">
              {t('accounts.profit')}
            </th>
            <th className={styles.num} scope="col">
              {t('accounts.balance')}
            </th>
            <th className={styles.num} scope="col">
              {t('accounts.trades')}
            </th>
            <th className={styles.num} scope="col">
              {t('accounts.views')}
            </th>
            <th className={styles.tableCell} scope="col">
              {t('accounts.updated')}
            </th>
          </tr>
        </thead>
        <tbody>
          {accounts.map((a) => (
            <tr key={a.id}>
              <th className={styles.tableCell} scope="row">
                <Link to={`/online-monitoring/${a.monitoring_id}`}>{a.name}</Link>
                <div className={styles.muted}>
                  {a.platform} · {a.login}
                </div>
                {ended.has(a.subscription_id) ? (
                  <div className={styles.ended}>
                    {t('accounts.ended')} <Link to="/online-monitoring">{t('accounts.renew')}</Link>
                  </div>
                ) : null}
              </th>
              <td className={numberCell(a.summary?.gain)}>{f.percent(a.summary?.gain, true)}</td>
              <td className={styles.num}>{f.percent(a.summary?.max_drawdown)}</td>
              <td className={numberCell(a.summary?.profit)}>
                {f.money(a.summary?.profit, a.currency)}
              </td>
              <td className={styles.num}>{f.money(a.balance, a.currency)}</td>
              <td className={styles.num}>{a.summary?.trades ?? f.dash}</td>
              <td className={styles.num}>{a.views}</td>
              <td className={styles.tableCell}>
                {a.last_data_at ? (
                  <TerminalState
                    lastDataAt={a.last_data_at}
                    connected={a.terminal_connected}
                    algoOff={algoTradingOff(a)}
                  />
                ) : (
                  <span className={styles.muted}>{t('accounts.noData')}</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}
