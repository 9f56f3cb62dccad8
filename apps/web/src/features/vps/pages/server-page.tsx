import type { Server, UpgradeResponse } from '@tradehost/contracts';
import { useId, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { isApiRequestError } from '../../../shared/lib/api-error';
import { routeIdOf } from '../../../shared/lib/route-id';
import type { RouteHandle } from '../../../shared/lib/route-handle';
import { buttonClassName } from '../../../shared/ui/form';
import { Page, useDocumentTitle } from '../../../shared/ui/page/page';
import panel from '../../../shared/ui/panel/panel.module.css';
import { EmptyState, ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { useGetVpsServerQuery, vpsApi } from '../api/vps-api';
import { AutoRenewSwitch } from '../components/auto-renew-switch';
import { CommentEditor } from '../components/comment-editor';
import { LoginDetails } from '../components/login-details';
import { NoticeAlert, renewedNotice, upgradedNotice, type Notice } from '../components/notice';
import { hasActions, ServerActions } from '../components/server-actions';
import { ServerActivity } from '../components/server-activity';
import { ServerRepair } from '../components/server-repair';
import { ServerConsoleCard } from '../components/server-console-card';
import { ServerResources } from '../components/server-resources';
import { ServerSnapshots } from '../components/server-snapshots';
import { TerminalGuardian } from '../components/terminal-guardian';
import { PaidUntilCell, PingCell, StatusCell, TariffCell } from '../components/server-cells';
import styles from '../components/vps.module.css';
import { useFollow } from '../lib/use-follow';
import { useNow } from '../lib/use-now';
import { useVpsFormat } from '../lib/use-vps-format';

/** Where the page leads back to: My servers. */
const SERVERS_LIST_PATH = '/vps?tab=servers';

/**
 * The server, its snapshots, its guardian and the first page of its activity, asked for beside
 * the page's first render (its load is not: only a server on the hypervisor has one).
 */
export const handle: RouteHandle = {
  prefetch: (dispatch, url) => {
    const id = routeIdOf(/^\/vps\/servers\/([^/]+)/.exec(url.pathname)?.[1]);
    if (id === null) return;
    dispatch(vpsApi.util.prefetch('getVpsServer', id, {}));
    dispatch(vpsApi.util.prefetch('getVpsSnapshots', id, {}));
    dispatch(vpsApi.util.prefetch('getVpsGuardian', id, {}));
    dispatch(vpsApi.util.prefetch('getVpsServerActivity', { id, page: 1 }, {}));
  },
};

/**
 * Route module (lazy): one server's page at `/vps/servers/:serverId`: what the list shows of it
 * (rate, status, dates, auto-renewal, comment, login details) with its actions; for a server on
 * the hypervisor its load, its snapshots, its repairs and its terminal guardian; and its
 * activity. A server that is not the reader's, or not there, is not found (the API answers 404
 * for both), and so is an address that cannot be a server's number.
 */
export function Component() {
  const id = routeIdOf(useParams().serverId);
  if (id === null) return <NotFound />;
  // keyed: another server gets a fresh page (its notice, its activity's page number)
  return <ServerPage key={id} id={id} />;
}

/** The page's frame: the way back to the list above the heading and whatever the page holds. */
function Frame({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useVpsFormat();
  return (
    <div className={styles.serverPage}>
      <Link to={SERVERS_LIST_PATH} className={styles.back}>
        <span aria-hidden="true">←</span> {t('serverPage.back')}
      </Link>
      <Page title={title} actions={actions}>
        {children}
      </Page>
    </div>
  );
}

function NotFound() {
  const { t } = useVpsFormat();
  useDocumentTitle(t('serverPage.notFoundTitle'));
  return (
    <Frame title={t('serverPage.notFoundTitle')}>
      <EmptyState
        action={
          <Link to={SERVERS_LIST_PATH} className={buttonClassName({ variant: 'secondary' })}>
            {t('serverPage.toList')}
          </Link>
        }
      >
        {t('serverPage.notFoundText')}
      </EmptyState>
    </Frame>
  );
}

function ServerPage({ id }: { id: number }) {
  const { t } = useVpsFormat();
  const now = useNow();
  const [notice, setNotice] = useState<Notice | null>(null);
  const { data: server, error, isFetching, refetch } = useGetVpsServerQuery(id);
  const notFound = isApiRequestError(error) && error.status === 404;
  const title = t('serverPage.title', { id });
  useDocumentTitle(notFound ? t('serverPage.notFoundTitle') : `${title} · ${t('title')}`);
  if (notFound) return <NotFound />;

  const onUpgraded = (result: UpgradeResponse) => setNotice(upgradedNotice(result));
  // one frame from the first render on: the heading stays in place as the server comes
  const actions =
    server && hasActions(server) ? (
      <ServerActions
        server={server}
        now={now}
        onRenewed={(result) => setNotice(renewedNotice(result))}
        onUpgraded={onUpgraded}
      />
    ) : null;
  let content;
  if (server) {
    content = (
      <>
        <ServerDetails server={server} now={now} />
        {/* the machine's own sections: a server with one on the hypervisor (active or blocked) */}
        {hasActions(server) ? (
          <>
            <ServerResources server={server} now={now} onUpgraded={onUpgraded} />
            <ServerSnapshots server={server} />
            <ServerRepair server={server} />
            <ServerConsoleCard server={server} />
            <TerminalGuardian server={server} />
          </>
        ) : null}
        <ServerActivity serverId={id} />
      </>
    );
  } else if (error && !isFetching) {
    content = (
      <ErrorState
        title={t('serverPage.loadFailed')}
        retryLabel={t('retry')}
        onRetry={() => void refetch()}
      />
    );
  } else {
    content = <LoadingState>{t('serverPage.loading')}</LoadingState>;
  }
  return (
    <Frame title={title} actions={actions}>
      {notice ? <NoticeAlert notice={notice} onDismiss={() => setNotice(null)} /> : null}
      {content}
    </Frame>
  );
}

/** What the list's row shows of the server, as labelled facts; an operation under way is followed. */
function ServerDetails({ server, now }: { server: Server; now: Date }) {
  const { t, date } = useVpsFormat();
  const headingId = useId();
  useFollow(server);
  return (
    <section className={panel.panel} aria-labelledby={headingId}>
      <h2 id={headingId} className="visually-hidden">
        {t('serverPage.details')}
      </h2>
      <dl className={styles.serverFacts}>
        <Fact label={t('columns.tariff')}>
          <TariffCell server={server} />
        </Fact>
        <Fact label={t('columns.status')}>
          <StatusCell server={server} now={now} />
        </Fact>
        <Fact label={t('columns.issued')}>
          <time dateTime={server.issued_at}>{date(server.issued_at)}</time>
        </Fact>
        <Fact label={t('columns.paidUntil')}>
          <PaidUntilCell server={server} now={now} />
        </Fact>
        <Fact label={t('columns.autoRenew')}>
          <AutoRenewSwitch server={server} />
        </Fact>
        <Fact label={t('columns.login')}>
          <LoginDetails server={server} />
        </Fact>
        <Fact label={t('columns.ping')}>
          <PingCell server={server} />
        </Fact>
        <Fact label={t('columns.comment')} wide>
          <CommentEditor server={server} />
        </Fact>
      </dl>
    </section>
  );
}

function Fact({
  label,
  wide = false,
  children,
}: {
  label: string;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={wide ? styles.wideFact : undefined}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
