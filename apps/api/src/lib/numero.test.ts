import { describe, expect, it } from 'vitest';
import * as balanceMails from '../integrations/mail/balance-templates.ts';
import * as profileMails from '../integrations/mail/profile-templates.ts';
import * as supportMails from '../integrations/mail/support-templates.ts';
import * as mails from '../integrations/mail/templates.ts';
import type { RenderedMail } from '../integrations/mail/templates.ts';
import {
  enlargementCharge,
  extensionCharge,
  subscriptionCharge,
} from '../modules/monitoring/monitoring.service.ts';
import { TEXTS, type ServerLine } from '../modules/telegram/telegram.texts.ts';
import { chargeDescriptions } from '../modules/vps/vps.renewal.ts';

/**
 * The console writes "№ 12" with a no-break space (U+00A0) in every Russian text; the API's own
 * Russian texts (charges in the balance history, letters, the chat-bot) must read the same.
 */
const wrongNumero = /№(?!\u00a0)/;

const at = new Date('2026-03-05T14:00:00Z');

/** One input that has every field any letter of these modules reads. */
const input = {
  name: 'Иван',
  link: 'https://console.example/vps',
  resetLink: 'https://console.example/reset',
  code: '123456',
  serverId: 12,
  subscriptionId: 34,
  ticketId: 56,
  rate: 'Trader, London (LD4)',
  host: '203.0.113.7',
  port: 3389,
  username: 'Administrator',
  reason: 'нет свободных ресурсов',
  refundedCents: 1500,
  days: 3,
  paidUntil: at,
  revokeAt: at,
  endsAt: at,
  dueAt: at,
  at,
  autoRenew: true,
  months: 3,
  chargedCents: 1500,
  priceCents: 1500,
  balanceCents: 100,
  amountCents: 2500,
  running: true,
  trialDays: 3,
  retentionDays: 30,
  signedOut: 2,
  method: 'USDT',
  wallet: 'TXYZ',
  reference: 'PAY-1',
  title: 'Терминал отключается',
  answer: 'Перезапустите терминал.',
  department: 'Оборудование',
  from: { name: 'Иван', email: 'ivan@example.com' },
  text: 'Терминал отключается ночью.',
  files: 1,
  credit: {
    amountCents: 2500,
    balanceAfterCents: 2600,
    source: { kind: 'payment', paymentId: 78, method: 'crypto', network: 'TRC20' },
  },
};
/** The letters that say different things by a field: every status and event. */
const variants = [
  { status: 'new', event: 'new' },
  { status: 'processing', event: 'message' },
  { status: 'closed', event: 'resumed' },
];

type Render = (language: 'ru', input: unknown) => RenderedMail;
/** Every letter of the modules: each exported `…Mail` but the helper that builds them. */
const letters = Object.entries({ ...mails, ...supportMails, ...balanceMails, ...profileMails })
  .filter(
    ([name, value]) => name.endsWith('Mail') && name !== 'userMail' && typeof value === 'function',
  )
  .map(([name, render]) => [name, render as Render] as const);

const server: ServerLine = {
  id: 12,
  rate: 'Trader, London (LD4)',
  status: 'active',
  power: 'running',
  paidUntil: at,
};
const bot = TEXTS.ru;

describe('the Russian texts of the API', () => {
  it('put a no-break space after the numero sign (№\u00a012), as the console does', () => {
    const texts: [string, string][] = [];
    for (const [name, render] of letters)
      for (const variant of variants) {
        const mail = render('ru', { ...input, ...variant });
        for (const part of ['subject', 'text', 'html'] as const)
          texts.push([`${name} (${variant.status}) ${part}`, mail[part]]);
      }
    for (const [name, { descriptionRu }] of Object.entries({
      subscriptionCharge: subscriptionCharge(5, 3),
      extensionCharge: extensionCharge(34, 3),
      enlargementCharge: enlargementCharge(34, 2),
      renewalCharge: chargeDescriptions(
        12,
        { name: 'Trader', location: 'London (LD4)' },
        { months: 3 },
      ),
      upgradeCharge: chargeDescriptions(
        12,
        { name: 'Trader', location: 'London (LD4)' },
        { upgradeTo: 'Pro' },
      ),
    }))
      texts.push([name, descriptionRu]);
    texts.push(
      ['bot servers.line', bot.servers.line(server)],
      ['bot confirmReboot', bot.control.confirmReboot(server)],
      ['bot confirmStart', bot.control.confirmStart(server)],
      ['bot serverButton', bot.control.serverButton(server)],
      ['bot queued reboot', bot.control.queued(12, 'reboot')],
      ['bot queued start', bot.control.queued(12, 'start')],
    );

    // the letters are all rendered, from this one input (a field it lacks reads "undefined")
    expect(letters.length).toBeGreaterThan(20);
    for (const [name, text] of texts) expect(text, name).not.toMatch(/undefined|NaN/);
    // the scan reads the texts that have a number in them
    expect(texts.filter(([, text]) => text.includes('№')).length).toBeGreaterThan(60);
    for (const [name, text] of texts) expect(text, name).not.toMatch(wrongNumero);
  });
});
