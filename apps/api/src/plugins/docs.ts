import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export const DOCS_PREFIX = '/api/docs';

/** OpenAPI 3 from the routes' zod schemas: UI at /api/docs, document at /api/docs/json. */
export const docsPlugin = fp(
  async (app, { publicUrl }: { publicUrl: string }) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'TradeHost API',
          description:
            'The API of the TradeHost client area. Errors are `{ message, code, errors? }`: `message` is the English text, `code` a stable key, `errors` maps a field to its texts.',
          version: '1.0.0',
        },
        servers: [{ url: publicUrl }],
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
            // the publisher's credential on /api/ingest/v1/*
            activationKey: { type: 'http', scheme: 'bearer', bearerFormat: 'activation key' },
          },
        },
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, {
      routePrefix: DOCS_PREFIX,
      // the UI needs inline scripts/styles: its own CSP, on its routes only
      staticCSP: true,
      transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, ''),
    });
  },
  { name: 'tradehost-docs' },
);
