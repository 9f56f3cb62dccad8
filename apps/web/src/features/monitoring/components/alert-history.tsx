import type { AlertEvent, MonitoringAccount } from '@tradehost/contracts';
import { useState } from 'react';
import { Pagination, pageCountOf } from '../../../shared/ui/pagination/pagination';
import { ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { ALERTS_PER_PAGE, useGetAlertHistoryQuery } from '../api/alerts-api';
import { useMonitoringFormat, type MonitoringFormat } from '../lib/use-monitoring-format';
import styles from './alerts.module.css';
import common from './monitoring.module.css';
import { useFallbackPolling } from '../../../shared/live/live-state';

/** The history refreshes this often while the page is open (alerts fire on the publisher's data). */
const POLL_MS = 15_000;

/** What an alert said, in the reader's language: its value against its line. */
function eventText(f: MonitoringFormat, event: AlertEvent, currency: string | null): string {
  const { t } = f;
  const percent = (value: number | null) => (value === null ? f.dash : `${f.figure(value)} %`);
  const money = (value: number | null) => f.money(value, currency);
  switch (event.kind) {
    case 'drawdown':
    case 'margin_level':
      return t(`alerts.event.${event.kind}`, {
        value: percent(event.value),
        threshold: percent(event.threshold),
      });
    case 'equity_below':
    case 'daily_loss':
      return t(`alerts.event.${event.kind}`, {
        value: money(event.value),
        threshold: money(event.threshold),
      });
    case 'no_data':
      return t('alerts.event.no_data', {
        minutes: t('units.minutes', { count: event.details.minutes ?? event.value ?? 0 }),
        threshold: t('units.minutes', { count: event.threshold ?? 0 }),
      });
    case 'ping_above': {
      const ms = (value: number | null) =>
        value === null ? f.dash : t('ping.ms', { value: f.figure(value, 0) });
      return t('alerts.event.ping_above', {
        server: event.details.server ?? t('alerts.tradeServer'),
        minutes: t('units.minutes', { count: event.details.minutes ?? 0 }),
        value: ms(event.value),
        threshold: ms(event.threshold),
      });
    }
    case 'positions': {
      const p = event.details.position;
      if (!p) return t('alerts.kinds.positions');
      return t(`alerts.event.${p.action}`, {
        ticket: p.ticket,
        type: t(p.type === 'buy' ? 'trades.long' : 'trades.short'),
        volume: f.figure(p.volume),
        symbol: p.symbol,
        price: f.price(p.price, null),
        profit: money(p.profit),
      });
    }
  }
}

/** The servers a silent terminal's address matched, and their state. */
function ServersOf({ event }: { event: AlertEvent }) {
  const { t } = useMonitoringFormat();
  const { publisher_ip: ip, servers } = event.details;
  if (event.kind !== 'no_data' || !ip) return null;
  if (!servers || servers.length === 0)
    return <p className={common.muted}>{t('alerts.noServer', { ip })}</p>;
  return (
    <ul className={styles.servers}>
      {servers.map((s) => (
        <li key={s.id}>
          {t('alerts.server', {
            id: s.id,
            rate: s.rate,
            state: t(`alerts.serverStates.${s.state}`),
          })}
        </li>
      ))}
    </ul>
  );
}

/** The account's alerts as they fired, newest first, a page at a time, with each channel's delivery. */
export function AlertHistoryList({ account }: { account: MonitoringAccount }) {
  const f = useMonitoringFormat();
  const { t } = f;
  const [page, setPage] = useState(1);
  const history = useGetAlertHistoryQuery(
    { id: account.id, page },
    { pollingInterval: useFallbackPolling(POLL_MS), skipPollingIfUnfocused: true },
  );
  let body;
  if (history.isError && !history.data)
    body = (
      <ErrorState
        title={t('alerts.historyFailed')}
        retryLabel={t('retry')}
        onRetry={() => void history.refetch()}
      />
    );
  else if (!history.data) body = <LoadingState>{t('loading')}</LoadingState>;
  else if (history.data.meta.total === 0)
    body = <p className={common.muted}>{t('alerts.historyEmpty')}</p>;
  else
    body = (
      <>
        <ol className={styles.history}>
          {history.data.data.map((event) => (
            <li key={event.id} className={styles.event}>
              <div className={styles.eventHead}>
                <strong>{t(`alerts.kinds.${event.kind}`)}</strong>
                <time dateTime={event.at} className={common.muted}>
                  {f.dateTime(event.at)}
                </time>
              </div>
              <p className={styles.eventText}>{eventText(f, event, account.currency)}</p>
              <ServersOf event={event} />
              <p className={styles.delivery}>
                <span>
                  {t('alerts.deliveryEmail', {
                    status: t(`alerts.statuses.${event.email_status}`),
                  })}
                </span>
                <span>
                  {t('alerts.deliveryTelegram', {
                    status: t(`alerts.statuses.${event.telegram_status}`),
                  })}
                </span>
              </p>
            </li>
          ))}
        </ol>
        <Pagination
          page={history.data.meta.page}
          pageCount={pageCountOf(history.data.meta.total, ALERTS_PER_PAGE)}
          onPageChange={setPage}
          label={t('alerts.pages')}
          range={t('alerts.range', { count: history.data.meta.total })}
        />
      </>
    );
  // a section, so its heading names it (a div may not be named: aria-prohibited-attr)
  return (
    <section className={styles.historyBox} aria-labelledby="alert-history-title">
      <h3 id="alert-history-title" className={common.groupTitle}>
        {t('alerts.historyTitle')}
      </h3>
      {body}
    </section>
  );
}
