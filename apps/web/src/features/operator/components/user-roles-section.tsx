import type { UserRef } from '@tradehost/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetOperatorsQuery } from '../api/operators-api';
import { OperatorRolesEditor, SecondFactorState, useRevokeRole } from './role-grants';
import { LoadError, Loading } from './states';
import styles from './operator.module.css';

/**
 * A user's page, for an admin: the operator roles the user holds (none for a customer), a role
 * to grant them and each role's Revoke, as on the Operators page.
 */
export function UserRolesSection({ user }: { user: UserRef }) {
  const { t } = useTranslation('operator');
  const headingId = useId();
  const query = useGetOperatorsQuery();
  const { headingRef, start: startRevoke, dialog: revokeDialog } = useRevokeRole();
  const operator = query.data?.data.find((candidate) => candidate.user.id === user.id);

  let content;
  if (query.data) {
    content = (
      <>
        {operator ? <SecondFactorState on={operator.second_factor} /> : null}
        <OperatorRolesEditor
          user={user}
          operator={operator}
          onRevoke={(role, opener) => startRevoke(user, role, opener)}
        />
      </>
    );
  } else if (query.isError && !query.isFetching) {
    content = <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  } else {
    content = <Loading />;
  }

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <div>
        <h2 id={headingId} ref={headingRef} tabIndex={-1} className={styles.sectionTitle}>
          {t('operators.userSection.title')}
        </h2>
        <p className={styles.lead}>{t('operators.userSection.lead')}</p>
      </div>
      {content}
      {revokeDialog}
    </section>
  );
}
