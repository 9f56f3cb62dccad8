import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useDocumentTitle } from '../../../shared/ui/page/page';
import { EmptyState } from '../../../shared/ui/states/states';
import { useGetAdminUserQuery } from '../api/operator-api';
import { AdjustBalanceForm } from '../../balance/operator/components/adjust-balance-form';
import { LedgerTable } from '../components/ledger-table';
import { PartnerSection } from '../../partners/operator/components/partner-summary';
import { LoadError, Loading } from '../components/states';
import { UserRolesSection } from '../components/user-roles-section';
import { useFormatters } from '../lib/format';
import { useMayOpen } from '../lib/operator-roles';
import { codeOf } from '../lib/use-operator-error';
import styles from '../components/operator.module.css';

function userIdOf(param: string | undefined): number | null {
  const id = Number(param);
  return Number.isSafeInteger(id) && id >= 1 ? id : null;
}

/**
 * Route module (lazy, every operator): one user's balances; for the billing role also their manual
 * adjustments, partner figures and ledger (the API refuses those calls to the other roles); for
 * the admin role their operator roles, to grant and revoke.
 */
export function Component() {
  const { t } = useTranslation('operator');
  const format = useFormatters();
  const mayOpen = useMayOpen();
  const headingId = useId();
  const userId = userIdOf(useParams().userId);
  const query = useGetAdminUserQuery(userId ?? 0, { skip: userId === null });
  const user = query.currentData?.user;
  useDocumentTitle(user ? t('user.documentTitle', { email: user.email }) : t('users.title'));

  const back = (
    <Link to="/operator/users" className={styles.backLink}>
      {t('user.back')}
    </Link>
  );

  if (userId === null || (query.isError && codeOf(query.error) === 'NOT_FOUND')) {
    return (
      <div className={styles.section}>
        {back}
        <EmptyState title={t('user.notFoundTitle')}>{t('user.notFound')}</EmptyState>
      </div>
    );
  }
  if (!user) {
    return (
      <div className={styles.section}>
        {back}
        {query.isError && !query.isFetching ? (
          <LoadError error={query.error} onRetry={() => void query.refetch()} />
        ) : (
          <Loading />
        )}
      </div>
    );
  }

  return (
    <div className={styles.section}>
      {back}
      <section className={styles.section} aria-labelledby={headingId}>
        <div>
          <h2 id={headingId} className={styles.sectionTitle}>
            {user.name || user.email}
          </h2>
          <dl className={`${styles.facts} ${styles.lead}`}>
            <dt>{t('user.email')}</dt>
            <dd className={styles.email}>{user.email}</dd>
            <dt>{t('user.id')}</dt>
            <dd>{user.id}</dd>
            <dt>{t('user.role')}</dt>
            <dd>{t(`roles.${user.role}`)}</dd>
            <dt>{t('user.created')}</dt>
            <dd>{format.dateTime(user.created_at)}</dd>
          </dl>
        </div>
        <dl className={styles.summary}>
          <div className={styles.summaryItem}>
            <dt>{t('accounts.balance')}</dt>
            <dd>{format.money(user.balance)}</dd>
          </div>
          <div className={styles.summaryItem}>
            <dt>{t('accounts.balance_partner')}</dt>
            <dd>{format.money(user.balance_partner)}</dd>
          </div>
        </dl>
      </section>
      {/* keyed: another user gets a fresh form, intent and ledger */}
      {mayOpen('billing') ? (
        <>
          <AdjustBalanceForm key={`adjust-${user.id}`} user={user} />
          <PartnerSection key={`partner-${user.id}`} userId={user.id} />
          <LedgerTable key={`ledger-${user.id}`} userId={user.id} />
        </>
      ) : null}
      {mayOpen('admin') ? <UserRolesSection key={`roles-${user.id}`} user={user} /> : null}
    </div>
  );
}
