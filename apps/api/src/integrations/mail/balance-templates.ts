import type { Language } from '@tradehost/contracts';
import { dollars, userMail, type RenderedMail } from './templates.ts';
import { numero } from '../../lib/numero.ts';
import { userText } from './user-text.ts';

/** The balance's letters. */

/** How a top-up was paid: through a gateway, or in crypto confirmed by an operator. */
export type TopUpMethod = 'card' | 'ewallet' | 'crypto';

/** Where the money on the balance came from, as the letter names it. */
export type CreditSource =
  | { kind: 'payment'; paymentId: number; method: TopUpMethod; network: string | null }
  | { kind: 'adjustment'; reason: string }
  | { kind: 'transfer'; fromName: string; fromEmail: string };

export interface BalanceCredit {
  amountCents: number;
  /** The main balance right after this credit. */
  balanceAfterCents: number;
  source: CreditSource;
}

const METHOD_NAMES: Record<Language, Record<TopUpMethod, string>> = {
  en: { card: 'by card', ewallet: 'by e-wallet', crypto: 'in crypto' },
  ru: { card: 'картой', ewallet: 'электронным кошельком', crypto: 'криптовалютой' },
};

/** The sentence that says what the money is. */
function originOf(language: Language, credit: BalanceCredit): string {
  const amount = dollars(credit.amountCents);
  const { source } = credit;
  const ru = language === 'ru';
  switch (source.kind) {
    case 'payment': {
      const how = METHOD_NAMES[language][source.method];
      const network = source.network ? ` (${source.network})` : '';
      // a crypto payment is confirmed by an operator; a gateway's is paid
      const confirmed = source.method === 'crypto';
      return ru
        ? `Пополнение ${numero(source.paymentId)} ${how}${network} ${confirmed ? 'подтверждено' : 'оплачено'}: ${amount} зачислено на баланс.`
        : `Your top-up #${source.paymentId} ${how}${network} is ${confirmed ? 'confirmed' : 'paid'}: ${amount} is on your balance.`;
    }
    case 'adjustment':
      return ru
        ? `Оператор зачислил на ваш баланс ${amount}. Причина: ${source.reason}`
        : `Our operator has credited ${amount} to your balance. Reason: ${source.reason}`;
    case 'transfer': {
      const from = `${userText(source.fromName)} (${userText(source.fromEmail)})`;
      return ru
        ? `Пользователь ${from} перевёл вам ${amount}: сумма зачислена на баланс.`
        : `${from} has sent you ${amount}: it is on your balance.`;
    }
  }
}

/**
 * Money arrived on the main balance (a top-up paid or confirmed, an operator's credit, a transfer
 * from another user): how much, from where, and the balance after it.
 */
export function balanceCreditedMail(
  language: Language,
  input: { name: string; link: string; credit: BalanceCredit },
): RenderedMail {
  const { credit, link } = input;
  const amount = dollars(credit.amountCents);
  const after = dollars(credit.balanceAfterCents);
  return language === 'ru'
    ? userMail(
        language,
        input,
        `баланс пополнен на ${amount}`,
        [originOf(language, credit), `Баланс после зачисления: ${after}.`],
        { href: link, label: 'Открыть операции с балансом' },
      )
    : userMail(
        language,
        input,
        `your balance was credited with ${amount}`,
        [originOf(language, credit), `Your balance after this credit: ${after}.`],
        { href: link, label: 'Open balance operations' },
      );
}
