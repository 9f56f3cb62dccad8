import type { AdminUser } from '@tradehost/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../../shared/ui/page/page';
import { useGetAdminUsersQuery } from '../api/operator-api';
import type { Column } from '../components/data-table';
import { ListHeader, SearchForm } from '../components/list-controls';
import { usePageParam } from '../components/pagination';
import { PagedTable } from '../components/paged-table';
import { useFormatters } from '../lib/format';
import { useFilterParams } from '../lib/list-params';
import styles from '../components/operator.module.css';

/** Route module (lazy, admins only): find a user by e-mail or name; their balances. */
export function Component() {
  const { t } = useTranslation('operator');
  useDocumentTitle(t('users.title'));
  const format = useFormatters();
  const headingId = useId();
  const [params, setFilter] = useFilterParams();
  const search = params.get('query') ?? '';
  const [page, setPage] = usePageParam();
  const query = useGetAdminUsersQuery({ query: search, page });

  const columns: Column<AdminUser>[] = [
    {
      id: 'user',
      header: t('users.columns.user'),
      cell: (user) => (
        <span className={styles.person}>
          <Link to={`/operator/users/${user.id}`}>{user.email}</Link>
          <span className={styles.muted}>{user.name}</span>
        </span>
      ),
    },
    {
      id: 'role',
      header: t('users.columns.role'),
      cell: (user) => (
        <span
          className={`${styles.badge} ${user.role === 'admin' ? styles.badgeAdmin : ''}`.trim()}
        >
          {t(`roles.${user.role}`)}
        </span>
      ),
    },
    {
      id: 'created',
      header: t('users.columns.created'),
      moment: true,
      cell: (user) => format.dateTime(user.created_at),
    },
    {
      id: 'balance',
      header: t('accounts.balance'),
      numeric: true,
      cell: (user) => format.money(user.balance),
    },
    {
      id: 'balance_partner',
      header: t('accounts.balance_partner'),
      numeric: true,
      cell: (user) => format.money(user.balance_partner),
    },
  ];

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <ListHeader headingId={headingId} title={t('users.title')} lead={t('users.lead')} />
      <SearchForm
        label={t('users.search')}
        name="query"
        value={search}
        spellCheck={false}
        maxLength={254}
        submitLabel={t('users.searchSubmit')}
        onSearch={(value) => setFilter('query', value)}
      />
      <PagedTable
        result={query}
        empty={search ? t('users.emptySearch', { query: search }) : t('users.empty')}
        labelledBy={headingId}
        columns={columns}
        pagesLabel={t('users.pages')}
        onPageChange={setPage}
      />
    </section>
  );
}
