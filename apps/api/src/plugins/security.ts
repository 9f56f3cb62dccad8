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
 * With them `Permissions-Policy`, and `Cache-Control: no-store` on every /api answer whose route
 * sets no Cache-Control of its own.
 *
 * They are the same for every answer, so they are worked out once: Helmet's middleware is run
 * once against a recorder (built per request, as @fastify/helmet does, parsing the CSP cost more
 * than a publisher's whole snapshot call), and each request is given the result as Fastify reply
 * headers. Fastify then hands them to Node in one `writeHead`, which checks each once; set on the
 * raw response instead, every one of them was checked and stored twice.
 */
export const securityPlugin = fp(
  async (app, { publicUrl, formTargets = [] }: { publicUrl: string; formTargets?: string[] }) => {
    const https = publicUrl.startsWith('https:');
    const middleware = helmet({
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
    const pageHeaders = recordHeaders(middleware);
    pageHeaders['permissions-policy'] = PERMISSIONS_POLICY;
    // an API answer is someone's own data (a token, a key, a balance) unless its route says it is
    // not: no browser or proxy keeps it. The public, cacheable ones set their own Cache-Control
    // (avatars, the live stream), which replaces this one, as do the console's files outside /api.
    const apiHeaders = { ...pageHeaders, 'cache-control': 'no-store' };
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(isApiPath(request.url) ? apiHeaders : pageHeaders);
      done();
    });
  },
  { name: 'tradehost-security' },
);

/**
 * The headers Helmet's `middleware` sets, by lower-case name. What it removes (X-Powered-By) is
 * never sent by Fastify, so there is nothing to remove.
 */
function recordHeaders(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = [value].flat().join(', ');
      return recorder;
    },
    removeHeader: () => {},
  };
  middleware(
    {} as Parameters<typeof middleware>[0],
    recorder as unknown as Parameters<typeof middleware>[1],
    () => {},
  );
  return headers;
}
