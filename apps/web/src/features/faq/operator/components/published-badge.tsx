import { useTranslation } from 'react-i18next';
import { Badge } from '../../../operator/components/badge';

/** A FAQ question shown to the users, or kept back as a draft. */
export function PublishedBadge({ published }: { published: boolean }) {
  const { t } = useTranslation('operator');
  return (
    <Badge tone={published ? 'success' : 'neutral'}>
      {published ? t('faq.published') : t('faq.draft')}
    </Badge>
  );
}
