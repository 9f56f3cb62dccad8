import websocket from '@fastify/websocket';
import {
  consoleSocketQuerySchema,
  consoleTicketSchema,
  idParamsSchema,
} from '@tradehost/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.ts';
import { AppError } from '../../lib/errors.ts';
import { currentUser } from '../../plugins/auth.ts';
import { errorResponses } from '../../plugins/error-handler.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import type { ConsoleService, TakenTicket } from './vps.console.ts';

/** The most a browser's WebSocket message may carry (a key event is 8 bytes, a paste more). */
const MESSAGE_MAX = 1024 * 1024;

/**
 * /api/user/vps/servers/{id}/console: the web console's ticket, and the WebSocket it opens
 * (vps.console.ts). The socket's request is checked and the ticket spent before the upgrade, so
 * every refusal is an ordinary JSON error answer; only a good ticket is upgraded.
 */
export async function vpsConsoleRoutes(
  app: FastifyInstance,
  { consoles, config }: { consoles: ConsoleService; config: Config },
) {
  await app.register(websocket, { options: { maxPayload: MESSAGE_MAX } });
  // @fastify/websocket hides its routes from the API's document; the socket's refusals are the
  // API's own JSON answers, so it is documented like any route (after the plugin's own hook)
  app.addHook('onRoute', (route) => {
    if (route.websocket && route.schema) route.schema.hide = false;
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['vps'];

  r.post(
    '/user/vps/servers/:id/console',
    {
      config: { ...perMinute(config.rateLimitUserMax), auth: 'required' as const },
      schema: {
        tags,
        summary:
          "A ticket for the server's web console (running servers only): one WebSocket to .../console/socket?ticket= within 30 seconds",
        security: [{ bearer: [] }],
        params: idParamsSchema,
        response: { 201: consoleTicketSchema, ...errorResponses(401, 404, 409, 422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await consoles.issue(currentUser(request).id, request.params.id)),
  );

  /** The ticket each upgraded request took, for its socket's handler. */
  const taken = new WeakMap<FastifyRequest, TakenTicket>();
  r.get(
    '/user/vps/servers/:id/console/socket',
    {
      websocket: true,
      // no bearer token (a browser's WebSocket cannot send one): the ticket signs the socket in
      config: perMinute(config.rateLimitUserMax),
      schema: {
        tags,
        summary:
          "The server's web console: a WebSocket (RFB 3.8, security None) opened with a console ticket; refusals come before the upgrade",
        params: idParamsSchema,
        querystring: consoleSocketQuerySchema,
        response: errorResponses(400, 403, 404, 409, 422, 429),
      },
      preHandler: async (request) => {
        // a plain GET would spend the ticket on nothing
        if (request.headers.upgrade?.toLowerCase() !== 'websocket')
          throw new AppError(400, 'BAD_REQUEST');
        taken.set(request, await consoles.take(request.params.id, request.query.ticket));
      },
    },
    (socket, request) => consoles.relay(socket, taken.get(request)!),
  );
}
