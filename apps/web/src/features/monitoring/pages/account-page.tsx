import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PlaceholderPage } from '../../../shared/ui/page/page';

/** Route module (lazy): one monitored account of the signed-in user, a placeholder for now. */
export function Component() {
  const { t } = useTranslation('monitoring');
  const { monitoringId = '' } = useParams();
  const title = t('account.title', { id: monitoringId });
  return (
    <PlaceholderPage
      level="section"
      title={title}
      description={t('account.description')}
      documentTitle={`${title} · ${t('title')}`}
    />
  );
}
