import type { PartnerInfoData } from '@tradehost/contracts';
import { useState } from 'react';
import {
  ALL_TIME,
  type PeriodRange,
  type PeriodSelection,
} from '../../../shared/ui/period-picker/period';
import { PeriodPicker } from '../../../shared/ui/period-picker/period-picker';
import { ErrorState, LoadingState } from '../../../shared/ui/states/states';
import {
  useGetPartnerInfoDataQuery,
  useGetPartnerInfoQuery,
  useGetPartnerLevelsQuery,
} from '../api/partner-api';
import { usePartnerFormat } from '../lib/use-partner-format';
import { LevelsTable } from './levels-table';
import styles from './partners.module.css';
import { RewardsChart } from './rewards-chart';
import { ShareCard } from './share-card';

/** Statistics: the link and code to share, the period's figures and rewards, the levels table. */
export function StatisticsSection() {
  const { t } = usePartnerFormat();
  const info = useGetPartnerInfoQuery();
  const levels = useGetPartnerLevelsQuery();
  const [selection, setSelection] = useState<PeriodSelection>(ALL_TIME);
  const [range, setRange] = useState<PeriodRange>({});
  const data = useGetPartnerInfoDataQuery(range);

  if (info.isError || levels.isError)
    return (
      <ErrorState
        title={t('loadFailed')}
        retryLabel={t('retry')}
        onRetry={() => {
          void info.refetch();
          void levels.refetch();
        }}
      />
    );
  if (!info.data || !levels.data) return <LoadingState>{t('loading')}</LoadingState>;
  return (
    <>
      <ShareCard info={info.data} />
      <section className={styles.section} aria-labelledby="partner-period-title">
        <div className={styles.sectionHead}>
          <h2 id="partner-period-title" className={styles.sectionTitle}>
            {t('stats.title')}
          </h2>
          <PeriodPicker
            value={selection}
            onChange={(next, nextRange) => {
              setSelection(next);
              setRange(nextRange);
            }}
          />
        </div>
        {data.isError ? (
          <ErrorState
            title={t('loadFailed')}
            retryLabel={t('retry')}
            onRetry={() => void data.refetch()}
          />
        ) : !data.data || data.isFetching ? (
          <LoadingState>{t('loading')}</LoadingState>
        ) : (
          <>
            <StatTiles stats={data.data.stats} />
            <RewardsChart points={data.data.rewardData} period={range} />
          </>
        )}
      </section>
      <section className={styles.section} aria-labelledby="partner-levels-title">
        <h2 id="partner-levels-title" className={styles.sectionTitle}>
          {t('levels.title')}
        </h2>
        <LevelsTable rows={levels.data} info={info.data} />
      </section>
    </>
  );
}

function StatTiles({ stats }: { stats: PartnerInfoData['stats'] }) {
  const f = usePartnerFormat();
  const { t } = f;
  const tiles: Array<[string, string]> = [
    ['clicks', f.count(stats.clicks)],
    ['registrations', f.count(stats.registrations)],
    ['payingClients', f.count(stats.paying_clients)],
    ['conversion', f.ratio(stats.conversion)],
    ['turnover', f.money(stats.turnover)],
    ['rewardsPending', f.money(stats.rewards_pending)],
    ['rewardsAvailable', f.money(stats.rewards_available)],
  ];
  return (
    <dl className={styles.tiles}>
      {tiles.map(([key, value]) => (
        <div key={key} className={styles.tile}>
          <dt>{t(`stats.${key}`)}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
