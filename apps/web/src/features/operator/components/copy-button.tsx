import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../shared/ui/toast/notify';
import styles from './operator.module.css';

export interface CopyButtonProps {
  value: string;
  /** The button's name: "Copy TXID". */
  label: string;
}

/** Copies `value` to the clipboard; says "Copied" for two seconds (announced). */
export function CopyButton({ value, label }: CopyButtonProps) {
  const { t } = useTranslation('operator');
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      notify('error', t('copy.failed'));
    }
  };

  return (
    <>
      <button type="button" className={styles.copy} aria-label={label} onClick={() => void copy()}>
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
          {copied ? (
            <path
              d="M5 12.5l4.5 4.5L19 7.5"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          ) : (
            <path
              d="M9 9h10v11H9zM5 15V4h10"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinejoin="round"
            />
          )}
        </svg>
      </button>
      <span className="visually-hidden" role="status">
        {copied ? t('copy.copied') : ''}
      </span>
    </>
  );
}
