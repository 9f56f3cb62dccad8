import type { Permissions, Role } from '@tradehost/contracts';

/** A link of the main navigation; `label` is a key of the common namespace. */
export interface NavItem {
  to: string;
  label: string;
  /** A count shown beside the label (Support: tickets with new replies); none when 0. */
  badge?: number;
}

/**
 * The signed-in navigation of SPEC section 2: Monitoring and Partners follow the permissions;
 * Operator shows for the admin role only (reading the role loads nothing of the operator area).
 */
export function signedInNavItems(permissions: Permissions, role: Role | undefined): NavItem[] {
  return [
    { to: '/vps', label: 'nav.vps' },
    ...(permissions.monitoring ? [{ to: '/online-monitoring', label: 'nav.monitoring' }] : []),
    ...(permissions.partner ? [{ to: '/partner-program', label: 'nav.partners' }] : []),
    { to: '/balance-operations', label: 'nav.balance' },
    { to: '/support', label: 'nav.support' },
    { to: '/faq', label: 'nav.faq' },
    ...(role === 'admin' ? [{ to: '/operator', label: 'nav.operator' }] : []),
  ];
}
