import type { Operator } from '@tradehost/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../../shared/ui/page/page';
import { useGetOperatorsQuery } from '../api/operators-api';
import { DataTable, type Column } from '../components/data-table';
import { ListHeader, RefreshButton } from '../components/list-controls';
import { Person } from '../components/person';
import {
  GrantRoleForm,
  RoleChips,
  SecondFactorState,
  useRevokeRole,
} from '../components/role-grants';
import { QueryStates } from '../components/states';
import styles from '../components/operator.module.css';

/**
 * Route module (lazy, role admin): every operator with their roles (who granted each, when) and
 * whether their second factor is on; grant one more role, revoke one after a confirmation (both
 * under step-up). A user who holds no role yet gets their first from their page (Users).
 */
export function Component() {
  const { t } = useTranslation('operator');
  useDocumentTitle(t('operators.title'));
  const headingId = useId();
  const query = useGetOperatorsQuery();
  const { headingRef, start: startRevoke, dialog: revokeDialog } = useRevokeRole();

  const columns: Column<Operator>[] = [
    {
      id: 'operator',
      header: t('operators.columns.operator'),
      width: '22%',
      cell: (operator) => <Person user={operator.user} />,
    },
    {
      id: 'roles',
      header: t('operators.columns.roles'),
      cell: (operator) => (
        <RoleChips
          user={operator.user}
          roles={operator.roles}
          onRevoke={(role, opener) => startRevoke(operator.user, role, opener)}
        />
      ),
    },
    {
      id: 'secondFactor',
      header: t('operators.columns.secondFactor'),
      width: '18%',
      cell: (operator) => <SecondFactorState on={operator.second_factor} />,
    },
    {
      id: 'grant',
      header: t('operators.columns.grant'),
      width: '24%',
      cell: (operator) => (
        <GrantRoleForm user={operator.user} held={operator.roles.map((grant) => grant.role)} />
      ),
    },
  ];

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <ListHeader
        headingId={headingId}
        headingRef={headingRef}
        title={t('operators.title')}
        lead={
          <>
            {t('operators.lead')} <Link to="/operator/users">{t('operators.newOperator')}</Link>
          </>
        }
      >
        <RefreshButton result={query} />
      </ListHeader>
      <QueryStates
        result={query}
        isEmpty={(data) => data.data.length === 0}
        empty={t('operators.empty')}
      >
        {(data) => (
          <DataTable
            labelledBy={headingId}
            columns={columns}
            rows={data.data}
            rowKey={(operator) => operator.user.id}
            busy={query.isFetching}
          />
        )}
      </QueryStates>
      {revokeDialog}
    </section>
  );
}
