import type { AdminPartnerReward, AdminPartnerSummary, PartnerLevel } from '@tradehost/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useGetAdminPartnerSummaryQuery } from '../api/partner-operator-api';
import { useFormatters } from '../../../operator/lib/format';
import { DataTable, type Column } from '../../../operator/components/data-table';
import { RewardStatusBadge } from './partner-badges';
import { PartnerReferrals } from './partner-referrals';
import { Person } from '../../../operator/components/person';
import { QueryStates } from '../../../operator/components/states';
import styles from '../../../operator/components/operator.module.css';
import partnerStyles from './partner.module.css';

/** "12.5%" (en), "12,5 %" (ru): a percentage as the API sends it (10 = 10 %). */
function usePercent() {
  const { i18n } = useTranslation();
  const format = new Intl.NumberFormat(i18n.resolvedLanguage ?? 'en', {
    style: 'percent',
    maximumFractionDigits: 2,
  });
  return (value: number) => format.format(value / 100);
}

/**
 * The user's side of the partner programme on their operator page: code, referrer, balances,
 * the levels table and the latest rewards, their referrals (loaded on their own), with a way to
 * the withdrawal requests.
 */
export function PartnerSection({ userId }: { userId: number }) {
  const { t } = useTranslation('operator');
  const headingId = useId();
  const query = useGetAdminPartnerSummaryQuery(userId);
  return (
    <section className={styles.panel} aria-labelledby={headingId}>
      <div>
        <h3 id={headingId} className={styles.sectionTitle}>
          {t('partner.summary.title')}
        </h3>
        <p className={styles.lead}>{t('partner.summary.lead')}</p>
      </div>
      <QueryStates result={query} isEmpty={() => false} empty={null}>
        {(summary) => <PartnerFigures summary={summary} />}
      </QueryStates>
      <PartnerReferrals userId={userId} />
      <Link to="/operator/partner/withdrawals?status=all" className={styles.backLink}>
        {t('partner.summary.withdrawals')}
      </Link>
    </section>
  );
}

function PartnerFigures({ summary }: { summary: AdminPartnerSummary }) {
  const { t } = useTranslation('operator');
  const format = useFormatters();
  const [l1 = 0, l2 = 0, l3 = 0] = summary.active_referrals;
  return (
    <>
      <dl className={styles.facts}>
        <dt>{t('partner.summary.code')}</dt>
        <dd className={styles.mono}>{summary.referral_code}</dd>
        <dt>{t('partner.summary.referrer')}</dt>
        <dd>
          {summary.referrer ? (
            <Person user={summary.referrer} />
          ) : (
            <span className={styles.muted}>{t('partner.summary.noReferrer')}</span>
          )}
        </dd>
        <dt>{t('partner.summary.active')}</dt>
        <dd>{t('partner.summary.activeLevels', { l1, l2, l3 })}</dd>
      </dl>
      <dl className={styles.summary}>
        <div className={styles.summaryItem}>
          <dt>{t('partner.summary.available')}</dt>
          <dd>{format.money(summary.balances.available)}</dd>
        </div>
        <div className={styles.summaryItem}>
          <dt>{t('partner.summary.pending', { count: summary.hold_days })}</dt>
          <dd>{format.money(summary.balances.pending)}</dd>
        </div>
      </dl>
      <LevelsTable levels={summary.levels} />
      <RewardsTable rewards={summary.rewards} />
    </>
  );
}

function LevelsTable({ levels }: { levels: PartnerLevel[] }) {
  const { t } = useTranslation('operator');
  const format = useFormatters();
  const percent = usePercent();
  const headingId = useId();
  const columns: Column<PartnerLevel>[] = [
    {
      id: 'level',
      header: t('partner.summary.levels.level'),
      cell: (row) => t('partner.summary.levels.name', { level: row.level }),
    },
    {
      id: 'percent',
      header: t('partner.summary.levels.percent'),
      numeric: true,
      cell: (row) => percent(row.rewardForLevel),
    },
    {
      id: 'referrals',
      header: t('partner.summary.levels.referrals'),
      numeric: true,
      cell: (row) => row.userCount,
    },
    {
      id: 'turnover',
      header: t('partner.summary.levels.turnover'),
      numeric: true,
      cell: (row) => format.money(row.rewardCount),
    },
    {
      id: 'rewards',
      header: t('partner.summary.levels.rewards'),
      numeric: true,
      cell: (row) => format.money(row.rewardSum),
    },
  ];
  return (
    <div className={styles.section}>
      <h4 id={headingId} className={partnerStyles.subTitle}>
        {t('partner.summary.levels.title')}
      </h4>
      <DataTable
        labelledBy={headingId}
        columns={columns}
        rows={levels}
        rowKey={(row) => row.level}
      />
    </div>
  );
}

function RewardsTable({ rewards }: { rewards: AdminPartnerReward[] }) {
  const { t } = useTranslation('operator');
  const format = useFormatters();
  const percent = usePercent();
  const headingId = useId();
  const columns: Column<AdminPartnerReward>[] = [
    {
      id: 'date',
      header: t('partner.summary.rewards.date'),
      moment: true,
      cell: (reward) => format.dateTime(reward.created_at),
    },
    {
      id: 'from',
      header: t('partner.summary.rewards.from'),
      cell: (reward) => <Person user={reward.from_user} />,
    },
    {
      id: 'level',
      header: t('partner.summary.rewards.level'),
      numeric: true,
      cell: (reward) => reward.level,
    },
    {
      id: 'charge',
      header: t('partner.summary.rewards.charge'),
      cell: (reward) =>
        t('partner.summary.rewards.chargeOf', {
          id: reward.charge_id,
          amount: format.money(reward.base),
          percent: percent(reward.percent),
        }),
    },
    {
      id: 'amount',
      header: t('partner.summary.rewards.amount'),
      numeric: true,
      cell: (reward) => format.money(reward.amount),
    },
    {
      id: 'status',
      header: t('partner.summary.rewards.status'),
      cell: (reward) => <RewardStatusBadge status={reward.status} />,
    },
    {
      id: 'available',
      header: t('partner.summary.rewards.available'),
      moment: true,
      cell: (reward) =>
        reward.available_at ? (
          format.dateTime(reward.available_at)
        ) : (
          <span className={styles.muted}>—</span>
        ),
    },
  ];
  return (
    <div className={styles.section}>
      <h4 id={headingId} className={partnerStyles.subTitle}>
        {t('partner.summary.rewards.title')}
      </h4>
      {rewards.length === 0 ? (
        <p className={styles.muted}>{t('partner.summary.rewards.empty')}</p>
      ) : (
        <DataTable
          labelledBy={headingId}
          columns={columns}
          rows={rewards}
          rowKey={(reward) => reward.id}
        />
      )}
    </div>
  );
}
