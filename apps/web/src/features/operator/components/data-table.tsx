import type { ReactNode } from 'react';
import { useAppSelector } from '../../../app/hooks';
import { selectIsMobile } from '../../../shared/model/ui-slice';
import { TableFrame } from '../../../shared/ui/table/table-frame';
import tableStyles from '../../../shared/ui/table/table.module.css';
import styles from './data-table.module.css';

export interface Column<T> {
  id: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** Amounts: right-aligned, tabular digits. */
  numeric?: boolean;
  /**
   * Moments (shared/lib/format-date): on one line on a wide screen, where a column has the room;
   * on a tablet's table and a phone's card the cell may break between the date and its time.
   */
  moment?: boolean;
  /** The row's buttons: no label on a card, at its foot. */
  actions?: boolean;
  /**
   * The column's width on a table (a CSS length or percentage). With widths given the table lays
   * out fixed, its columns as wide as said whatever the rows hold (the column left without one
   * takes the rest): tables of the same columns one under another line up.
   */
  width?: string;
}

export interface DataTableProps<T> {
  /** The id of the heading that names the list. */
  labelledBy: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  /** A new page is on its way: the rows shown are the previous ones. */
  busy?: boolean;
}

/**
 * A table from 768 px up; below it (SPEC: mobile) a list of cards, each a description list of
 * the same columns, so that nothing scrolls sideways on a phone.
 */
export function DataTable<T>({ labelledBy, columns, rows, rowKey, busy }: DataTableProps<T>) {
  const isMobile = useAppSelector(selectIsMobile);
  const data = columns.filter((column) => !column.actions);
  const actions = columns.filter((column) => column.actions);
  const fixed = columns.some((column) => column.width);

  if (isMobile) {
    return (
      <ul
        className={tableStyles.cards}
        aria-labelledby={labelledBy}
        aria-busy={busy || undefined}
        data-busy={busy || undefined}
      >
        {rows.map((row) => (
          <li key={rowKey(row)} className={`${tableStyles.card} ${styles.card}`}>
            <dl className={styles.fields}>
              {data.map((column) => (
                <div key={column.id} className={styles.field}>
                  <dt className={styles.label}>{column.header}</dt>
                  <dd className={column.numeric ? styles.numeric : styles.value}>
                    {column.cell(row)}
                  </dd>
                </div>
              ))}
            </dl>
            {actions.length > 0 ? (
              <div className={styles.cardActions}>
                {actions.map((column) => (
                  <div key={column.id}>{column.cell(row)}</div>
                ))}
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    );
  }

  return (
    <TableFrame labelledBy={labelledBy}>
      <table
        className={`${tableStyles.table} ${styles.table}${fixed ? ` ${styles.fixed}` : ''}`}
        aria-labelledby={labelledBy}
        aria-busy={busy || undefined}
        data-busy={busy || undefined}
      >
        {fixed ? (
          <colgroup>
            {columns.map((column) => (
              <col key={column.id} style={column.width ? { width: column.width } : undefined} />
            ))}
          </colgroup>
        ) : null}
        <thead>
          <tr>
            {columns.map((column) => (
              <th
                key={column.id}
                scope="col"
                className={column.numeric ? styles.numeric : undefined}
              >
                {column.actions ? (
                  <span className="visually-hidden">{column.header}</span>
                ) : (
                  column.header
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td
                  key={column.id}
                  className={
                    column.numeric
                      ? styles.numeric
                      : column.actions
                        ? styles.actions
                        : column.moment
                          ? styles.moment
                          : undefined
                  }
                >
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}
