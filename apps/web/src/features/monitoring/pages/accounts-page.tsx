import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../shared/ui/page/page';

/** Route module (lazy): the connected trading accounts, a placeholder until monitoring is built. */
export function Component() {
  const { t } = useTranslation('monitoring');
  const title = t('accounts.title');
  return (
    <PlaceholderPage
      level="section"
      title={title}
      description={t('accounts.description')}
      documentTitle={`${title} · ${t('title')}`}
    />
  );
}
