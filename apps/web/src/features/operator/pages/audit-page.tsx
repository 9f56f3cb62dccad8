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
import { inReadingOrder } from '../lib/audit-order';
import { useFormatters, type Formatters } from '../lib/format';
import styles from '../components/operator.module.css';

/** Ids of other records (an array holds several): "#12". */
const ID_KEYS = new Set([
  'id',
  'ledger_transaction_id',
  'operation_id',
  'reactivate_operation_id',
  'charge_id',
  'rate_id',
  'from_rate_id',
  'to_rate_id',
  'server_id',
  'upgrade_id',
  'cancelled_upgrades',
  'message_id',
  'department_id',
  'operator_ids',
]);
/** Amounts in dollars, as the API writes them (centsToDollars). */
const DOLLAR_KEYS = new Set([
  'price',
  'period_discount',
  'promo_discount',
  'monthly_price',
  'account_month_price',
]);
/** Amounts the API writes in cents (the VPS lifecycle's and failures'). */
const CENT_KEYS = new Set(['amount_cents', 'price_cents', 'balance_cents', 'refunded_cents']);
/** Moments (ISO 8601). */
const MOMENT_KEYS = new Set([
  'ends_at',
  'previous_ends_at',
  'paid_until',
  'previous_paid_until',
  'revoke_at',
  'blocked_at',
]);
/** Values named elsewhere in the operator's words: the key's value under this prefix. */
const VALUE_NAMES: Record<string, string> = {
  account: 'accounts',
  method: 'methods',
  action: 'vps.operationKinds',
  kind: 'vps.operationKinds',
  was: 'vps.operationStatuses',
  source: 'vps.sources',
  group: 'faq.groups',
  from: 'support.statuses',
  to: 'support.statuses',
};

interface DetailWords {
  t: TFunction;
  format: Formatters;
  language: 'en' | 'ru';
}

/**
 * A record stored as it was named when the entry was written, `{ id, name_en, name_ru }` (a
 * ticket's department): its name in the reader's language, else its number. Entries written
 * before hold the id alone (`department_id`: "#3").
 */
function namedRecord(value: object, { t, language }: DetailWords): string | undefined {
  const record = value as Record<string, unknown>;
  const name = record[`name_${language}`];
  if (typeof name === 'string' && name.trim() !== '') return name;
  return 'id' in record ? t('number', { id: String(record.id) }) : undefined;
}
const NAMED_RECORD_KEYS = new Set(['department']);

/** A detail's name: `audit.detailKeys.<key>`, the key itself when it has none. */
function detailLabel(key: string, { t }: DetailWords): string {
  return t(`audit.detailKeys.${key}`, { defaultValue: key });
}

const isNumeric = (value: unknown): value is number | string =>
  typeof value === 'number' ||
  (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)));

/**
 * One value of an entry's details in words: ids as "#12", amounts as money, moments as dates,
 * yes or no, known values by their names; an object (a "before" or "after") as its own details,
 * "Name: value · Name: value", each of a list of them in brackets.
 */
function detailValue(key: string, value: unknown, words: DetailWords): string {
  const { t, format } = words;
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) {
    if (value.length === 0) return '—';
    return value
      .map((item: unknown) => {
        // the names of the fields a change touched
        if (key === 'changed' && typeof item === 'string') return detailLabel(item, words);
        const text = detailValue(key, item, words);
        return item !== null && typeof item === 'object' ? `(${text})` : text;
      })
      .join(', ');
  }
  if (typeof value === 'boolean') return t(value ? 'audit.yes' : 'audit.no');
  if (NAMED_RECORD_KEYS.has(key) && typeof value === 'object') {
    const named = namedRecord(value, words);
    if (named !== undefined) return named;
  }
  if (typeof value === 'object') {
    const fields = value as Record<string, unknown>;
    const names = Object.keys(fields);
    // a payment notification's amount in its own currency: "10.00 USD"
    if (names.length === 2 && 'amount' in fields && 'currency' in fields)
      return `${String(fields.amount)} ${String(fields.currency)}`;
    return names
      .map((name) => `${detailLabel(name, words)}: ${detailValue(name, fields[name], words)}`)
      .join(' · ');
  }
  if (ID_KEYS.has(key) || ((key === 'from' || key === 'to') && typeof value === 'number'))
    return t('number', { id: String(value) });
  if (key === 'amount' && isNumeric(value)) return format.signedMoney(Number(value));
  if (DOLLAR_KEYS.has(key) && isNumeric(value)) return format.money(Number(value));
  if (CENT_KEYS.has(key) && isNumeric(value)) return format.money(Number(value) / 100);
  if (MOMENT_KEYS.has(key) && typeof value === 'string') return format.dateTime(value);
  const names = VALUE_NAMES[key];
  // a word of the API's ("reboot"), not free text ("other: a blog")
  if (names && typeof value === 'string' && /^\w+$/.test(value))
    return t(`${names}.${value}`, { defaultValue: value });
  return String(value);
}

function Details({ details }: { details: AuditEntry['details'] }) {
  const { t, i18n } = useTranslation('operator');
  const format = useFormatters();
  const language = (i18n.resolvedLanguage ?? i18n.language) === 'ru' ? 'ru' : 'en';
  const words = { t, format, language } as const;
  const entries = inReadingOrder(details);
  if (entries.length === 0) return <span className={styles.muted}>—</span>;
  return (
    <dl className={styles.details}>
      {entries.map(([key, value]) => (
        <div key={key}>
          <dt>{detailLabel(key, words)}</dt>
          <dd className={key === 'txid' ? styles.mono : undefined}>
            {detailValue(key, value, words)}
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
      moment: true,
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
        return entry.subject_id ? `${type} ${t('number', { id: entry.subject_id })}` : type;
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
