import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { perMinute } from '../../plugins/rate-limit.ts';
import {
  WIDGET_LANGS,
  WIDGET_SIZES,
  WIDGET_THEMES,
  cardCss,
  cardCsp,
  widgetCard,
  widgetPng,
  widgetSvg,
  widgetTag,
  type WidgetReads,
  type WidgetState,
} from './monitoring.widgets.ts';

/**
 * Cached by browsers and shared caches (a forum's image proxy) for 5 minutes, then served stale
 * for up to a day while revalidated in the background: a page with the widget shows at once,
 * and a revalidation is a 304 unless the statistics job has stored new figures (it does so
 * seconds after new deals, at most every 2 minutes while only snapshots come). A fresh copy
 * trails the account page by 5 minutes at most; an older one is shown once more while the new
 * one is fetched. The figures move slowly (a gain, a drawdown): not worth a request a view.
 */
export const WIDGET_CACHE = 'public, max-age=300, stale-while-revalidate=86400';
/** A private, missing or not yet computed account: soon asked again (it may be shared or ready). */
export const WIDGET_SHORT_CACHE = 'public, max-age=60';

/** Not the enum: any id (a forum's broken link too) gets the picture saying it is unavailable. */
const params = z.object({
  monitoringId: z
    .string()
    .describe('The public id of the account (as on its page, /online-monitoring/:monitoringId)'),
});

/** An unknown value falls back to the default: a mistyped option still shows a picture. */
const lang = z
  .enum(WIDGET_LANGS)
  .default('en')
  .catch('en')
  .describe('The language of the texts and numbers: en (default) or ru');
const theme = z.enum(WIDGET_THEMES);

const imageQuery = z.object({
  size: z
    .enum(Object.keys(WIDGET_SIZES) as ['banner', 'box'])
    .default('banner')
    .catch('banner')
    .describe('banner: 468×60 (default); box: 300×120'),
  lang,
  theme: theme.default('light').catch('light').describe('light (default) or dark'),
});

const cardQuery = z.object({
  lang,
  theme: theme
    .optional()
    .catch(undefined)
    .describe("light or dark; without it, the reader's system preference"),
});

const IMAGE_NOTE =
  'For a public account: its name, gain, maximal drawdown, a sparkline of the growth, the balance unless the owner hides money, "Verified by TradeHost" when the mark holds, and the date of the figures. ' +
  'A private, deleted or unknown account (or a malformed id) is 200 too, with a picture saying "This monitoring is private or no longer exists", cached 60 s; never 404, so a forum <img> shows it. ' +
  `Cache-Control: ${WIDGET_CACHE} (public figures); a strong ETag made of the stored figures' computed_at, the account's name, hide_money and is_public, the verification mark and the query: it changes when the statistics job stores new figures, and If-None-Match answers 304. Anyone may embed it (Cross-Origin-Resource-Policy: cross-origin).`;

/** Whether the client's copy (If-None-Match) is the one about to be sent. */
function fresh(request: FastifyRequest, etag: string): boolean {
  const match = request.headers['if-none-match'];
  if (match === undefined) return false;
  return match
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}

/**
 * Sends a widget with its caching headers, or 304. Text (SVG, HTML) is compressed here, per the
 * request's Accept-Encoding, so that each encoding has its own strong ETag (`-br`, `-gz`): the
 * API's compression plugin would send one tag for all of them. `render` runs only when the body
 * is sent.
 */
async function sendWidget(
  request: FastifyRequest,
  reply: FastifyReply,
  widget: {
    type: string;
    tag: string;
    state: WidgetState;
    render: () => Promise<string | Buffer>;
  },
) {
  const text = !widget.type.startsWith('image/png');
  const accept = request.headers['accept-encoding'];
  const encoding =
    text && accept ? (negotiate(accept, ['br', 'gzip']) as 'br' | 'gzip' | null) : null;
  const etag = `"${widget.tag}${encoding === 'br' ? '-br' : encoding === 'gzip' ? '-gz' : ''}"`;
  reply
    .header('cache-control', widget.state.kind === 'figures' ? WIDGET_CACHE : WIDGET_SHORT_CACHE)
    .header('etag', etag)
    // any site may show it (the security plugin's same-origin would have browsers refuse it)
    .header('cross-origin-resource-policy', 'cross-origin');
  if (text) reply.header('vary', 'Accept-Encoding');
  if (fresh(request, etag)) return reply.code(304).send();
  const body = await widget.render();
  let sent: string | Buffer = body;
  if (encoding === 'br')
    sent = brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: 4,
      },
    });
  else if (encoding === 'gzip') sent = gzipSync(body, { level: 6 });
  if (encoding) reply.header('content-encoding', encoding);
  return reply.code(200).type(widget.type).send(sent);
}

/**
 * /api/monitoring/:monitoringId/widget.svg, widget.png and card: an account's widgets for other
 * sites (monitoring.widgets.ts), signed out, from the figures the statistics job stored.
 */
export async function monitoringWidgetRoutes(
  app: FastifyInstance,
  { widgets, config }: { widgets: WidgetReads; config: Config },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const route = {
    config: perMinute(config.rateLimitUserMax),
    // compressed by sendWidget, each encoding with its own ETag
    compress: false as const,
  };
  const tags = ['monitoring (public)'];

  async function image(
    request: FastifyRequest,
    reply: FastifyReply,
    format: 'svg' | 'png',
    { monitoringId, options }: { monitoringId: string; options: z.infer<typeof imageQuery> },
  ) {
    const state = await widgets.state(monitoringId);
    const gains = () =>
      state.kind === 'figures' ? widgets.gains(state.account.id) : Promise.resolve([]);
    return sendWidget(request, reply, {
      type: format === 'svg' ? 'image/svg+xml; charset=utf-8' : 'image/png',
      tag: widgetTag(format, state, { ...options }),
      state,
      render: async () =>
        format === 'svg'
          ? widgetSvg(state, await gains(), options)
          : widgetPng(state, await gains(), options),
    });
  }

  r.get(
    '/monitoring/:monitoringId/widget.svg',
    {
      ...route,
      schema: {
        tags,
        summary:
          "A public account's widget image as SVG (?size=banner|box, ?lang=en|ru, ?theme=light|dark), for <img> on any site",
        description: `${IMAGE_NOTE} Embed ({site}: PUBLIC_URL, where the console and the API are): <a href="{site}/online-monitoring/{id}"><img src="{site}/api/monitoring/{id}/widget.svg" width="468" height="60" alt="…"></a>, or in BBCode [url={site}/online-monitoring/{id}][img]{site}/api/monitoring/{id}/widget.png[/img][/url] (forums often take only PNG).`,
        params,
        querystring: imageQuery,
        produces: ['image/svg+xml'],
      },
    },
    (request, reply) =>
      image(request, reply, 'svg', {
        monitoringId: request.params.monitoringId,
        options: request.query,
      }),
  );

  r.get(
    '/monitoring/:monitoringId/widget.png',
    {
      ...route,
      schema: {
        tags,
        summary:
          "A public account's widget image as PNG, the SVG's picture at its size (?size=banner 468×60 | box 300×120, ?lang=en|ru, ?theme=light|dark)",
        description: `${IMAGE_NOTE} The text is drawn as outlines: the picture needs no font on the server.`,
        params,
        querystring: imageQuery,
        produces: ['image/png'],
      },
    },
    (request, reply) =>
      image(request, reply, 'png', {
        monitoringId: request.params.monitoringId,
        options: request.query,
      }),
  );

  r.get(
    '/monitoring/:monitoringId/card',
    {
      ...route,
      schema: {
        tags,
        summary:
          "A public account's card for an <iframe> on any site (about 320×200): HTML without script (?lang=en|ru, ?theme=light|dark, else the reader's system preference)",
        description:
          'The same figures as the image with the sparkline, and a link "Open on TradeHost" to the public page (a new tab). The only route any site may frame: Content-Security-Policy with frame-ancestors * (and its own style sheet only: no script, no other resource), no X-Frame-Options; every other route keeps refusing frames. ' +
          'A private, deleted or unknown account is 200 with a card saying so. ' +
          `Cache-Control and ETag as the image's. Embed: <iframe src="{site}/api/monitoring/{id}/card" width="320" height="200" style="border:0" loading="lazy" title="…"></iframe> ({site}: PUBLIC_URL).`,
        params,
        querystring: cardQuery,
        produces: ['text/html'],
      },
    },
    async (request, reply) => {
      const options = request.query;
      const { monitoringId } = request.params;
      const state = await widgets.state(monitoringId);
      const publicPage = `${config.publicUrl.replace(/\/+$/, '')}/online-monitoring/${encodeURIComponent(monitoringId)}`;
      // the CSP allows the card's own style sheet (the theme's) by its hash
      reply
        .header('content-security-policy', cardCsp(cardCss(options.theme)))
        .header('x-content-type-options', 'nosniff');
      reply.removeHeader('x-frame-options');
      return sendWidget(request, reply, {
        type: 'text/html; charset=utf-8',
        tag: widgetTag('card', state, { lang: options.lang, theme: options.theme }),
        state,
        render: async () =>
          widgetCard(
            state,
            state.kind === 'figures' ? await widgets.gains(state.account.id) : [],
            options,
            publicPage,
          ).html,
      });
    },
  );
}
