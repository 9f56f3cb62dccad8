import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../shared/ui/form';
import type { LegalDocument } from '../content/types';
import styles from './legal.module.css';

export interface LegalDocumentViewProps {
  /** Prefix of the section anchors, e.g. "public-offer" gives #public-offer-3. */
  anchorPrefix: string;
  document: LegalDocument;
  language: string;
  busy?: boolean;
}

/** A legal text: title, table of contents linking to section anchors, and the sections. */
export function LegalDocumentView({
  anchorPrefix,
  document: legal,
  language,
  busy,
}: LegalDocumentViewProps) {
  const { t } = useTranslation('legal');
  const tocId = useId();
  const titleId = `${anchorPrefix}-title`;
  const anchor = (index: number) => `${anchorPrefix}-${index + 1}`;

  return (
    <div className={styles.layout} lang={language} aria-busy={busy || undefined}>
      <header className={styles.header}>
        <h1 id={titleId} className={styles.title} tabIndex={-1}>
          {legal.title}
        </h1>
        <div className={styles.meta}>
          <p className={styles.effective}>{legal.effectiveDate}</p>
          <Button variant="secondary" className={styles.noPrint} onClick={() => window.print()}>
            {t('print')}
          </Button>
        </div>
      </header>

      <nav className={styles.toc} aria-labelledby={tocId}>
        <h2 id={tocId} className={styles.tocTitle}>
          {t('contents')}
        </h2>
        <ul className={styles.tocList}>
          {legal.sections.map((section, index) => (
            <li key={anchor(index)}>
              <a href={`#${anchor(index)}`}>{section.heading}</a>
            </li>
          ))}
        </ul>
      </nav>

      <article className={styles.article} aria-labelledby={titleId}>
        <p className={styles.intro}>{legal.intro}</p>
        {legal.sections.map((section, index) => (
          <section key={anchor(index)} className={styles.section} aria-labelledby={anchor(index)}>
            <h2 id={anchor(index)} className={styles.sectionHeading}>
              {section.heading}
            </h2>
            {section.paragraphs.map((paragraph, paragraphIndex) => (
              <p key={paragraphIndex} className={styles.paragraph}>
                {paragraph}
              </p>
            ))}
          </section>
        ))}
        <a href={`#${titleId}`} className={styles.toTop}>
          {t('backToTop')}
        </a>
      </article>
    </div>
  );
}
