import type { LedgerEntry } from '@tradehost/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetUserLedgerQuery } from '../api/operator-api';
import { useFormatters } from '../lib/format';
import { ledgerMemoText } from '../lib/ledger-memo';
import { useReaderLanguage } from '../lib/reader-language';
import { SignedAmount } from './amount';
import type { Column } from './data-table';
import { usePageParam } from './pagination';
import { PagedTable } from './paged-table';
import styles from './operator.module.css';

/** The user's ledger, newest first: every movement of either balance, signed, with the balance after it. */
export function LedgerTable({ userId }: { userId: number }) {
  const { t } = useTranslation('operator');
  const format = useFormatters();
  const language = useReaderLanguage();
  const headingId = useId();
  const [page, setPage] = usePageParam();
  const query = useGetUserLedgerQuery({ userId, page });

  const columns: Column<LedgerEntry>[] = [
    {
      id: 'date',
      header: t('ledger.columns.date'),
      moment: true,
      cell: (entry) => format.dateTime(entry.created_at),
    },
    {
      id: 'kind',
      header: t('ledger.columns.kind'),
      cell: (entry) => t(`kinds.${entry.kind}`, { defaultValue: entry.kind }),
    },
    {
      id: 'account',
      header: t('ledger.columns.account'),
      cell: (entry) => t(`accounts.${entry.account}`, { defaultValue: entry.account }),
    },
    {
      id: 'amount',
      header: t('ledger.columns.amount'),
      numeric: true,
      cell: (entry) => <SignedAmount amount={entry.amount} />,
    },
    {
      id: 'after',
      header: t('ledger.columns.balanceAfter'),
      numeric: true,
      cell: (entry) => format.money(entry.balance_after),
    },
    {
      id: 'memo',
      header: t('ledger.columns.memo'),
      cell: (entry) =>
        ledgerMemoText(entry, t, language) || <span className={styles.muted}>—</span>,
    },
  ];

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h3 id={headingId} className={styles.sectionTitle}>
        {t('ledger.title')}
      </h3>
      <PagedTable
        result={query}
        empty={t('ledger.empty')}
        labelledBy={headingId}
        columns={columns}
        pagesLabel={t('ledger.pages')}
        onPageChange={setPage}
      />
    </section>
  );
}
