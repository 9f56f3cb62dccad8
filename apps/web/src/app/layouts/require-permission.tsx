import { DEFAULT_PERMISSIONS, type Permissions } from '@tradehost/contracts';
import { Navigate, Outlet } from 'react-router';
import { useGetPermissionsQuery } from '../../features/auth/api/auth-api';

/** The section's pages when its flag allows them (true while the flags load), else back to the start. */
export function RequirePermission({ flag }: { flag: keyof Permissions }) {
  const { data: permissions = DEFAULT_PERMISSIONS } = useGetPermissionsQuery();
  return permissions[flag] ? <Outlet /> : <Navigate to="/" replace />;
}
