import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../shared/ui/page/page';

/** Route module (lazy): the support section, a placeholder until the section is built. */
export function Component() {
  const { t } = useTranslation('support');
  return <PlaceholderPage title={t('title')} description={t('description')} />;
}
