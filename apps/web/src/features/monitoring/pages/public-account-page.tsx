import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PlaceholderPage } from '../../../shared/ui/page/page';
import styles from './monitoring.module.css';

/** Route module (lazy): the public page of a monitoring account (signed out), a placeholder for now. */
export function Component() {
  const { t } = useTranslation('monitoring');
  const { monitoringId = '' } = useParams();
  return (
    <div className={styles.public}>
      <PlaceholderPage
        title={t('public.title', { id: monitoringId })}
        description={t('public.description')}
      />
    </div>
  );
}
