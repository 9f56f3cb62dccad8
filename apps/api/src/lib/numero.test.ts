import { describe, expect, it } from 'vitest';
import { LETTER_AT, letterInput, letters } from '../integrations/mail/test-letters.ts';
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

const at = LETTER_AT;
const input = letterInput();
/** The letters that say different things by a field: every status and event. */
const variants = [
  { status: 'new', event: 'new' },
  { status: 'processing', event: 'message' },
  { status: 'closed', event: 'resumed' },
];

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
