import { useEffect, useState } from 'react';
import { Button } from '../form';
import { ICON_PATHS, StrokeIcon } from '../icon/stroke-icon';
import styles from './copy-button.module.css';

type CopyState = 'idle' | 'copied' | 'failed';

export interface CopyButtonProps {
  /** What goes to the clipboard. */
  text: string;
  /** The button's name: "Copy the address", "Copy TXID". */
  label: string;
  /** What the live region says after a copy ("Copied") and when the clipboard refuses. */
  messages: { copied: string; failed: string };
  /**
   * `labelled` (default): a secondary button with an icon and the label as its text.
   * `icon`: a small icon-only button (the label is its name) for a table cell; a copy shows a
   * tick, and "copied" is announced but not shown.
   */
  variant?: 'labelled' | 'icon';
}

/** How long the outcome stays (shown and in the live region) before the button is idle again. */
const OUTCOME_MS = 4000;

function CopyIcon({ done }: { done: boolean }) {
  return (
    <StrokeIcon
      size={16}
      strokeLinecap={done ? 'round' : 'butt'}
      d={done ? ICON_PATHS.check : 'M9 9h10v12H9zM5 15H4V3h11v1'}
    />
  );
}

/**
 * Copies `text` to the clipboard and says how it went in a live region beside the button (the
 * button keeps its name). A refused clipboard (no permission, an insecure context) is shown and
 * announced, so the reader knows to select the text and copy it by hand.
 */
export function CopyButton({ text, label, messages, variant = 'labelled' }: CopyButtonProps) {
  const [state, setState] = useState<CopyState>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), OUTCOME_MS);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };

  const outcome = state === 'copied' ? messages.copied : state === 'failed' ? messages.failed : '';
  const outcomeClass =
    state === 'failed'
      ? styles.failed
      : variant === 'icon'
        ? 'visually-hidden' // the tick shows it
        : styles.done;

  return (
    <span className={variant === 'icon' ? styles.compact : styles.copy}>
      {variant === 'icon' ? (
        <button
          type="button"
          className={styles.iconButton}
          aria-label={label}
          onClick={() => void copy()}
        >
          <CopyIcon done={state === 'copied'} />
        </button>
      ) : (
        <Button variant="secondary" icon={<CopyIcon done={false} />} onClick={() => void copy()}>
          {label}
        </Button>
      )}
      <span role="status" className={outcomeClass}>
        {outcome}
      </span>
    </span>
  );
}
