import fp from 'fastify-plugin';
import helmet from 'helmet';

/**
 * Helmet's headers with a CSP fitted to the console: everything from our own
 * origin, inline styles (React style props, Radix), images from data:/blob:
 * (avatars previews). /api/docs sets its own, looser CSP (plugins/docs.ts).
 *
 * Helmet's middleware is built once here and applied to each request: built
 * per request (as @fastify/helmet does), parsing the CSP cost more than a
 * publisher's whole snapshot call.
 */
export const securityPlugin = fp(
  async (app, { publicUrl, formTargets = [] }: { publicUrl: string; formTargets?: string[] }) => {
    const https = publicUrl.startsWith('https:');
    const headers = helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          styleSrc: ["'self'", "'unsafe-inline'"],
          scriptSrc: ["'self'"],
          connectSrc: ["'self'"],
          // the console posts the payment form to a hosted gateway's page (Payeer)
          formAction: ["'self'", ...formTargets],
          // on plain http (local development, a LAN address) upgrading would break every asset
          upgradeInsecureRequests: https ? [] : null,
        },
      },
      strictTransportSecurity: https ? undefined : false,
    });
    app.addHook('onRequest', (request, reply, done) => {
      headers(request.raw, reply.raw, () => done());
    });
  },
  { name: 'tradehost-security' },
);
