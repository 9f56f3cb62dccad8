import { ALERT_KINDS, REPORT_PERIODS } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { LETTER_AT, letterInput, letters } from './test-letters.ts';
import {
  alertText,
  monitoringAlertMail,
  monitoringReportMail,
  type AlertInput,
  type ReportInput,
} from './monitoring-templates.ts';
import * as mails from './templates.ts';
import type { RenderedMail } from './templates.ts';
import { mailHtml, plainText, unlinkable, userText } from './user-text.ts';

/** What a user might write to have a letter carry a link: a scheme, www., a domain, an address, markup. */
const EVIL =
  'LOCKED. Unlock at https://evil.example/u or www.evil.example, mail a@evil.example <b>now</b>';
/** The same text as no linker finds an address in: no domain, scheme or at-sign left whole. */
const LINKABLE = /evil\.example|:\/\/evil|www\.evil|@evil|<b>/;
const MARK = /[\ue000\ue001]/;

describe('userText and mailHtml', () => {
  it('leave our own text escaped and as it is, the user’s escaped and unlinkable', () => {
    const html = mailHtml(`Open https://console.example for ${userText('a.b <i>')} & more.`);
    expect(html).toBe(
      'Open https://console.example for a.<span>&#8288;</span>b &lt;i&gt; &amp; more.',
    );
    expect(unlinkable('https://x.io/a@b')).toBe(
      'https:<span>&#8288;</span>/<span>&#8288;</span>/<span>&#8288;</span>x.<span>&#8288;</span>io/<span>&#8288;</span>a@<span>&#8288;</span>b',
    );
  });

  it('plain text keeps the user’s words as written, marks gone, and the user cannot forge a mark', () => {
    const forged = userText('a\ue001 https://evil.example \ue000b');
    expect(plainText(`Hi ${forged}!`)).toBe('Hi a https://evil.example b!');
    expect(mailHtml(`Hi ${forged}!`)).not.toMatch(LINKABLE);
  });
});

const at = LETTER_AT;
/** What users write is EVIL, what we or operators write is not. */
const input = letterInput({
  name: EVIL,
  wallet: EVIL,
  title: EVIL,
  from: { name: EVIL, email: 'a@evil.example' },
  text: `${EVIL}\nsecond line`,
  status: 'closed',
  event: 'new',
  credit: {
    amountCents: 2500,
    balanceAfterCents: 2600,
    source: { kind: 'transfer', fromName: EVIL, fromEmail: 'a@evil.example' },
  },
});

const account = { name: EVIL, login: 5, currency: 'US.D', timeZone: 'UTC' };
const alerts = ALERT_KINDS.map((kind): AlertInput => ({
  account,
  kind,
  at,
  value: 10,
  threshold: 5,
  details: {
    position: {
      action: 'closed',
      ticket: 7,
      symbol: 'www.evil.example',
      type: 'buy',
      volume: 1,
      price: 1.1,
      profit: -3,
    },
    publisher_ip: '203.0.113.7',
    servers: [{ id: 12, state: 'running', rate: 'Trader', comment: EVIL }],
    minutes: 30,
    server: 'www.evil.example',
  },
}));
const report = (period: ReportInput['period']): ReportInput => ({
  account,
  period,
  firstDate: '2026-03-01',
  lastDate: '2026-03-31',
  gain: 0.1,
  profit: 10,
  drawdown: 0.05,
  trades: 2,
  best: { symbol: 'https://evil.example', result: 5 },
  worst: { symbol: 'EURUSD', result: -1 },
  balance: 100,
});
const links = { name: EVIL, accountLink: 'https://console.example/a', serversLink: 'x' };

describe('every letter', () => {
  const rendered: [string, RenderedMail][] = [];
  for (const language of ['en', 'ru'] as const) {
    for (const [name, render] of letters)
      rendered.push([`${name} ${language}`, render(language, input)]);
    for (const alert of alerts)
      rendered.push([
        `alert ${alert.kind} ${language}`,
        monitoringAlertMail(language, alert, links),
      ]);
    for (const period of REPORT_PERIODS)
      rendered.push([
        `report ${period} ${language}`,
        monitoringReportMail(language, report(period), links),
      ]);
  }

  it('shows what users wrote unlinkable and escaped in HTML, as written in the text', () => {
    expect(rendered.length).toBeGreaterThan(60);
    for (const [name, mail] of rendered) {
      expect(mail.html, name).not.toMatch(LINKABLE);
      expect(mail.html, name).toContain('LOCKED.<span>&#8288;</span> Unlock at https:<span>');
      expect(mail.text, name).toContain(EVIL);
      for (const part of [mail.subject, mail.text, mail.html]) expect(part, name).not.toMatch(MARK);
    }
  });

  it('keeps our own links as links', () => {
    const verification = mails.verificationMail('en', {
      name: EVIL,
      link: 'https://console.example/v?t=1',
    });
    expect(verification.html).toContain('<a href="https://console.example/v?t=1"');
    expect(verification.html).toContain('>https://console.example/v?t=1</a>');
  });

  it('the chat messages take the alert’s and the report’s words unmarked', () => {
    for (const alert of alerts) {
      const { subject, lines } = alertText('en', alert);
      for (const text of [subject, ...lines]) expect(text).not.toMatch(MARK);
    }
  });
});
