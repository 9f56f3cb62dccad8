import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet } from 'react-router';
import { useGetUserQuery } from '../../features/auth/api/auth-api';
import { Page } from '../../shared/ui/page/page';
import { FullScreenSpinner } from '../../shared/ui/spinner/spinner';
import { ErrorState } from '../../shared/ui/states/states';

/**
 * The operator area's pages for an admin (the user's role, which the API gives anyone holding an
 * operator role; the area's layout then shows the sections of their operator roles), else back
 * to the start. While the user loads, the spinner. The pages are React.lazy components
 * (router.tsx), so their code is fetched only once this has let an admin through. The role known,
 * a failed refetch of the user changes nothing; when the user cannot be fetched at all (a rate
 * limit, the server down), the reader is told so with a way to try again, not sent away from the
 * page they asked for.
 */
export function RequireAdmin() {
  const { t } = useTranslation('common');
  const { data: user, isError, refetch } = useGetUserQuery();
  if (user?.role === 'admin') {
    return (
      <Suspense fallback={<FullScreenSpinner />}>
        <Outlet />
      </Suspense>
    );
  }
  if (user) return <Navigate to="/" replace />;
  if (isError) {
    return (
      <Page title={t('operatorAccess.title')}>
        <ErrorState
          title={t('operatorAccess.failed')}
          retryLabel={t('operatorAccess.retry')}
          onRetry={() => void refetch()}
        />
      </Page>
    );
  }
  return <FullScreenSpinner />;
}
