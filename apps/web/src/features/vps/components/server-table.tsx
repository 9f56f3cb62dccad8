import type { ReactNode } from 'react';
import { useAppSelector } from '../../../app/hooks';
import { selectIsMobile } from '../../../shared/model/ui-slice';
import { RowCards, type RowCard } from '../../../shared/ui/table/row-cards';
import { TableFrame } from '../../../shared/ui/table/table-frame';
import tableStyles from '../../../shared/ui/table/table.module.css';
import styles from './vps.module.css';

/** A line of a server page's table: its cells from tablet width up, its card on a phone. */
export interface ServerTableRow {
  key: string | number;
  cells: ReactNode[];
  card: Omit<RowCard, 'key'>;
  /** What the row is (a data-* attribute and its value), for the journeys and the styles. */
  mark: [string, string];
}

export interface ServerTableProps {
  /** The id of the heading that names it. */
  labelledBy: string;
  /** The columns' headers (a column of buttons has one for screen readers only). */
  headers: ReactNode[];
  rows: ServerTableRow[];
  /** The table's own class, beside the VPS tables' look. */
  className?: string;
  /** The first column says when (its moment kept on one line where there is room). */
  dated?: boolean;
  /** The first cell names its row (a row header: its buttons are read with it). */
  rowHeader?: boolean;
}

/**
 * A table of a server's page (its activity, its snapshots, the guardian's incidents): a table
 * from tablet width up, cards on phones, as the servers list.
 */
export function ServerTable({
  labelledBy,
  headers,
  rows,
  className,
  dated = false,
  rowHeader = false,
}: ServerTableProps) {
  const isMobile = useAppSelector(selectIsMobile);
  if (isMobile) {
    return (
      <RowCards labelledBy={labelledBy} cards={rows.map(({ key, card }) => ({ key, ...card }))} />
    );
  }
  return (
    <TableFrame labelledBy={labelledBy}>
      <table
        className={[tableStyles.table, styles.table, className].filter(Boolean).join(' ')}
        aria-labelledby={labelledBy}
      >
        <thead>
          <tr>
            {headers.map((header, index) => (
              <th key={index} scope="col">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(({ key, cells, mark: [name, value] }) => (
            <tr key={key} {...{ [`data-${name}`]: value }}>
              {cells.map((cell, index) =>
                index === 0 && rowHeader ? (
                  <th key={index} scope="row">
                    {cell}
                  </th>
                ) : (
                  <td key={index} className={index === 0 && dated ? styles.dateCell : undefined}>
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}
