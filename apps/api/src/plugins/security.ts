import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

/**
 * Helmet's headers with a CSP fitted to the console: everything from our own
 * origin, inline styles (React style props, Radix), images from data:/blob:
 * (avatars previews). /api/docs sets its own, looser CSP (plugins/docs.ts).
 */
export const securityPlugin = fp(
  async (app, { publicUrl, formTargets = [] }: { publicUrl: string; formTargets?: string[] }) => {
    const https = publicUrl.startsWith('https:');
    await app.register(helmet, {
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
  },
  { name: 'tradehost-security' },
);
