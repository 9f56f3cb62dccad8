import type { Language } from '@tradehost/contracts';
import * as balanceMails from './balance-templates.ts';
import * as profileMails from './profile-templates.ts';
import * as supportMails from './support-templates.ts';
import * as mails from './templates.ts';
import type { RenderedMail } from './templates.ts';

/** The tests' letters: every one of these modules, and one input with every field they read. */

export const LETTER_AT = new Date('2026-03-05T14:00:00Z');

/** One input that has every field any letter of these modules reads, `fields` over it. */
export const letterInput = (fields: Record<string, unknown> = {}) => ({
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
  paidUntil: LETTER_AT,
  revokeAt: LETTER_AT,
  endsAt: LETTER_AT,
  dueAt: LETTER_AT,
  at: LETTER_AT,
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
  ...fields,
});

export type Render = (language: Language, input: unknown) => RenderedMail;
/** Every letter of the modules: each exported `…Mail` but the helper that builds them. */
export const letters = Object.entries({
  ...mails,
  ...supportMails,
  ...balanceMails,
  ...profileMails,
})
  .filter(
    ([name, value]) => name.endsWith('Mail') && name !== 'userMail' && typeof value === 'function',
  )
  .map(([name, render]) => [name, render as Render] as const);
