import type { AuditEntry } from '@tradehost/contracts';
import type { TFunction } from 'i18next';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../../shared/ui/page/page';
import { useGetAuditQuery } from '../api/operator-api';
import type { Column } from '../components/data-table';
import { ListHeader } from '../components/list-controls';
import { usePageParam } from '../components/pagination';
import { PagedTable } from '../components/paged-table';
import { Person } from '../components/person';
import { useFormatters, type Formatters } from '../lib/format';
import styles from '../components/operator.module.css';

/** One value of an entry's details, in words where the key is known. */
function detailValue(key: string, value: unknown, t: TFunction, format: Formatters): string {
  if (value === null || value === undefined || value === '') return '—';
  if (key === 'amount' && typeof value === 'number') return format.signedMoney(value);
  if (key === 'amount' && typeof value === 'string' && !Number.isNaN(Number(value))) {
    return format.signedMoney(Number(value));
  }
  if (key === 'account' && typeof value === 'string') {
    return t(`accounts.${value}`, { defaultValue: value });
  }
  if (key === 'ledger_transaction_id') return `#${String(value)}`;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function Details({ details }: { details: AuditEntry['details'] }) {
  const { t } = useTranslation('operator');
  const format = useFormatters();
  const entries = Object.entries(details);
  if (entries.length === 0) return <span className={styles.muted}>—</span>;
  return (
    <dl className={styles.details}>
      {entries.map(([key, value]) => (
        <div key={key}>
          <dt>{t(`audit.detailKeys.${key}`, { defaultValue: key })}</dt>
          <dd className={key === 'txid' ? styles.mono : undefined}>
            {detailValue(key, value, t, format)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Route module (lazy, admins only): who did what and when, newest first. */
export function Component() {
  const { t } = useTranslation('operator');
  useDocumentTitle(t('audit.title'));
  const format = useFormatters();
  const headingId = useId();
  const [page, setPage] = usePageParam();
  const query = useGetAuditQuery({ page });

  const columns: Column<AuditEntry>[] = [
    {
      id: 'when',
      header: t('audit.columns.when'),
      cell: (entry) => format.dateTime(entry.created_at),
    },
    {
      id: 'who',
      header: t('audit.columns.who'),
      cell: (entry) =>
        entry.actor ? (
          <Person user={entry.actor} />
        ) : (
          <span className={styles.muted}>{t('audit.system')}</span>
        ),
    },
    {
      id: 'action',
      header: t('audit.columns.action'),
      cell: (entry) => t(`audit.actions.${entry.action}`, { defaultValue: entry.action }),
    },
    {
      id: 'subject',
      header: t('audit.columns.subject'),
      cell: (entry) => {
        const type = t(`audit.subjects.${entry.subject_type}`, {
          defaultValue: entry.subject_type,
        });
        return entry.subject_id ? `${type} #${entry.subject_id}` : type;
      },
    },
    {
      id: 'target',
      header: t('audit.columns.target'),
      cell: (entry) =>
        entry.target_user ? (
          <Person user={entry.target_user} />
        ) : (
          <span className={styles.muted}>—</span>
        ),
    },
    {
      id: 'details',
      header: t('audit.columns.details'),
      cell: (entry) => <Details details={entry.details} />,
    },
  ];

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <ListHeader headingId={headingId} title={t('audit.title')} lead={t('audit.lead')} />
      <PagedTable
        result={query}
        empty={t('audit.empty')}
        labelledBy={headingId}
        columns={columns}
        pagesLabel={t('audit.pages')}
        onPageChange={setPage}
      />
    </section>
  );
}
