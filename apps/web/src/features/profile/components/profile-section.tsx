import { useId, type ReactNode } from 'react';
import styles from './profile.module.css';

export interface ProfileSectionProps {
  title: string;
  lead?: ReactNode;
  /** Across the whole grid (the sessions list). */
  wide?: boolean;
  /** The section's anchor, for links to it (/profile#second-factor). */
  id?: string;
  children: ReactNode;
}

/** One card of the profile page: a region named by its h2. */
export function ProfileSection({ title, lead, wide = false, id, children }: ProfileSectionProps) {
  const headingId = useId();
  return (
    <section
      id={id}
      className={[styles.card, wide ? styles.wide : null].filter(Boolean).join(' ')}
      aria-labelledby={headingId}
    >
      <div className={styles.cardHead}>
        <h2 id={headingId} className={styles.cardTitle}>
          {title}
        </h2>
        {lead ? <p className={styles.muted}>{lead}</p> : null}
      </div>
      {children}
    </section>
  );
}
