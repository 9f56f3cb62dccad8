import { centsToDollars, type AdminUser, type User } from '@tradehost/contracts';
import type { Executor } from './client.ts';
import { operatorRepository } from './operators.ts';
import type { UserRow } from './schema/index.ts';

/** The signed-in user as GET /api/user/auth shows them, with their operator roles. */
export async function toUserResponse(db: Executor, row: UserRow): Promise<User> {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    email: row.email,
    name: row.name,
    language: row.language,
    role: row.role,
    operator_roles: await operatorRepository.rolesOfRow(db, row),
    email_verified_at: row.emailVerifiedAt?.toISOString() ?? null,
    referral_code: row.referralCode,
    photo_path: row.photoPath,
    telegram_link: row.telegramLink,
    telegram_mon_link: row.telegramMonLink,
    balance: centsToDollars(row.balanceCents),
    balance_partner: centsToDollars(row.balancePartnerCents),
  };
}

/** A user as the operator area shows them. */
export function toAdminUser(row: UserRow): AdminUser {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    email: row.email,
    name: row.name,
    role: row.role,
    balance: centsToDollars(row.balanceCents),
    balance_partner: centsToDollars(row.balancePartnerCents),
  };
}
