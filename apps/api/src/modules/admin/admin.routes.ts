import {
  adminUserResponseSchema,
  adminUsersPageSchema,
  adminUsersQuerySchema,
  auditPageSchema,
  auditQuerySchema,
  grantRoleRequestSchema,
  idParamsSchema,
  ledgerPageSchema,
  ledgerQuerySchema,
  operatorResponseSchema,
  operatorRoleParamsSchema,
  operatorsResponseSchema,
} from '@tradehost/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import { operatorArea } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import type { AdminService } from './admin.service.ts';
import type { OperatorsService } from './operators.service.ts';

/**
 * The operator area's own routes: the users (every operator), a user's ledger (billing), the
 * audit and the operators' roles (admin). Each route names the roles that may call it (config.operatorRoles, checked in
 * plugins/auth.ts on every call, before validation); admin may call them all.
 */
export async function adminRoutes(
  app: FastifyInstance,
  {
    admin,
    operators,
    config,
  }: { admin: AdminService; operators: OperatorsService; config: Config },
) {
  const { forRoles, security, tags, adminId } = operatorArea(config.rateLimitUserMax);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/admin/users',
    {
      config: forRoles('support', 'billing', 'vps', 'monitoring'),
      schema: {
        tags,
        summary: 'Users by e-mail or name, with their balances',
        security,
        querystring: adminUsersQuerySchema,
        response: { 200: adminUsersPageSchema, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => admin.users(request.query),
  );

  r.get(
    '/admin/users/:id',
    {
      config: forRoles('support', 'billing', 'vps', 'monitoring'),
      schema: {
        tags,
        summary: 'A user with their balances',
        security,
        params: idParamsSchema,
        response: { 200: adminUserResponseSchema, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => admin.user(request.params.id),
  );

  r.get(
    '/admin/users/:id/ledger',
    {
      config: forRoles('billing'),
      schema: {
        tags,
        summary: "A user's ledger entries, newest first",
        security,
        params: idParamsSchema,
        querystring: ledgerQuerySchema,
        response: { 200: ledgerPageSchema, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request) => admin.ledger(request.params.id, request.query.page, request.query.per_page),
  );

  r.get(
    '/admin/audit',
    {
      config: forRoles('admin'),
      schema: {
        tags,
        summary: 'The audit log of operator actions and refused notifications, newest first',
        security,
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema, ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => admin.audit(request.query.page, request.query.per_page),
  );

  r.get(
    '/admin/operators',
    {
      config: forRoles('admin'),
      schema: {
        tags,
        summary:
          'Every operator: their roles (who granted each, when) and whether a second factor is on',
        security,
        response: { 200: operatorsResponseSchema, ...errorResponses(401, 403, 429) },
      },
    },
    async () => operators.list(),
  );

  r.post(
    '/admin/operators/:id/roles',
    {
      config: { ...forRoles('admin'), stepUp: true },
      schema: {
        tags,
        summary:
          'Give a user an operator role (step-up; audited; unchanged when already held). Without a second factor the user cannot use it yet',
        security,
        params: idParamsSchema,
        body: grantRoleRequestSchema,
        response: { 200: operatorResponseSchema, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request) =>
      operators.grant({ adminId: adminId(request) }, request.params.id, request.body.role),
  );

  r.delete(
    '/admin/operators/:id/roles/:role',
    {
      config: { ...forRoles('admin'), stepUp: true },
      schema: {
        tags,
        summary:
          "Take an operator's role away, at once (step-up; audited). The last admin role stays: 409 OPERATOR_LAST_ADMIN",
        security,
        params: operatorRoleParamsSchema,
        response: { 200: operatorResponseSchema, ...errorResponses(401, 403, 404, 409, 422, 429) },
      },
    },
    async (request) =>
      operators.revoke({ adminId: adminId(request) }, request.params.id, request.params.role),
  );
}
