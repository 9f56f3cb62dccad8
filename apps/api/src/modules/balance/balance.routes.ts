import {
  chargesPageSchema,
  cryptoPaymentRequestSchema,
  cryptoTopUpRequestSchema,
  cryptoTopUpResponseSchema,
  cryptoTopUpsResponseSchema,
  cryptoWalletQuerySchema,
  cryptoWalletResponseSchema,
  depositRequestSchema,
  depositResponseSchema,
  HISTORY_KINDS,
  historyQuerySchema,
  idParamsSchema,
  paymentMethodsResponseSchema,
  paymentResponseSchema,
  paymentsPageSchema,
  transferPreviewResponseSchema,
  transferRequestSchema,
  transferResponseSchema,
  transfersPageSchema,
  withdrawalsPageSchema,
  type HistoryKind,
} from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type * as z from 'zod/mini';
import type { Config } from '../../config.ts';
import { currentUser } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import { idempotencyHeaders, type Idempotency } from '../../plugins/idempotency.ts';
import { transferFailure, type BalanceService } from './balance.service.ts';
import { recipientLookups } from './recipient-lookups.ts';

/** The transfer's body after validation: the amount in cents. */
type TransferRequestBody = z.output<typeof transferRequestSchema>;

const PAGE_SCHEMAS = {
  payments: paymentsPageSchema,
  transfers: transfersPageSchema,
  charges: chargesPageSchema,
  withdrawals: withdrawalsPageSchema,
} as const;

/** /api/user/balance/*: top-ups, transfers and the four histories. */
export async function balanceRoutes(
  app: FastifyInstance,
  {
    balance,
    idempotency,
    config,
  }: { balance: BalanceService; idempotency: Idempotency; config: Config },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const routeConfig = { ...perMinute(config.rateLimitUserMax), auth: 'required' as const };
  const security = [{ bearer: [] }];
  const tags = ['balance'];
  // unknown recipients named, per user: the answers that tell whether an e-mail has an account
  const lookups = recipientLookups(app);

  r.get(
    '/user/balance/methods',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'The top-up methods with their minimum and maximum (dollars)',
        security,
        response: { 200: paymentMethodsResponseSchema, ...errorResponses(401, 429) },
      },
    },
    async () => balance.methods(),
  );

  r.post(
    '/user/balance/deposit',
    {
      config: routeConfig,
      schema: {
        tags,
        summary:
          'Top up by card or e-wallet (a payment and the gateway form) or move the partner balance in',
        security,
        headers: idempotencyHeaders,
        body: depositRequestSchema,
        response: { 201: depositResponseSchema, ...errorResponses(400, 401, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      return idempotency.respond(request, reply, (tx, userId) =>
        balance.deposit(tx, userId, request.body),
      );
    },
  );

  r.get(
    '/user/balance/crypto-wallet',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: "The provider's wallet address of a network, with its QR code",
        security,
        querystring: cryptoWalletQuerySchema,
        response: { 200: cryptoWalletResponseSchema, ...errorResponses(401, 422, 429) },
      },
    },
    async (request) => balance.cryptoWallet(request.query.network),
  );

  r.post(
    '/user/balance/crypto-request',
    {
      config: routeConfig,
      schema: {
        tags,
        summary:
          'Open a crypto top-up: the exact amount to send (unique among open requests, 24 hours), the wallet and its QR code',
        security,
        headers: idempotencyHeaders,
        body: cryptoTopUpRequestSchema,
        response: { 201: cryptoTopUpResponseSchema, ...errorResponses(400, 401, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      // BTC: the price is read before the request's transaction, no connection held over it
      const price = await balance.crypto.price(request.body.network);
      return idempotency.respond(request, reply, (tx, userId) =>
        balance.requestCrypto(tx, userId, request.body, price),
      );
    },
  );

  r.get(
    '/user/balance/crypto-requests',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: "The reader's crypto top-ups still to be paid and reported, newest first",
        security,
        response: { 200: cryptoTopUpsResponseSchema, ...errorResponses(401, 429) },
      },
    },
    async (request) => balance.crypto.open(currentUser(request).id),
  );

  r.post(
    '/user/balance/crypto',
    {
      config: routeConfig,
      schema: {
        tags,
        summary:
          "Report a crypto top-up's payment (the payer's wallet and the TXID): checked on the chain, or by an operator",
        security,
        headers: idempotencyHeaders,
        body: cryptoPaymentRequestSchema,
        response: { 201: paymentResponseSchema, ...errorResponses(400, 401, 404, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      // the explorer is asked before the report's transaction, no connection held over it
      const look = await balance.crypto.look(currentUser(request).id, request.body);
      return idempotency.respond(
        request,
        reply,
        (tx, userId) => balance.crypto.report(tx, userId, request.body, look),
        (outcome) => balance.crypto.reported(outcome),
      );
    },
  );

  r.get(
    '/user/balance/payments/:id',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: "One of the reader's payments (the status page after the gateway)",
        security,
        params: idParamsSchema,
        response: { 200: paymentResponseSchema, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => balance.payment(currentUser(request).id, request.params.id),
  );

  r.post(
    '/user/balance/transfer/preview',
    {
      config: routeConfig,
      schema: {
        tags,
        summary: 'Check a transfer and name its recipient (the confirmation step); nothing moves',
        security,
        body: transferRequestSchema,
        response: { 200: transferPreviewResponseSchema, ...errorResponses(401, 422, 429) },
      },
    },
    async (request, reply) => {
      lookups.check(request, reply);
      try {
        return await balance.previewTransfer(currentUser(request).id, request.body);
      } catch (error) {
        throw await lookups.counted(request, reply, error);
      }
    },
  );

  r.post(
    '/user/balance/transfer',
    {
      config: {
        ...routeConfig,
        // a transfer above STEP_UP_TRANSFER_ABOVE needs a fresh proof of the owner
        stepUp: (request) =>
          (request.body as TransferRequestBody).amount > config.stepUpTransferAboveCents,
      },
      schema: {
        tags,
        summary:
          'Transfer money to another user by e-mail; above STEP_UP_TRANSFER_ABOVE (default $500) it needs a fresh proof (403 STEP_UP_REQUIRED)',
        security,
        headers: idempotencyHeaders,
        body: transferRequestSchema,
        response: {
          201: transferResponseSchema,
          ...errorResponses(400, 401, 403, 409, 422, 429, 503),
        },
      },
    },
    async (request, reply) => {
      lookups.check(request, reply);
      try {
        return await idempotency.respondInOne(
          request,
          reply,
          (userId) => balance.transfer(userId, request.body),
          // live updates and the recipient's notice once, after the commit: not on a replay
          (facts) => balance.transferred(facts),
        );
      } catch (error) {
        throw await lookups.counted(request, reply, transferFailure(error));
      }
    },
  );

  for (const kind of HISTORY_KINDS) {
    r.get(
      `/user/balance/history/${kind}`,
      {
        config: routeConfig,
        schema: {
          tags,
          summary: `The ${kind} history of a period, a page at a time`,
          security,
          querystring: historyQuerySchema,
          response: { 200: PAGE_SCHEMAS[kind], ...errorResponses(401, 422, 429) },
        },
      },
      async (request) => balance.history(kind, currentUser(request).id, request.query) as never,
    );

    r.get(
      `/user/balance/history/${kind}.csv`,
      {
        config: routeConfig,
        schema: {
          tags,
          summary: `The ${kind} history of a period as a CSV file`,
          security,
          querystring: historyQuerySchema,
          produces: ['text/csv'],
        },
      },
      async (request, reply) => {
        const csv = await balance.csv(kind as HistoryKind, currentUser(request).id, request.query);
        const day = new Date().toISOString().slice(0, 10);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${kind}-${day}.csv"`)
          .header('cache-control', 'no-store')
          .send(csv);
      },
    );
  }
}
