import { useTranslation } from 'react-i18next';
import { Button } from '../../../shared/ui/form';
import styles from './balance.module.css';

/** A part of the page that is loading: a small spinner and what is coming, announced politely. */
export function LoadingState({ text }: { text: string }) {
  return (
    <div className={styles.loading} role="status">
      <span className={styles.spinner} aria-hidden="true" />
      <span>{text}</span>
    </div>
  );
}

/** A part of the page that could not load: why, and a way to try again. */
export function ErrorState({ text, onRetry }: { text: string; onRetry: () => void }) {
  const { t } = useTranslation('balance');
  return (
    <div className={styles.failed} role="alert">
      <p className={styles.failedText}>{text}</p>
      <Button variant="secondary" onClick={onRetry}>
        {t('retry')}
      </Button>
    </div>
  );
}
