import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../shared/ui/page/page';

/** Route module (lazy): the vps section, a placeholder until the section is built. */
export function Component() {
  const { t } = useTranslation('vps');
  return <PlaceholderPage title={t('title')} description={t('description')} />;
}
