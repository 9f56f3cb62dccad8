import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, buttonClassName } from '../../../shared/ui/form';
import { useDocumentTitle } from '../../../shared/ui/page/page';
import styles from './operator.module.css';

/** Profile's second-factor section (features/profile: its ProfileSection's id). */
export const SECOND_FACTOR_PROFILE_LINK = '/profile#second-factor';

/**
 * In place of the operator area's pages once the API has refused a call with
 * OPERATOR_SECOND_FACTOR_REQUIRED (every /api/admin call does for an operator without a second
 * factor): what is missing, where to turn it on, and a way to try again once it is on.
 */
export function SecondFactorRequired({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation('operator');
  const headingId = useId();
  useDocumentTitle(t('secondFactor.title'));
  return (
    <section className={styles.panel} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.sectionTitle}>
        {t('secondFactor.title')}
      </h2>
      <p className={styles.lead}>{t('secondFactor.text')}</p>
      <p className={styles.lead}>{t('secondFactor.how')}</p>
      <div className={styles.formActions}>
        <Link to={SECOND_FACTOR_PROFILE_LINK} className={buttonClassName({ variant: 'primary' })}>
          {t('secondFactor.turnOn')}
        </Link>
        <Button variant="secondary" onClick={onRetry}>
          {t('secondFactor.retry')}
        </Button>
      </div>
    </section>
  );
}
