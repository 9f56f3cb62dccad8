import { useId, type RefObject } from 'react';
import { Button } from '../../../../shared/ui/form';
import { DataTable, type Column } from '../../../operator/components/data-table';
import { ListHeader } from '../../../operator/components/list-controls';
import { QueryStates, type QueryResult } from '../../../operator/components/states';
import styles from '../../../operator/components/operator.module.css';

/**
 * A short list the operator keeps (canned replies, departments): its heading and lead with an
 * "add" button, then its rows as a table, or its loading, failed and empty states.
 */
export function ItemsSection<T>({
  headingRef,
  title,
  lead,
  addLabel,
  onAdd,
  query,
  empty,
  columns,
  rowKey,
}: {
  /** Where focus returns when a dialog's item is gone (deleted). */
  headingRef?: RefObject<HTMLHeadingElement | null>;
  title: string;
  lead: string;
  addLabel: string;
  /** Opens the new item's dialog; `opener` gets focus back when it closes. */
  onAdd: (opener: HTMLElement) => void;
  query: QueryResult<{ data: T[] }>;
  empty: string;
  columns: Column<T>[];
  rowKey: (row: T) => string | number;
}) {
  const headingId = useId();
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <ListHeader headingId={headingId} headingRef={headingRef} title={title} lead={lead}>
        <Button onClick={(event) => onAdd(event.currentTarget)}>{addLabel}</Button>
      </ListHeader>
      <QueryStates result={query} isEmpty={(list) => list.data.length === 0} empty={empty}>
        {(list) => (
          <DataTable
            labelledBy={headingId}
            columns={columns}
            rows={list.data}
            rowKey={rowKey}
            busy={query.isFetching}
          />
        )}
      </QueryStates>
    </section>
  );
}
