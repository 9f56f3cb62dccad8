import { DEFAULT_PERMISSIONS, type Permissions } from '@tradehost/contracts';

/**
 * The available-pages flags from GET /front/permissions: each flag that is missing or not a
 * boolean is true (SPEC section 6), and so is everything when the call failed (`undefined`).
 */
export function toPermissions(body: unknown): Permissions {
  const flags = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  return {
    partner: typeof flags.partner === 'boolean' ? flags.partner : DEFAULT_PERMISSIONS.partner,
    monitoring:
      typeof flags.monitoring === 'boolean' ? flags.monitoring : DEFAULT_PERMISSIONS.monitoring,
  };
}
