import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../shared/ui/page/page';

/** Route module (lazy): the subscription plans, a placeholder until monitoring is built. */
export function Component() {
  const { t } = useTranslation('monitoring');
  const title = t('subscription.title');
  return (
    <PlaceholderPage
      level="section"
      title={title}
      description={t('subscription.description')}
      documentTitle={`${title} · ${t('title')}`}
    />
  );
}
