import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export const DOCS_PREFIX = '/api/docs';

/**
 * OpenAPI 3 from the routes' zod schemas (`app.swagger()`); with `ui`, served: the UI at /api/docs,
 * the document at /api/docs/json. Production serves them only with DOCS_PUBLIC=true: the document
 * maps every route, the operators' too, for whoever asks.
 */
export const docsPlugin = fp(
  async (app, { publicUrl, ui }: { publicUrl: string; ui: boolean }) => {
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
    if (!ui) return;
    await app.register(swaggerUi, {
      routePrefix: DOCS_PREFIX,
      // the UI needs inline scripts/styles: its own CSP, on its routes only
      staticCSP: true,
      transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, ''),
    });
  },
  { name: 'tradehost-docs' },
);
