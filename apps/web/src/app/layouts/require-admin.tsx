import { Suspense } from 'react';
import { Navigate, Outlet } from 'react-router';
import { useGetUserQuery } from '../../features/auth/api/auth-api';
import { FullScreenSpinner } from '../../shared/ui/spinner/spinner';

/**
 * The operator area's pages for an admin (the user's role), else back to the start. While the
 * user loads, the spinner. The pages are React.lazy components (router.tsx), so their code is
 * fetched only once this has let an admin through.
 */
export function RequireAdmin() {
  const { data: user, isError } = useGetUserQuery();
  if (!isError && user?.role === 'admin') {
    return (
      <Suspense fallback={<FullScreenSpinner />}>
        <Outlet />
      </Suspense>
    );
  }
  return isError || user ? <Navigate to="/" replace /> : <FullScreenSpinner />;
}
