import {
  adminPartnerNetworkQuerySchema,
  adminPartnerNetworkResponseSchema,
  adminPartnerSummarySchema,
  centsToDollars,
  idParamsSchema,
  PARTNER_SUMMARY_REWARDS,
  type AdminPartnerNetworkResponse,
  type AdminPartnerReward,
  type AdminPartnerSummary,
  DAY_MS,
} from '@tradehost/contracts';
import { desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Executor } from '../../db/client.ts';
import { partnerRewards, users } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { operatorArea } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import type { ServiceDeps } from '../deps.ts';
import { createPartnerService } from './partner.service.ts';

const referrer = alias(users, 'referrer');

/** The user (404 unknown) and their level-1 referrer. */
async function personOf(db: Executor, userId: number) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      referrer: { id: referrer.id, email: referrer.email, name: referrer.name },
    })
    .from(users)
    .leftJoin(referrer, eq(referrer.id, users.referrerId))
    .where(eq(users.id, userId));
  if (!row) throw new AppError(404, 'NOT_FOUND');
  const { referrer: ref, ...user } = row;
  return { user, referrer: ref?.id ? ref : null };
}

/** The partner's latest rewards, newest first, each with the referral who paid. */
async function latestRewards(
  db: Executor,
  partnerId: number,
  holdDays: number,
): Promise<AdminPartnerReward[]> {
  const rows = await db
    .select({
      reward: partnerRewards,
      from: { id: users.id, email: users.email, name: users.name },
    })
    .from(partnerRewards)
    .innerJoin(users, eq(users.id, partnerRewards.referralId))
    .where(eq(partnerRewards.partnerId, partnerId))
    .orderBy(desc(partnerRewards.createdAt), desc(partnerRewards.id))
    .limit(PARTNER_SUMMARY_REWARDS);
  return rows.map(({ reward, from }) => {
    const availableAt =
      reward.status === 'available'
        ? reward.settledAt
        : reward.status === 'pending'
          ? new Date(reward.createdAt.getTime() + holdDays * DAY_MS)
          : null;
    return {
      id: reward.id,
      charge_id: reward.chargeId,
      level: reward.level,
      from_user: from,
      base: centsToDollars(reward.baseCents),
      percent: reward.percentBp / 100,
      amount: centsToDollars(reward.amountCents),
      status: reward.status,
      created_at: reward.createdAt.toISOString(),
      available_at: availableAt ? availableAt.toISOString() : null,
    };
  });
}

/**
 * One user's figures in the partner programme for the operator: the code, the referrer, the
 * balances and the levels as the partner's own /user/partner_info and /user/partner/levels
 * compute them, and the latest rewards.
 */
export function createPartnerSummary(deps: Pick<ServiceDeps, 'db' | 'config' | 'now'>) {
  const partner = createPartnerService(deps);
  return {
    async summary(userId: number): Promise<AdminPartnerSummary> {
      const { user, referrer } = await personOf(deps.db, userId);
      const [info, levels, rewards] = await Promise.all([
        partner.figures(userId),
        partner.levels(userId),
        latestRewards(deps.db, userId, deps.config.partner.holdDays),
      ]);
      return {
        user,
        referral_code: info.referral_code,
        link: info.link,
        referrer,
        active_referrals: [
          info.level_1_referral_active_count,
          info.level_2_referral_active_count,
          info.level_3_referral_active_count,
        ],
        balances: info.balances,
        hold_days: info.hold_days,
        levels: levels.data,
        rewards,
      };
    },

    /**
     * A page of the user's network as the operator reads it: their first-level referrals, newest
     * first, or with `search` the matches on all three levels; e-mails unmasked.
     */
    async network(
      userId: number,
      query: { search?: string | undefined; page: number; per_page: number },
    ): Promise<AdminPartnerNetworkResponse> {
      const page = await partner.network(
        userId,
        { search: query.search, page: query.page, per_page: query.per_page },
        { mask: false },
      );
      // someone's referrals tell that they exist; with none, whether there is such a user
      if (page.meta.total === 0) await personOf(deps.db, userId);
      return page;
    },
  };
}

export type PartnerSummary = ReturnType<typeof createPartnerSummary>;

/**
 * GET /api/admin/partner/users/:id and its /network, on the operator routes' plugin (role
 * billing).
 */
export function partnerSummaryRoute(
  app: FastifyInstance,
  summary: PartnerSummary,
  { forRoles, security, tags }: Omit<ReturnType<typeof operatorArea>, 'adminId'>,
) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/admin/partner/users/:id',
    {
      config: forRoles('billing'),
      schema: {
        tags,
        summary:
          "A user's partner figures: code, referrer, balances, levels and the latest 20 rewards",
        security,
        params: idParamsSchema,
        response: { 200: adminPartnerSummarySchema, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => summary.summary(request.params.id),
  );

  app.withTypeProvider<ZodTypeProvider>().get(
    '/admin/partner/users/:id/network',
    {
      config: forRoles('billing'),
      schema: {
        tags,
        summary:
          "A user's referrals, e-mails unmasked: level 1 newest first, or a search of all 3 levels",
        security,
        params: idParamsSchema,
        querystring: adminPartnerNetworkQuerySchema,
        response: {
          200: adminPartnerNetworkResponseSchema,
          ...errorResponses(400, 401, 403, 404, 422, 429),
        },
      },
    },
    async (request) => summary.network(request.params.id, request.query),
  );
}
