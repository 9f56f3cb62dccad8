import {
  availableDiscountSchema,
  createPromocodeResponseSchema,
  createPromocodeSchema,
  createWithdrawalResponseSchema,
  createWithdrawalSchema,
  partnerInfoDataSchema,
  partnerInfoSchema,
  partnerLevelsResponseSchema,
  partnerNetworkQuerySchema,
  partnerNetworkResponseSchema,
  messageResponseSchema,
  partnerPaymentsSchema,
  partnerPeriodSchema,
  partnerPromocodesSchema,
} from '@tradehost/contracts';
import * as z from 'zod/mini';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import { currentUser } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import { idempotencyHeaders, type Idempotency } from '../../plugins/idempotency.ts';
import type { Promocodes } from './partner.promocodes.ts';
import type { PartnerService } from './partner.service.ts';
import type { Withdrawals } from './partner.withdrawals.ts';

/**
 * /api/user/partner*: the partner's code and balances, levels, statistics, network and
 * withdrawals; and the partner's promocodes, which SPEC 7 names under /api/user/balance.
 */
export async function partnerRoutes(
  app: FastifyInstance,
  {
    partner,
    withdrawals,
    promocodes,
    idempotency,
    config,
  }: {
    partner: PartnerService;
    withdrawals: Withdrawals;
    promocodes: Promocodes;
    idempotency: Idempotency;
    config: Config;
  },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const route = { config: { ...perMinute(config.rateLimitUserMax), auth: 'required' as const } };
  const security = [{ bearer: [] }];
  const tags = ['partner'];

  r.get(
    '/user/partner_info',
    {
      ...route,
      schema: {
        tags,
        summary:
          'The partner code and link, active referrals per level, balances, minimum withdrawal',
        security,
        response: { 200: partnerInfoSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => partner.info(currentUser(request).id),
  );

  r.get(
    '/user/partner/levels',
    {
      ...route,
      schema: {
        tags,
        summary: 'Per level: its percentage, referrals, the turnover rewarded and the rewards',
        security,
        response: { 200: partnerLevelsResponseSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => partner.levels(currentUser(request).id),
  );

  r.post(
    '/user/partner/infodata',
    {
      ...route,
      schema: {
        tags,
        summary: 'Statistics of a period: rewards by day, clicks to paying clients by day, totals',
        security,
        body: partnerPeriodSchema,
        response: { 200: partnerInfoDataSchema, ...errorResponses(400, 401, 422, 429) },
      },
    },
    async (request) => partner.infoData(currentUser(request).id, request.body),
  );

  r.get(
    '/user/partner_network/',
    {
      ...route,
      schema: {
        tags,
        summary: "A page of the network: the partner's referrals or one referral's, or a search",
        security,
        querystring: partnerNetworkQuerySchema,
        response: { 200: partnerNetworkResponseSchema, ...errorResponses(400, 401, 404, 422, 429) },
      },
    },
    async (request) => partner.network(currentUser(request).id, request.query),
  );

  r.get(
    '/user/partner/payments',
    {
      ...route,
      schema: {
        tags,
        summary:
          'The withdrawal methods with their minimums, the partner balance, the open request',
        security,
        response: { 200: partnerPaymentsSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => withdrawals.payments(currentUser(request).id),
  );

  r.post(
    '/user/partner/createwithdrawal',
    {
      // money leaves: a fresh proof of the owner first (403 STEP_UP_REQUIRED)
      config: { ...route.config, stepUp: true },
      schema: {
        tags,
        summary:
          'Request a withdrawal of the partner balance: one open request at a time (409), processed within 5 working days; needs a fresh proof (403 STEP_UP_REQUIRED)',
        security,
        headers: idempotencyHeaders,
        body: createWithdrawalSchema,
        response: {
          201: createWithdrawalResponseSchema,
          ...errorResponses(400, 401, 403, 409, 422, 429),
        },
      },
    },
    async (request, reply) =>
      idempotency.respond(
        request,
        reply,
        (tx, userId) => withdrawals.create(tx, userId, request.body),
        // the letter once, after the commit: not again for a replayed answer
        (outcome, userId) => withdrawals.tellReceived(userId, outcome.body.withdrawal),
      ),
  );

  // ---- the partner's promocodes (SPEC 7 names them under /user/balance) ----------------------

  r.get(
    '/user/balance/promocodes',
    {
      ...route,
      schema: {
        tags,
        summary: "The partner's promocodes (not deleted), with their uses; the list is in `data`",
        security,
        response: { 200: partnerPromocodesSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => promocodes.list(currentUser(request).id),
  );

  r.get(
    '/user/balance/available_discount',
    {
      ...route,
      schema: {
        tags,
        summary: "The discounts the partner's promocodes may give, by active referrals",
        security,
        response: { 200: availableDiscountSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => promocodes.available(currentUser(request).id),
  );

  r.post(
    '/user/balance/promocode',
    {
      ...route,
      schema: {
        tags,
        summary:
          'Create a promocode: a name (letters and digits) and one of the available discounts',
        security,
        body: createPromocodeSchema,
        response: { 201: createPromocodeResponseSchema, ...errorResponses(400, 401, 422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await promocodes.create(currentUser(request).id, request.body)),
  );

  r.delete(
    '/user/balance/promocode/:id',
    {
      ...route,
      schema: {
        tags,
        summary: 'Delete a promocode: it stops working, its history stays',
        security,
        params: z.object({ id: z.coerce.number().check(z.int(), z.positive()) }),
        response: { 200: messageResponseSchema, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => promocodes.remove(currentUser(request).id, request.params.id),
  );
}
