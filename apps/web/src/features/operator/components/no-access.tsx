import type { OperatorRole } from '@tradehost/contracts';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../../shared/ui/page/page';
import { EmptyState } from '../../../shared/ui/states/states';

/**
 * In place of a section whose role the operator does not hold (the API would refuse its calls):
 * which role it needs, and who can grant it. Its page is not loaded.
 */
export function NoAccess({ role }: { role: OperatorRole | undefined }) {
  const { t } = useTranslation('operator');
  useDocumentTitle(t('access.title'));
  return (
    <EmptyState title={t('access.title')}>
      {role ? t('access.text', { role: t(`access.roles.${role}`) }) : t('access.none')}
    </EmptyState>
  );
}
