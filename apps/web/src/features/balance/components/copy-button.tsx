import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../shared/ui/form';
import styles from './balance.module.css';

type CopyState = 'idle' | 'copied' | 'failed';

/** Copies `text` to the clipboard and says so in a live region (the button keeps its name). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation('balance');
  const [state, setState] = useState<CopyState>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 4000);
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

  return (
    <span className={styles.copy}>
      <Button variant="secondary" onClick={() => void copy()}>
        <svg
          className={styles.buttonIcon}
          viewBox="0 0 24 24"
          width="16"
          height="16"
          aria-hidden="true"
          focusable="false"
        >
          <path
            d="M9 9h10v12H9zM5 15H4V3h11v1"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinejoin="round"
          />
        </svg>
        {label}
      </Button>
      <span role="status" className={state === 'failed' ? styles.copyFailed : styles.copyDone}>
        {state === 'copied' ? t('crypto.copied') : state === 'failed' ? t('crypto.copyFailed') : ''}
      </span>
    </span>
  );
}
