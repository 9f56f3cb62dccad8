import type { ServerActivity as ActivityLine } from '@tradehost/contracts';
import { useId, useState } from 'react';
import { useAppSelector } from '../../../app/hooks';
import { selectIsMobile } from '../../../shared/model/ui-slice';
import { Pagination, pageCountOf } from '../../../shared/ui/pagination/pagination';
import { EmptyState, ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { RowCards } from '../../../shared/ui/table/row-cards';
import { TableFrame } from '../../../shared/ui/table/table-frame';
import tableStyles from '../../../shared/ui/table/table.module.css';
import { useGetVpsServerActivityQuery } from '../api/vps-api';
import { useVpsFormat } from '../lib/use-vps-format';
import { ActivityStatusBadge } from './status-badge';
import styles from './vps.module.css';

/**
 * A server's activity (its page's "Activity"): its operations and the owner's other actions on
 * it, newest first, a page at a time: when, what, by whom (the owner, support or the service)
 * and how it ended. A table from tablet width up, cards on phones, as the servers list. It is
 * read again when the server changes (vps-api: the live update of an operation's end, the
 * owner's own actions).
 */
export function ServerActivity({ serverId }: { serverId: number }) {
  const { t } = useVpsFormat();
  const headingId = useId();
  const [page, setPage] = useState(1);
  const query = useGetVpsServerActivityQuery({ id: serverId, page });
  const { data } = query;

  let body;
  if (query.isError && !query.isFetching) {
    body = (
      <ErrorState
        title={t('activity.loadFailed')}
        retryLabel={t('retry')}
        onRetry={() => void query.refetch()}
      />
    );
  } else if (!data) {
    body = <LoadingState>{t('activity.loading')}</LoadingState>;
  } else if (data.meta.total === 0) {
    body = <EmptyState title={t('activity.emptyTitle')}>{t('activity.emptyText')}</EmptyState>;
  } else {
    const { meta } = data;
    const from = (meta.page - 1) * meta.per_page + 1;
    body = (
      <>
        <div className={styles.results} aria-busy={query.isFetching || undefined}>
          <ActivityLines lines={data.data} labelledBy={headingId} />
        </div>
        <Pagination
          page={meta.page}
          pageCount={pageCountOf(meta.total, meta.per_page)}
          onPageChange={setPage}
          label={t('activity.pages')}
          range={t('activity.range', {
            from,
            to: Math.min(meta.total, from + data.data.length - 1),
            total: meta.total,
          })}
        />
      </>
    );
  }

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.sectionTitle}>
        {t('activity.title')}
      </h2>
      {body}
    </section>
  );
}

/** A page of lines: a table from tablet width up, cards on phones. */
function ActivityLines({ lines, labelledBy }: { lines: ActivityLine[]; labelledBy: string }) {
  const { t, dateTime } = useVpsFormat();
  const isMobile = useAppSelector(selectIsMobile);
  const when = (line: ActivityLine) => <time dateTime={line.at}>{dateTime(line.at)}</time>;

  return isMobile ? (
    <RowCards
      labelledBy={labelledBy}
      cards={lines.map((line) => ({
        key: line.id,
        title: t(`activity.kinds.${line.kind}`),
        // the moment under what happened: a card a line shorter in a list of twenty
        subtitle: when(line),
        lead: {
          label: t('activity.columns.outcome'),
          value: <ActivityStatusBadge status={line.status} />,
        },
        facts: [{ label: t('activity.columns.by'), value: t(`activity.by.${line.by}`) }],
      }))}
    />
  ) : (
    <TableFrame labelledBy={labelledBy}>
      <table
        className={`${tableStyles.table} ${styles.table} ${styles.activityTable}`}
        aria-labelledby={labelledBy}
      >
        <thead>
          <tr>
            <th scope="col">{t('activity.columns.when')}</th>
            <th scope="col">{t('activity.columns.what')}</th>
            <th scope="col">{t('activity.columns.by')}</th>
            <th scope="col">{t('activity.columns.outcome')}</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => (
            <tr key={line.id} data-activity={line.kind}>
              <td className={styles.dateCell}>{when(line)}</td>
              <td>{t(`activity.kinds.${line.kind}`)}</td>
              <td>{t(`activity.by.${line.by}`)}</td>
              <td>
                <ActivityStatusBadge status={line.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}
