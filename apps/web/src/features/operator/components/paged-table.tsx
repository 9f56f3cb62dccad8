import type { Page } from '@tradehost/contracts';
import type { ReactNode } from 'react';
import { DataTable, type Column } from './data-table';
import { ListPagination } from './pagination';
import { QueryStates, type ListResult } from './states';

export interface PagedTableProps<T extends { id: number }> {
  result: ListResult<T>;
  /** Shown when the first page is empty. */
  empty: ReactNode;
  /** The heading that names the table. */
  labelledBy: string;
  columns: Column<T>[];
  /** The name of the pagination's navigation. */
  pagesLabel: string;
  onPageChange: (page: number) => void;
}

const isEmptyList = (list: Page<unknown>) => list.data.length === 0 && list.meta.page === 1;

/** A paged list of the operator area: its states, the rows as a table (cards on a phone), the pages. */
export function PagedTable<T extends { id: number }>({
  result,
  empty,
  labelledBy,
  columns,
  pagesLabel,
  onPageChange,
}: PagedTableProps<T>) {
  return (
    <QueryStates result={result} isEmpty={isEmptyList} empty={empty}>
      {(list) => (
        <>
          <DataTable
            labelledBy={labelledBy}
            columns={columns}
            rows={list.data}
            rowKey={(row) => row.id}
            busy={result.isFetching}
          />
          <ListPagination meta={list.meta} onPageChange={onPageChange} label={pagesLabel} />
        </>
      )}
    </QueryStates>
  );
}
