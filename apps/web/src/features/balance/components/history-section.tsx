import { HISTORY_KINDS, PER_PAGE_DEFAULT, type HistoryKind } from '@tradehost/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../../app/hooks';
import { selectIsMobile } from '../../../shared/model/ui-slice';
import { Button } from '../../../shared/ui/form';
import { Pagination, pageCountOf } from '../../../shared/ui/pagination/pagination';
import { PeriodPicker } from '../../../shared/ui/period-picker/period-picker';
import {
  ALL_TIME,
  type PeriodRange,
  type PeriodSelection,
} from '../../../shared/ui/period-picker/period';
import { EmptyState, ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { Tabs } from '../../../shared/ui/tabs/tabs';
import { useExportHistoryMutation, useGetHistoryQuery } from '../api/balance-api';
import { StrokeIcon } from '../../../shared/ui/icon/stroke-icon';
import { HistoryCards, HistoryTable } from './history-rows';
import styles from './history.module.css';

export interface HistorySectionProps {
  kind: HistoryKind;
  onKindChange: (kind: HistoryKind) => void;
}

/**
 * The four histories (top-ups, transfers, charges, withdrawals) as sub-tabs sharing one period,
 * each a page at a time with its CSV export. A table from tablet width up, cards on phones.
 */
export function HistorySection({ kind, onKindChange }: HistorySectionProps) {
  const { t } = useTranslation('balance');
  const headingId = useId();
  const [period, setPeriod] = useState<{ selection: PeriodSelection; range: PeriodRange }>({
    selection: ALL_TIME,
    range: {},
  });
  const [page, setPage] = useState(1);

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h2 id={headingId} className="visually-hidden">
        {t('history.title')}
      </h2>
      <Tabs
        label={t('history.tabsLabel')}
        variant="sub"
        items={HISTORY_KINDS.map((value) => ({ value, label: t(`history.kinds.${value}`) }))}
        value={kind}
        onChange={(next) => {
          setPage(1);
          onKindChange(next);
        }}
      >
        <HistoryList
          // a list per history: the rows of one never show under the columns of another
          key={kind}
          kind={kind}
          period={period}
          onPeriodChange={(selection, range) => {
            setPage(1);
            setPeriod({ selection, range });
          }}
          page={page}
          onPageChange={setPage}
        />
      </Tabs>
    </section>
  );
}

interface HistoryListProps {
  kind: HistoryKind;
  period: { selection: PeriodSelection; range: PeriodRange };
  onPeriodChange: (selection: PeriodSelection, range: PeriodRange) => void;
  page: number;
  onPageChange: (page: number) => void;
}

function HistoryList({ kind, period, onPeriodChange, page, onPageChange }: HistoryListProps) {
  const { t } = useTranslation('balance');
  const isMobile = useAppSelector(selectIsMobile);
  const { data, isFetching, isError, refetch } = useGetHistoryQuery({
    kind,
    ...period.range,
    page,
    perPage: PER_PAGE_DEFAULT,
  });
  const [exportHistory, { isLoading: isExporting }] = useExportHistoryMutation();

  const rows = data?.data ?? [];
  const total = data?.meta.total ?? 0;
  const pageCount = pageCountOf(total, data?.meta.per_page ?? PER_PAGE_DEFAULT);
  const caption = t(`history.kinds.${kind}`);

  let content;
  if (!data && isFetching) {
    // the first answer, or a retry after a failure
    content = <LoadingState>{t('history.loading')}</LoadingState>;
  } else if (isError && !isFetching) {
    content = (
      <ErrorState
        title={t('history.loadFailed')}
        retryLabel={t('retry')}
        onRetry={() => void refetch()}
      />
    );
  } else if (rows.length === 0) {
    content = (
      <EmptyState title={t(`history.empty.${kind}`)}>
        {t(period.selection.preset === 'all' ? 'history.emptyAll' : 'history.emptyPeriod')}
      </EmptyState>
    );
  } else {
    content = (
      <div className={styles.results} aria-busy={isFetching || undefined}>
        {isMobile ? (
          <HistoryCards kind={kind} rows={rows} label={caption} />
        ) : (
          <HistoryTable kind={kind} rows={rows} caption={caption} />
        )}
      </div>
    );
  }

  return (
    <div className={styles.list}>
      <div className={styles.toolbar}>
        <PeriodPicker value={period.selection} onChange={onPeriodChange} />
        <Button
          variant="secondary"
          className={styles.export}
          loading={isExporting}
          loadingText={t('history.exporting')}
          onClick={() => void exportHistory({ kind, ...period.range })}
          icon={<StrokeIcon size={16} d="M12 4v11M7 10l5 5 5-5M5 20h14" />}
        >
          {t('history.export')}
        </Button>
      </div>
      <p className={styles.count} role="status">
        {data && !isFetching ? t('history.count', { total }) : ''}
      </p>
      {content}
      {rows.length > 0 ? (
        <Pagination page={page} pageCount={pageCount} onPageChange={onPageChange} />
      ) : null}
    </div>
  );
}
