import { NETWORK_SEARCH_MAX, type AdminPartnerNetworkNode } from '@tradehost/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useGetAdminPartnerNetworkQuery } from '../api/partner-operator-api';
import { useFormatters } from '../../../operator/lib/format';
import { useFilterParams } from '../../../operator/lib/list-params';
import type { Column } from '../../../operator/components/data-table';
import { SearchForm } from '../../../operator/components/list-controls';
import { PagedTable } from '../../../operator/components/paged-table';
import { usePageParam } from '../../../operator/components/pagination';
import { ReferralActivityBadge } from './partner-badges';
import styles from '../../../operator/components/operator.module.css';
import partnerStyles from './partner.module.css';

/** The referrals' own search parameters: the user page's ledger has `page`. */
export const REFERRALS_PAGE_PARAM = 'referrals_page';
export const REFERRALS_SEARCH_PARAM = 'referrals_search';

/**
 * The user's referrals on their operator page: the first level, newest first, each e-mail
 * leading to that referral's own page (so the operator walks the tree page by page); a search
 * finds people on all three levels by a part of their e-mail or name.
 */
export function PartnerReferrals({ userId }: { userId: number }) {
  const { t } = useTranslation('operator');
  const format = useFormatters();
  const headingId = useId();
  const [params, setFilter] = useFilterParams(undefined, REFERRALS_PAGE_PARAM);
  // as the API takes it: trimmed, at most NETWORK_SEARCH_MAX characters (an edited address)
  const search = (params.get(REFERRALS_SEARCH_PARAM) ?? '').trim().slice(0, NETWORK_SEARCH_MAX);
  const [page, setPage] = usePageParam(REFERRALS_PAGE_PARAM);
  const query = useGetAdminPartnerNetworkQuery({ userId, search, page });

  const columns: Column<AdminPartnerNetworkNode>[] = [
    {
      id: 'referral',
      header: t('partner.referrals.columns.referral'),
      cell: (node) => (
        <span className={styles.person}>
          <Link to={`/operator/users/${node.id}`}>{node.email}</Link>
        </span>
      ),
    },
    {
      id: 'registered',
      header: t('partner.referrals.columns.registered'),
      moment: true,
      cell: (node) => format.dateTime(node.registered_at),
    },
    {
      id: 'level',
      header: t('partner.referrals.columns.level'),
      numeric: true,
      cell: (node) => node.level,
    },
    {
      id: 'status',
      header: t('partner.referrals.columns.status'),
      cell: (node) => <ReferralActivityBadge active={node.active} />,
    },
    {
      id: 'referrals',
      header: t('partner.referrals.columns.referrals'),
      numeric: true,
      cell: (node) => node.referrals,
    },
    {
      id: 'turnover',
      header: t('partner.referrals.columns.turnover'),
      numeric: true,
      cell: (node) => format.money(node.turnover),
    },
    {
      id: 'rewards',
      header: t('partner.referrals.columns.rewards'),
      numeric: true,
      cell: (node) => format.money(node.rewards),
    },
  ];

  return (
    <div className={styles.section}>
      <div>
        <h4 id={headingId} className={partnerStyles.subTitle}>
          {t('partner.referrals.title')}
        </h4>
        <p className={styles.lead}>{t('partner.referrals.lead')}</p>
      </div>
      <SearchForm
        label={t('partner.referrals.search')}
        name={REFERRALS_SEARCH_PARAM}
        value={search}
        spellCheck={false}
        maxLength={NETWORK_SEARCH_MAX}
        submitLabel={t('partner.referrals.searchSubmit')}
        onSearch={(value) => setFilter(REFERRALS_SEARCH_PARAM, value)}
      />
      <PagedTable
        result={query}
        empty={
          search ? t('partner.referrals.emptySearch', { search }) : t('partner.referrals.empty')
        }
        labelledBy={headingId}
        columns={columns}
        pagesLabel={t('partner.referrals.pages')}
        onPageChange={setPage}
      />
    </div>
  );
}
