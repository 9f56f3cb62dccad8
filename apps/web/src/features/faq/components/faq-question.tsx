import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CopyButton } from '../../../shared/ui/copy-button/copy-button';
import { paragraphs, type FaqEntry } from '../lib/faq-entries';
import type { Segment } from '../lib/faq-search';
import { StrokeIcon } from '../../../shared/ui/icon/stroke-icon';
import { HighlightedText, MaybeHighlighted } from './highlighted-text';
import styles from './faq.module.css';

export interface FaqQuestionProps {
  entry: FaqEntry;
  open: boolean;
  onToggle: (slug: string) => void;
  /** Search results: the group's name over the question (results mix the groups). */
  groupLabel?: string;
  /** Search results: marks the matched words in the question and the answer. */
  highlight?: ((text: string) => Segment[]) | undefined;
  /** Search results: the part of the answer around the match, shown while the answer is closed. */
  excerpt?: readonly Segment[] | undefined;
}

/** Where a question is: its link (/faq#slug) as a full address, for the clipboard. */
export function questionUrl(slug: string): string {
  return new URL(`/faq#${slug}`, window.location.href).href;
}

/**
 * One question: a disclosure (its button says whether the answer is open, aria-expanded), the
 * answer in plain paragraphs, the question's own link and a copy of it. The element carries the
 * slug as its id, so /faq#<slug> points at it.
 */
export function FaqQuestion({
  entry,
  open,
  onToggle,
  groupLabel,
  highlight,
  excerpt,
}: FaqQuestionProps) {
  const { t } = useTranslation('faq');
  const answerId = `${entry.slug}-answer`;

  return (
    <li id={entry.slug} className={styles.item}>
      {groupLabel ? <p className={styles.groupTag}>{groupLabel}</p> : null}
      <h3 className={styles.questionHeading}>
        <button
          type="button"
          className={styles.toggle}
          aria-expanded={open}
          aria-controls={answerId}
          onClick={() => onToggle(entry.slug)}
        >
          <span className={styles.questionText}>
            <MaybeHighlighted text={entry.question} highlight={highlight} />
          </span>
          <StrokeIcon className={styles.chevron} size={20} d="M6 9l6 6 6-6" />
        </button>
      </h3>
      {!open && excerpt ? (
        <p className={styles.excerpt}>
          <HighlightedText segments={excerpt} />
        </p>
      ) : null}
      <div id={answerId} className={styles.answer} hidden={!open}>
        {open ? (
          <>
            {paragraphs(entry.answer).map((paragraph, index) => (
              <p key={index} className={styles.paragraph}>
                <MaybeHighlighted text={paragraph} highlight={highlight} />
              </p>
            ))}
            <div className={styles.tools}>
              <Link to={{ pathname: '/faq', hash: entry.slug }} className={styles.permalink}>
                {t('question.link')}
              </Link>
              <CopyButton
                variant="icon"
                text={questionUrl(entry.slug)}
                label={t('question.copy')}
                messages={{ copied: t('question.copied'), failed: t('question.copyFailed') }}
              />
            </div>
          </>
        ) : null}
      </div>
    </li>
  );
}
