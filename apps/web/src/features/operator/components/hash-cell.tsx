import type { ComponentProps } from 'react';
import { CopyButton } from '../../../shared/ui/copy-button/copy-button';
import styles from './operator.module.css';

/**
 * A wallet or a TXID: shortened with its full text on hover, and a copy button; a dash when
 * absent.
 */
export function HashCell({
  value,
  label,
  messages,
}: {
  value: string | null;
  /** The copy button's name ("Copy the wallet address"). */
  label: string;
  messages: ComponentProps<typeof CopyButton>['messages'];
}) {
  if (!value) return '—';
  return (
    <span className={styles.hash}>
      <span className={`${styles.mono} ${styles.truncate}`} title={value}>
        {value}
      </span>
      <CopyButton text={value} label={label} variant="icon" messages={messages} />
    </span>
  );
}
