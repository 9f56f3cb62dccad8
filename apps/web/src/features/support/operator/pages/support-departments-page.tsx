import type { AdminDepartment } from '@tradehost/contracts';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../../shared/ui/form';
import { useDocumentTitle } from '../../../../shared/ui/page/page';
import { useGetAdminDepartmentsQuery } from '../api/support-operator-api';
import { type Column } from '../../../operator/components/data-table';
import { DepartmentDialog } from '../components/department-dialog';
import { ItemsSection } from '../components/items-section';
import { SupportNav } from '../components/support-badges';
import { ActiveBadge } from '../../../operator/components/badge';
import { useItemDialog } from '../../../operator/lib/use-item-dialog';
import styles from '../../../operator/components/operator.module.css';
import supportStyles from '../components/support.module.css';

/**
 * Route module (lazy, admins only): the help desk's departments in their order: their names in
 * both languages, whether users may open tickets in them, the operators their mail goes to; add
 * one, edit one. (A department is never deleted: its tickets keep it; it is switched off.)
 */
export function Component() {
  const { t } = useTranslation('operator');
  useDocumentTitle(t('support.departments.title'));
  const query = useGetAdminDepartmentsQuery();
  const editor = useItemDialog<AdminDepartment | null>();
  const departments = query.data?.data ?? [];
  const nextPosition =
    departments.length > 0 ? Math.max(...departments.map((one) => one.position)) + 1 : 0;

  const columns: Column<AdminDepartment>[] = [
    {
      id: 'position',
      header: t('support.departments.columns.position'),
      numeric: true,
      cell: (department) => department.position,
    },
    {
      id: 'name_en',
      header: t('support.departments.columns.name_en'),
      cell: (department) => <span lang="en">{department.name_en}</span>,
    },
    {
      id: 'name_ru',
      header: t('support.departments.columns.name_ru'),
      cell: (department) => <span lang="ru">{department.name_ru}</span>,
    },
    {
      id: 'active',
      header: t('support.departments.columns.active'),
      cell: (department) => <ActiveBadge active={department.active} />,
    },
    {
      id: 'operators',
      header: t('support.departments.columns.operators'),
      cell: (department) =>
        department.operators.length > 0 ? (
          <ul className={supportStyles.emails}>
            {department.operators.map((operator) => (
              <li key={operator.id}>{operator.email}</li>
            ))}
          </ul>
        ) : (
          <span className={styles.muted}>{t('support.departments.allOperators')}</span>
        ),
    },
    {
      id: 'actions',
      header: t('support.departments.columns.actions'),
      actions: true,
      cell: (department) => (
        <span className={styles.rowActions}>
          <Button
            variant="secondary"
            onClick={(event) => editor.show(department, event.currentTarget)}
          >
            {t('support.edit')}{' '}
            <span className="visually-hidden">
              {t('support.departments.rowContext', { name: department.name_en })}
            </span>
          </Button>
        </span>
      ),
    },
  ];

  return (
    <div className={styles.section}>
      <SupportNav />
      <ItemsSection
        title={t('support.departments.title')}
        lead={t('support.departments.lead')}
        addLabel={t('support.departments.add')}
        onAdd={(opener) => editor.show(null, opener)}
        query={query}
        empty={t('support.departments.empty')}
        columns={columns}
        rowKey={(department) => department.id}
      />
      {editor.subject ? (
        <DepartmentDialog
          // a fresh form each time it opens
          key={editor.subject.key}
          department={editor.subject.item}
          nextPosition={nextPosition}
          {...editor.dialog}
        />
      ) : null}
    </div>
  );
}
