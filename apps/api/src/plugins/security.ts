import fp from 'fastify-plugin';
import helmet from 'helmet';

/**
 * Helmet's headers with a CSP fitted to the console: everything from our own
 * origin, inline styles (React style props, Radix), images from data:/blob:
 * (avatars previews). /api/docs sets its own, looser CSP (plugins/docs.ts).
 *
 * Helmet's middleware is built once here and its headers recorded once: built
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
    // helmet's headers are the same for every request: what it sets (and removes) is recorded
    // once and replayed, without its dozen middlewares per request
    const set: [string, string | number | readonly string[]][] = [];
    const removed: string[] = [];
    const recorder = {
      setHeader: (name: string, value: string | number | readonly string[]) => {
        set.push([name, value]);
        return recorder;
      },
      removeHeader: (name: string) => {
        removed.push(name);
      },
    };
    headers(
      {} as Parameters<typeof headers>[0],
      recorder as unknown as Parameters<typeof headers>[1],
      () => {},
    );
    app.addHook('onRequest', (_request, reply, done) => {
      const raw = reply.raw;
      for (const name of removed) raw.removeHeader(name);
      for (const [name, value] of set) raw.setHeader(name, value);
      done();
    });
  },
  { name: 'tradehost-security' },
);
