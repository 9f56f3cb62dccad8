/** The parts around an operator list: its heading and buttons, its Refresh, its search box. */
import type { ReactNode, RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, TextField, type TextFieldProps } from '../../../shared/ui/form';
import styles from './operator.module.css';

export interface ListHeaderProps {
  /** The heading's id: the list's table names itself after it. */
  headingId: string;
  /** Given when the focus lands on the heading (after a decision takes a row away). */
  headingRef?: RefObject<HTMLHeadingElement | null>;
  title: ReactNode;
  lead: ReactNode;
  /** The section's buttons, across from the heading (Refresh, Add). */
  children?: ReactNode;
}

/** A list's heading, its lead and its buttons. */
export function ListHeader({ headingId, headingRef, title, lead, children }: ListHeaderProps) {
  return (
    <div className={styles.sectionHeader}>
      <div>
        <h2
          id={headingId}
          ref={headingRef}
          tabIndex={headingRef ? -1 : undefined}
          className={styles.sectionTitle}
        >
          {title}
        </h2>
        <p className={styles.lead}>{lead}</p>
      </div>
      {children}
    </div>
  );
}

/** Fetches the list again; busy while any fetch of it runs. */
export function RefreshButton({
  result,
}: {
  result: { isFetching: boolean; refetch: () => unknown };
}) {
  const { t } = useTranslation('operator');
  return (
    <Button
      variant="secondary"
      loading={result.isFetching}
      loadingText={t('vps.refreshing')}
      onClick={() => void result.refetch()}
    >
      {t('vps.refresh')}
    </Button>
  );
}

export interface SearchFormProps extends Omit<TextFieldProps, 'name' | 'type' | 'defaultValue'> {
  /** The field's name. */
  name: string;
  /** What the list is searched by now (its search parameter). */
  value: string;
  submitLabel: string;
  /** The text searched, trimmed (empty: no search). */
  onSearch: (value: string) => void;
}

/** A list's search box and its button. */
export function SearchForm({ name, value, submitLabel, onSearch, ...field }: SearchFormProps) {
  return (
    // keyed by the search: going back in history puts the searched text back in the box
    <form
      key={value}
      role="search"
      className={styles.search}
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(String(new FormData(event.currentTarget).get(name) ?? '').trim());
      }}
    >
      <TextField name={name} type="search" defaultValue={value} autoComplete="off" {...field} />
      <Button type="submit">{submitLabel}</Button>
    </form>
  );
}
