import type { Segment } from '../lib/faq-search';
import styles from './faq.module.css';

/**
 * Text with the words the search matched in <mark>. The pieces are rendered as text: an answer
 * never becomes markup, whatever it contains.
 */
export function HighlightedText({ segments }: { segments: readonly Segment[] }) {
  return (
    <>
      {segments.map((segment, index) =>
        segment.mark ? (
          <mark key={index} className={styles.mark}>
            {segment.text}
          </mark>
        ) : (
          segment.text
        ),
      )}
    </>
  );
}

/** The text as it is, or highlighted when a search gave a highlighter. */
export function MaybeHighlighted({
  text,
  highlight,
}: {
  text: string;
  highlight?: ((text: string) => Segment[]) | undefined;
}) {
  return highlight ? <HighlightedText segments={highlight(text)} /> : <>{text}</>;
}
