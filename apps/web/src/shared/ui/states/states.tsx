import type { ReactNode } from 'react';
import { Button, FormAlert } from '../form';
import styles from './states.module.css';

/**
 * The states of a part of a page that loads its data: loading, failed (with a way to try again)
 * and empty (EmptyState, the box of shared/ui/page). The texts come from the feature.
 */
export { EmptyState, type EmptyStateProps } from '../page/page';

/**
 * Something on its way: a small spinner and what is coming, announced politely. While one shows
 * in a page's <main>, the layout keeps the footer out of sight (layouts/layout.module.css).
 */
export function LoadingState({ children }: { children: ReactNode }) {
  return (
    <div className={styles.loading} role="status" data-loading="">
      <span className={styles.spinner} aria-hidden="true" />
      <span>{children}</span>
    </div>
  );
}

export interface ErrorStateProps {
  /** What could not be loaded. */
  title: ReactNode;
  /** Why, when it is known (the server's message). */
  detail?: ReactNode;
  /** The retry button's text ("Try again"). */
  retryLabel: string;
  onRetry: () => void;
}

/** Something that could not be loaded: an alert with what and why, and a way to try again. */
export function ErrorState({ title, detail, retryLabel, onRetry }: ErrorStateProps) {
  return (
    <FormAlert tone="error" title={title}>
      {detail ? <p className={styles.detail}>{detail}</p> : null}
      <div className={styles.actions}>
        <Button variant="secondary" onClick={onRetry}>
          {retryLabel}
        </Button>
      </div>
    </FormAlert>
  );
}
