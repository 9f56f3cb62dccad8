import type { AdminDepartment } from '@tradehost/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../shared/ui/form';
import { useDocumentTitle } from '../../../shared/ui/page/page';
import { useGetAdminDepartmentsQuery } from '../api/support-operator-api';
import { DataTable, type Column } from '../components/data-table';
import { DepartmentDialog } from '../components/department-dialog';
import { ListHeader } from '../components/list-controls';
import { QueryStates } from '../components/states';
import { SupportNav } from '../components/support-badges';
import { ActiveBadge } from '../components/vps-badges';
import { useItemDialog } from '../lib/use-item-dialog';
import styles from '../components/operator.module.css';
import supportStyles from '../components/support.module.css';

/**
 * Route module (lazy, admins only): the help desk's departments in their order: their names in
 * both languages, whether users may open tickets in them, the operators their mail goes to; add
 * one, edit one. (A department is never deleted: its tickets keep it; it is switched off.)
 */
export function Component() {
  const { t } = useTranslation('operator');
  useDocumentTitle(t('support.departments.title'));
  const headingId = useId();
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
      <section className={styles.section} aria-labelledby={headingId}>
        <ListHeader
          headingId={headingId}
          title={t('support.departments.title')}
          lead={t('support.departments.lead')}
        >
          <Button onClick={(event) => editor.show(null, event.currentTarget)}>
            {t('support.departments.add')}
          </Button>
        </ListHeader>
        <QueryStates
          result={query}
          isEmpty={(list) => list.data.length === 0}
          empty={t('support.departments.empty')}
        >
          {(list) => (
            <DataTable
              labelledBy={headingId}
              columns={columns}
              rows={list.data}
              rowKey={(department) => department.id}
              busy={query.isFetching}
            />
          )}
        </QueryStates>
      </section>
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
