import type { Charge, HistoryKind, Payment, Transfer, Withdrawal } from '@tradehost/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { serverText } from '../../../shared/lib/api-error';
import { formatDateTime } from '../../../shared/lib/format-date';
import { formatMoney } from '../../../shared/lib/format-money';
import tableStyles from '../../../shared/ui/table/table.module.css';
import type { HistoryRow } from '../api/balance-api';
import { OperationStatusBadge } from './status-badge';
import styles from './history.module.css';

/** One row as the table and the cards show it: its cells in column order. */
interface RowView {
  id: number;
  date: string;
  amount: ReactNode;
  /** What the operation was: the method, the other party, the description. */
  subject: ReactNode;
  /** A second descriptive column (payments: details; withdrawals: the wallet). */
  details?: ReactNode;
  status: ReactNode;
}

type Columns = 'subject' | 'details';
const COLUMNS: Record<HistoryKind, Partial<Record<Columns, string>>> = {
  payments: { subject: 'method', details: 'details' },
  transfers: { subject: 'counterparty' },
  charges: { subject: 'description' },
  withdrawals: { subject: 'method', details: 'wallet' },
};

/** A long hash or address, shortened to its ends (the whole in the title and to the copy). */
function Hash({ value }: { value: string }) {
  const short = value.length > 20 ? `${value.slice(0, 10)}…${value.slice(-6)}` : value;
  return (
    <code className={styles.hash} title={value}>
      {short}
    </code>
  );
}

function useRowView() {
  const { t, i18n } = useTranslation('balance');
  const money = (dollars: number, signed = false) => (
    <span className={styles.money}>{formatMoney(dollars, i18n.language, { signed })}</span>
  );
  const date = (iso: string) => formatDateTime(iso, i18n.language);

  return (kind: HistoryKind, row: HistoryRow): RowView => {
    const base = { id: row.id, date: date(row.created_at) };
    switch (kind) {
      case 'payments': {
        const payment = row as Payment;
        const method = t(`methods.${payment.method}`);
        return {
          ...base,
          amount: money(payment.amount, payment.method === 'adjustment'),
          subject: payment.network ? `${method} · ${payment.network}` : method,
          details: (
            <span className={styles.details}>
              {payment.txid ? (
                <span>
                  TXID <Hash value={payment.txid} />
                </span>
              ) : null}
              {payment.reason ? (
                <span className={styles.reason}>
                  {t('history.reason', { reason: serverText(t, payment.reason) })}
                </span>
              ) : null}
              {!payment.txid && !payment.reason ? (
                <span className={styles.none}>
                  <span aria-hidden="true">—</span>
                  <span className="visually-hidden">{t('history.noDetails')}</span>
                </span>
              ) : null}
            </span>
          ),
          status: <OperationStatusBadge status={payment.status} />,
        };
      }
      case 'transfers': {
        const transfer = row as Transfer;
        return {
          ...base,
          // money in reads +$10.00, money out -$10.00
          amount: money(transfer.status === 'sent' ? -transfer.amount : transfer.amount, true),
          subject: (
            <span className={styles.party}>
              <span>{transfer.counterparty.name}</span>
              <span className={styles.muted}>{transfer.counterparty.email}</span>
            </span>
          ),
          status: <OperationStatusBadge status={transfer.status} />,
        };
      }
      case 'charges': {
        const charge = row as Charge;
        return {
          ...base,
          amount: money(charge.amount),
          subject: charge.description,
          status: <OperationStatusBadge status={charge.status} />,
        };
      }
      case 'withdrawals': {
        const withdrawal = row as Withdrawal;
        return {
          ...base,
          amount: money(withdrawal.amount),
          subject: withdrawal.method,
          details: <Hash value={withdrawal.wallet} />,
          status: <OperationStatusBadge status={withdrawal.status} />,
        };
      }
    }
  };
}

interface RowsProps {
  kind: HistoryKind;
  rows: readonly HistoryRow[];
}

/** The history as a table (tablet and desktop). */
export function HistoryTable({ kind, rows, caption }: RowsProps & { caption: string }) {
  const { t } = useTranslation('balance');
  const view = useRowView();
  const columns = COLUMNS[kind];
  return (
    <div className={tableStyles.frame}>
      <table className={`${tableStyles.table} ${styles.table}`}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('history.columns.date')}</th>
            <th scope="col">{t(`history.columns.${columns.subject}`)}</th>
            {columns.details ? (
              <th scope="col">{t(`history.columns.${columns.details}`)}</th>
            ) : null}
            <th scope="col" className={styles.amountCell}>
              {t('history.columns.amount')}
            </th>
            <th scope="col">{t('history.columns.status')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const cells = view(kind, row);
            return (
              <tr key={cells.id}>
                <td className={styles.dateCell}>{cells.date}</td>
                <td>{cells.subject}</td>
                {columns.details ? <td>{cells.details}</td> : null}
                <td className={styles.amountCell}>{cells.amount}</td>
                <td>{cells.status}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The history as cards (phones, under 768 px). */
export function HistoryCards({ kind, rows, label }: RowsProps & { label: string }) {
  const { t } = useTranslation('balance');
  const view = useRowView();
  const columns = COLUMNS[kind];
  return (
    <ul className={tableStyles.cards} aria-label={label}>
      {rows.map((row) => {
        const cells = view(kind, row);
        return (
          <li key={cells.id} className={`${tableStyles.card} ${styles.card}`}>
            <div className={styles.cardTop}>
              <span className={styles.cardSubject}>{cells.subject}</span>
              <span className={styles.cardAmount}>{cells.amount}</span>
            </div>
            <dl className={styles.cardFacts}>
              <div>
                <dt>{t('history.columns.date')}</dt>
                <dd>{cells.date}</dd>
              </div>
              {columns.details ? (
                <div>
                  <dt>{t(`history.columns.${columns.details}`)}</dt>
                  <dd>{cells.details}</dd>
                </div>
              ) : null}
              <div>
                <dt>{t('history.columns.status')}</dt>
                <dd>{cells.status}</dd>
              </div>
            </dl>
          </li>
        );
      })}
    </ul>
  );
}
