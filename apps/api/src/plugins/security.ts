import fp from 'fastify-plugin';
import helmet from 'helmet';

/** Whether `url` (a request's, with its query) is the API's: /api and below. */
const isApiPath = (url: string) => /^\/api(?:[/?#]|$)/.test(url);

/**
 * The browser features the console never uses, switched off for it and anything it embeds, so an
 * injected script could not reach them either. Kept: passkeys (publickey-credentials-*), the
 * clipboard the copy buttons write, fullscreen; their default is this origin alone.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer',
  'autoplay',
  'bluetooth',
  'browsing-topics',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

/**
 * Helmet's headers with a CSP fitted to the console: everything from our own
 * origin, inline styles (React style props, Radix), images from data:/blob:
 * (avatars previews). /api/docs sets its own, looser CSP (plugins/docs.ts).
 *
 * Helmet's middleware is built once here and its headers recorded once: built
 * per request (as @fastify/helmet does), parsing the CSP cost more than a
 * publisher's whole snapshot call.
 *
 * With them `Permissions-Policy`, and `Cache-Control: no-store` on every /api answer whose route sets no Cache-Control.
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
    set.push(['permissions-policy', PERMISSIONS_POLICY]);
    app.addHook('onRequest', (_request, reply, done) => {
      const raw = reply.raw;
      for (const name of removed) raw.removeHeader(name);
      for (const [name, value] of set) raw.setHeader(name, value);
      done();
    });
    // an API answer is someone's own data (a token, a key, a balance) unless its route says it is
    // not: no browser or proxy keeps it. The public, cacheable ones set their own Cache-Control
    // (avatars, the live stream) and keep it, as do the console's files outside /api.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (isApiPath(request.url) && !reply.hasHeader('cache-control'))
        reply.header('cache-control', 'no-store');
      done(null, payload);
    });
  },
  { name: 'tradehost-security' },
);
