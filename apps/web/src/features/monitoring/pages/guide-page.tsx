import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../shared/ui/page/page';

/** Route module (lazy): how to connect monitoring, a placeholder until monitoring is built. */
export function Component() {
  const { t } = useTranslation('monitoring');
  const title = t('guide.title');
  return (
    <PlaceholderPage
      level="section"
      title={title}
      description={t('guide.description')}
      documentTitle={`${title} · ${t('title')}`}
    />
  );
}
