import type { Page, ServerActivity as ActivityLine } from '@tradehost/contracts';
import { useId, useState } from 'react';
import { Pagination, pageCountOf } from '../../../shared/ui/pagination/pagination';
import { EmptyState } from '../../../shared/ui/states/states';
import { useGetVpsServerActivityQuery } from '../api/vps-api';
import { useVpsFormat } from '../lib/use-vps-format';
import { Loaded } from './load-state';
import { ServerTable } from './server-table';
import { ActivityStatusBadge } from './status-badge';
import styles from './vps.module.css';

/**
 * A server's activity (its page's "Activity"): its operations and the owner's other actions on
 * it, newest first, a page at a time: when, what, by whom (the owner, support or the service)
 * and how it ended: a table from tablet width up, cards on phones (ServerTable). It is read
 * again when the server changes (vps-api: the live update of an operation's end, the owner's own
 * actions).
 */
export function ServerActivity({ serverId }: { serverId: number }) {
  const { t } = useVpsFormat();
  const headingId = useId();
  const [page, setPage] = useState(1);
  const query = useGetVpsServerActivityQuery({ id: serverId, page });

  const lines = ({ data, meta }: Page<ActivityLine>) => {
    if (meta.total === 0) {
      return <EmptyState title={t('activity.emptyTitle')}>{t('activity.emptyText')}</EmptyState>;
    }
    const from = (meta.page - 1) * meta.per_page + 1;
    return (
      <>
        <div className={styles.results} aria-busy={query.isFetching || undefined}>
          <ActivityLines lines={data} labelledBy={headingId} />
        </div>
        <Pagination
          page={meta.page}
          pageCount={pageCountOf(meta.total, meta.per_page)}
          onPageChange={setPage}
          label={t('activity.pages')}
          range={t('activity.range', {
            from,
            to: Math.min(meta.total, from + data.length - 1),
            total: meta.total,
          })}
        />
      </>
    );
  };

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.sectionTitle}>
        {t('activity.title')}
      </h2>
      <Loaded query={query} loading={t('activity.loading')} failed={t('activity.loadFailed')}>
        {lines}
      </Loaded>
    </section>
  );
}

/** A page of lines: a table from tablet width up, cards on phones. */
function ActivityLines({ lines, labelledBy }: { lines: ActivityLine[]; labelledBy: string }) {
  const { t, dateTime } = useVpsFormat();
  return (
    <ServerTable
      labelledBy={labelledBy}
      className={styles.activityTable}
      dated
      headers={[
        t('activity.columns.when'),
        t('activity.columns.what'),
        t('activity.columns.by'),
        t('activity.columns.outcome'),
      ]}
      rows={lines.map((line) => {
        const when = <time dateTime={line.at}>{dateTime(line.at)}</time>;
        const what = t(`activity.kinds.${line.kind}`);
        const by = t(`activity.by.${line.by}`);
        const outcome = <ActivityStatusBadge status={line.status} />;
        return {
          key: line.id,
          mark: ['activity', line.kind],
          cells: [when, what, by, outcome],
          card: {
            title: what,
            // the moment under what happened: a card a line shorter in a list of twenty
            subtitle: when,
            lead: { label: t('activity.columns.outcome'), value: outcome },
            facts: [{ label: t('activity.columns.by'), value: by }],
          },
        };
      })}
    />
  );
}
