import { randomUUID } from 'node:crypto';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import type { Config } from '../../config.ts';
import { escapeHtml } from '../../lib/html.ts';
import { formFields, parseGatewayAmount } from './fields.ts';
import {
  SANDBOX_CHECKOUT_PATH,
  SANDBOX_DECISION_PATH,
  SANDBOX_WEBHOOK_PATH,
  sandboxSignature,
  verifySandbox,
  type CheckoutFields,
} from './sandbox.ts';

/**
 * The sandbox gateway itself: a payment page at /api/dev/sandbox-gateway/checkout that behaves
 * like a hosted card page. It checks the shop's signature, shows the order with Pay and Decline,
 * sends the browser back to the shop at once (303) and, a moment later, notifies the shop
 * server-to-server with a signed form, retrying as real gateways do. Register it only when the
 * sandbox driver is on, never in production (see shouldServeSandboxGateway in index.ts).
 */

export interface SandboxGatewayOptions {
  config: Config;
  /** The pauses before the 2nd, 3rd, ... delivery attempt of a notification. */
  retryDelaysMs?: readonly number[];
}

/** Four attempts over about 20 seconds: enough to ride out a restart of the API in development. */
export const DEFAULT_RETRY_DELAYS_MS = [1_000, 4_000, 15_000] as const;
/** A shop that does not answer in this time counts as a failed attempt. */
const NOTIFY_TIMEOUT_MS = 10_000;
/** How many decided orders the page remembers, to refuse paying one twice. */
const REMEMBERED_ORDERS = 1_000;

type Language = 'en' | 'ru';

const TEXT = {
  en: {
    title: 'Sandbox payment',
    notice: 'Test mode: this page stands in for a card or e-wallet provider. No money is charged.',
    order: 'Order',
    description: 'Description',
    method: 'Payment method',
    amount: 'Amount',
    card: 'Bank card',
    ewallet: 'E-wallet',
    pay: 'Pay',
    decline: 'Decline',
    refused: 'Payment request refused',
    badSignature: 'The payment request is not valid: its signature does not match its contents.',
    foreignReturn: 'The return address is not on the shop’s site.',
    foreignNotify: 'The notification address is not the shop’s.',
    badDecision: 'Choose Pay or Decline.',
    decided: 'This order has already been paid or declined.',
  },
  ru: {
    title: 'Тестовая оплата',
    notice:
      'Тестовый режим: эта страница заменяет платёжную систему для карт и кошельков. Деньги не списываются.',
    order: 'Заказ',
    description: 'Описание',
    method: 'Способ оплаты',
    amount: 'Сумма',
    card: 'Банковская карта',
    ewallet: 'Электронный кошелёк',
    pay: 'Оплатить',
    decline: 'Отклонить',
    refused: 'Платёж отклонён',
    badSignature: 'Платёжный запрос недействителен: подпись не соответствует его данным.',
    foreignReturn: 'Адрес возврата не принадлежит сайту магазина.',
    foreignNotify: 'Адрес уведомлений не принадлежит магазину.',
    badDecision: 'Выберите «Оплатить» или «Отклонить».',
    decided: 'Этот заказ уже оплачен или отклонён.',
  },
} satisfies Record<Language, Record<string, string>>;

type Problem = 'badSignature' | 'foreignReturn' | 'foreignNotify' | 'badDecision' | 'decided';

const languageOf = (lang: string | undefined): Language => (lang === 'ru' ? 'ru' : 'en');

const STYLE = `
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #eef1f6;
    font: 15px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: #1d2433; }
  main { width: min(440px, calc(100% - 2rem)); background: #fff; border-radius: 12px;
    box-shadow: 0 8px 28px rgba(29, 36, 51, .12); padding: 1.75rem; }
  .brand { font-weight: 700; color: #1a5fd0; margin: 0 0 1rem; }
  h1 { font-size: 1.25rem; margin: 0 0 .25rem; }
  .notice { background: #fff7e0; border: 1px solid #f0d489; border-radius: 8px; padding: .6rem .8rem;
    font-size: .9rem; margin: 1rem 0; }
  .sum { font-size: 2rem; font-weight: 700; margin: .5rem 0 1rem; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .35rem 1rem; margin: 0 0 1.5rem; }
  dt { color: #5b6474; } dd { margin: 0; word-break: break-word; }
  .buttons { display: flex; gap: .75rem; }
  button { flex: 1; font: inherit; font-weight: 600; padding: .75rem 1rem; border-radius: 8px; cursor: pointer;
    border: 1px solid #1a5fd0; }
  .pay { background: #1a5fd0; color: #fff; }
  .decline { background: #fff; color: #1a5fd0; }
  .error { color: #b42318; }
`;

function page(language: Language, title: string, body: string): string {
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="brand">TradeHost · Sandbox gateway</p>
${body}
</main>
</body>
</html>
`;
}

/** The order with Pay and Decline; the signed fields ride along in hidden inputs. */
export function renderCheckoutPage(fields: CheckoutFields & { signature: string }): string {
  const language = languageOf(fields.lang);
  const t = TEXT[language];
  const method = fields.method === 'ewallet' ? t.ewallet : t.card;
  const hidden = Object.entries(fields)
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
    )
    .join('\n');
  const sum = `${fields.amount} ${fields.currency}`;
  return page(
    language,
    t.title,
    `<h1>${t.title}</h1>
<p class="notice">${t.notice}</p>
<p class="sum">${escapeHtml(sum)}</p>
<dl>
<dt>${t.order}</dt><dd>${escapeHtml(fields.order_id)}</dd>
<dt>${t.description}</dt><dd>${escapeHtml(fields.description)}</dd>
<dt>${t.method}</dt><dd>${method}</dd>
<dt>${t.amount}</dt><dd>${escapeHtml(sum)}</dd>
</dl>
<form method="post" action="/api${SANDBOX_DECISION_PATH}">
${hidden}
<div class="buttons">
<button class="pay" type="submit" name="decision" value="approve">${t.pay}</button>
<button class="decline" type="submit" name="decision" value="decline">${t.decline}</button>
</div>
</form>`,
  );
}

function renderProblemPage(language: Language, problem: Problem): string {
  const t = TEXT[language];
  return page(language, t.refused, `<h1>${t.refused}</h1>\n<p class="error">${t[problem]}</p>`);
}

export async function sandboxGatewayRoutes(app: FastifyInstance, options: SandboxGatewayOptions) {
  const { config, retryDelaysMs = DEFAULT_RETRY_DELAYS_MS } = options;
  const { secret, delayMs } = config.payments.sandbox;
  const shopOrigin = new URL(config.publicUrl).origin;
  const notifyUrl = `${config.payments.notifyBaseUrl}${SANDBOX_WEBHOOK_PATH}`;

  // forms for these routes only: this plugin is encapsulated, the rest of the API stays JSON-only
  await app.register(formbody);

  const decided = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  const closing = new AbortController();

  /** Runs `task` after `ms` without keeping the process alive; cancelled when the app closes. */
  function later(ms: number, task: () => Promise<void>) {
    if (closing.signal.aborted) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      void task();
    }, ms);
    timer.unref();
    timers.add(timer);
  }

  app.addHook('onClose', async () => {
    closing.abort();
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  });

  /** POSTs the notification; on a network error or a non-2xx answer tries again later. */
  async function deliver(fields: Record<string, string>, attempt: number): Promise<void> {
    const context = { orderId: fields.order_id, status: fields.status, attempt: attempt + 1 };
    let failure: string;
    try {
      const response = await fetch(notifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
        redirect: 'manual',
        signal: AbortSignal.any([closing.signal, AbortSignal.timeout(NOTIFY_TIMEOUT_MS)]),
      });
      const answer = (await response.text()).slice(0, 200);
      if (response.ok) {
        // "OK", or read and refused for its content: sending it again would not change that
        if (answer.trim() === 'OK') {
          app.log.info(context, 'sandbox gateway: notification delivered');
        } else {
          app.log.warn(
            { ...context, answer },
            'sandbox gateway: the shop refused the notification',
          );
        }
        return;
      }
      failure = `HTTP ${response.status}`;
    } catch (error) {
      if (closing.signal.aborted) return;
      failure = error instanceof Error ? error.message : String(error);
    }
    const pause = retryDelaysMs[attempt];
    if (pause === undefined) {
      app.log.error(
        { ...context, failure },
        'sandbox gateway: notification undelivered, giving up',
      );
      return;
    }
    app.log.warn({ ...context, failure, retryInMs: pause }, 'sandbox gateway: notification failed');
    later(pause, () => deliver(fields, attempt + 1));
  }

  /** The verified checkout fields, or the problem to show. */
  function check(fields: Record<string, string>): CheckoutFields | Problem {
    let signed: CheckoutFields;
    try {
      signed = verifySandbox(secret, 'checkout', fields);
      parseGatewayAmount(signed.amount);
    } catch {
      return 'badSignature';
    }
    // signed by us, and still checked: the page never sends a browser or a notification elsewhere
    if (!sameOrigin(signed.return_url, shopOrigin)) return 'foreignReturn';
    if (signed.notify_url !== notifyUrl) return 'foreignNotify';
    return signed;
  }

  function refuse(reply: FastifyReply, status: number, lang: string | undefined, problem: Problem) {
    return reply
      .code(status)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(renderProblemPage(languageOf(lang), problem));
  }

  // the checkout's forms: their fields are checked by their signature
  const formSchema = z.record(z.string(), z.unknown());
  const checkout = async (request: FastifyRequest, reply: FastifyReply) => {
    const fields = formFields(request.method === 'GET' ? request.query : request.body);
    const signed = check(fields);
    if (typeof signed === 'string') return refuse(reply, 400, fields.lang, signed);
    return reply
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(renderCheckoutPage({ ...signed, signature: fields.signature ?? '' }));
  };
  app.get(SANDBOX_CHECKOUT_PATH, { schema: { hide: true } }, checkout);
  app.post(SANDBOX_CHECKOUT_PATH, { schema: { hide: true, body: formSchema } }, checkout);

  app.post(
    SANDBOX_DECISION_PATH,
    { schema: { hide: true, body: formSchema } },
    async (request, reply) => {
      const fields = formFields(request.body);
      const signed = check(fields);
      if (typeof signed === 'string') return refuse(reply, 400, fields.lang, signed);
      const { decision } = fields;
      if (decision !== 'approve' && decision !== 'decline') {
        return refuse(reply, 400, signed.lang, 'badDecision');
      }
      const orderId = signed.order_id;
      if (decided.has(orderId)) return refuse(reply, 409, signed.lang, 'decided');
      const status = decision === 'approve' ? 'paid' : 'failed';
      decided.add(orderId);
      if (decided.size > REMEMBERED_ORDERS) decided.delete(decided.values().next().value!);

      const notification = {
        order_id: orderId,
        amount: signed.amount,
        currency: signed.currency,
        status,
        operation_id: randomUUID(),
      };
      const signature = sandboxSignature(secret, 'notification', notification);
      later(delayMs, () => deliver({ ...notification, signature }, 0));
      request.log.info({ orderId, status }, 'sandbox gateway: payment decided');
      return reply.redirect(signed.return_url, 303);
    },
  );
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}
