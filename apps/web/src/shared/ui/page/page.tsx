import { useEffect, useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { StrokeIcon } from '../icon/stroke-icon';
import styles from './page.module.css';

/** Sets document.title to "<title> · TradeHost" while the page shows. */
export function useDocumentTitle(title: string): void {
  const { t } = useTranslation('common');
  const full = t('titleSuffix', { title });
  useEffect(() => {
    document.title = full;
  }, [full]);
}

export interface PageProps {
  title: string;
  /** A line under the heading. */
  lead?: ReactNode;
  /** Controls on the heading's row (right side). */
  actions?: ReactNode;
  children?: ReactNode;
}

/** A console page: its one h1, the lead, then the content (the page sets document.title with useDocumentTitle). */
export function Page({ title, lead, actions, children }: PageProps) {
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <div className={styles.heading}>
          <h1 className={styles.title}>{title}</h1>
          {lead ? <p className={styles.lead}>{lead}</p> : null}
        </div>
        {actions ? <div className={styles.actions}>{actions}</div> : null}
      </header>
      {children}
    </div>
  );
}

export interface EmptyStateProps {
  title?: string;
  children: ReactNode;
  /** What to do about it (a button), under the box. */
  action?: ReactNode;
}

/** The box a section shows when it has nothing to list yet, and what to do about it. */
export function EmptyState({ title, children, action }: EmptyStateProps) {
  const box = (
    <div className={styles.empty}>
      <StrokeIcon
        className={styles.emptyIcon}
        size={24}
        strokeWidth={1.6}
        d="M4 5h16v10H4zM8 19h8M12 15v4"
      />
      {title ? <h2 className={styles.emptyTitle}>{title}</h2> : null}
      <p className={styles.emptyText}>{children}</p>
    </div>
  );
  if (!action) return box;
  return (
    <div className={styles.emptyWithAction}>
      {box}
      <div>{action}</div>
    </div>
  );
}

export interface PlaceholderPageProps {
  title: string;
  description: string;
  /** h1 for a page, h2 for a section inside a page with its own h1. */
  level?: 'page' | 'section';
  documentTitle?: string;
}

/** A section that is not built yet: its heading, what it will do, and a "coming soon" notice. */
export function PlaceholderPage({
  title,
  description,
  level = 'page',
  documentTitle,
}: PlaceholderPageProps) {
  const { t } = useTranslation('common');
  const headingId = useId();
  useDocumentTitle(documentTitle ?? title);
  const notice = <EmptyState>{t('comingSoon')}</EmptyState>;
  if (level === 'page') {
    return (
      <Page title={title} lead={description}>
        {notice}
      </Page>
    );
  }
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.sectionTitle}>
        {title}
      </h2>
      <p className={styles.lead}>{description}</p>
      {notice}
    </section>
  );
}
