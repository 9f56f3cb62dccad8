import { useId, type ReactNode, type Ref } from 'react';
import styles from './auth-card.module.css';

export interface AuthCardProps {
  /** The page's one h1. */
  title: ReactNode;
  lead?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  /** The heading takes focus (tabIndex -1) when the card's content is replaced, e.g. by a success notice. */
  titleRef?: Ref<HTMLHeadingElement>;
}

/** The centred card of the signed-out screens (inside the layout's <main>). */
export function AuthCard({ title, lead, children, footer, titleRef }: AuthCardProps) {
  const titleId = useId();
  return (
    <div className={styles.page}>
      <section className={styles.card} aria-labelledby={titleId}>
        <header className={styles.header}>
          <h1 id={titleId} ref={titleRef} tabIndex={-1} className={styles.title}>
            {title}
          </h1>
          {lead ? <p className={styles.lead}>{lead}</p> : null}
        </header>
        <div className={styles.body}>{children}</div>
        {footer ? <div className={styles.footer}>{footer}</div> : null}
      </section>
    </div>
  );
}
