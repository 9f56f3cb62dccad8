import { Link, useParams } from 'react-router';
import { isApiRequestError } from '../../../shared/lib/api-error';
import { routeIdOf } from '../../../shared/lib/route-id';
import { buttonClassName } from '../../../shared/ui/form';
import { Page, useDocumentTitle } from '../../../shared/ui/page/page';
import { EmptyState, ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { useGetVpsServerQuery } from '../api/vps-api';
import { ConsoleScreen } from '../components/console-screen';
import { consoleBlockText } from '../components/server-console-card';
import styles from '../components/vps.module.css';
import { useVpsFormat } from '../lib/use-vps-format';

/**
 * Route module (lazy, so noVNC loads only here): the web console of server `:serverId` at
 * `/vps/servers/:serverId/console`. A server that is not the reader's, or not there, is not found
 * (the API answers 404 for both); one the console cannot open says why, with the way back.
 */
export function Component() {
  const id = routeIdOf(useParams().serverId);
  const { t } = useVpsFormat();
  const {
    data: server,
    error,
    isFetching,
    refetch,
  } = useGetVpsServerQuery(id ?? 0, {
    skip: id === null,
  });
  const notFound = id === null || (isApiRequestError(error) && error.status === 404);
  const title = notFound ? t('serverPage.notFoundTitle') : t('console.pageTitle', { id });
  useDocumentTitle(`${title} · ${t('title')}`);

  let content;
  if (notFound) {
    content = <EmptyState>{t('serverPage.notFoundText')}</EmptyState>;
  } else if (server) {
    const blocked = consoleBlockText(t, server);
    content = blocked ? (
      <EmptyState
        title={t('console.unavailableTitle')}
        action={
          <Link to={`/vps/servers/${id}`} className={buttonClassName({ variant: 'secondary' })}>
            {t('console.back', { id })}
          </Link>
        }
      >
        {blocked}
      </EmptyState>
    ) : (
      <ConsoleScreen serverId={server.id} />
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
    <div className={styles.serverPage}>
      <Link to={notFound ? '/vps?tab=servers' : `/vps/servers/${id}`} className={styles.back}>
        <span aria-hidden="true">←</span>{' '}
        {notFound ? t('serverPage.back') : t('console.back', { id })}
      </Link>
      <Page title={title} lead={notFound ? undefined : t('console.lead')}>
        {content}
      </Page>
    </div>
  );
}
