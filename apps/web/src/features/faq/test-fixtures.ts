/**
 * FAQ questions for the tests: a few per group in both languages, written like the seeded ones.
 */
import type { FaqItem } from '@tradehost/contracts';

let nextId = 0;

function item(fields: Omit<FaqItem, 'id' | 'position' | 'published' | 'updated_at'>): FaqItem {
  nextId += 1;
  return {
    id: nextId,
    position: nextId,
    published: true,
    updated_at: '2026-11-20T08:00:00.000Z',
    ...fields,
  };
}

export const FAQ_ITEMS: FaqItem[] = [
  item({
    group: 'partners',
    slug: 'partner-withdrawal',
    question_en: 'How do I withdraw my partner reward?',
    answer_en:
      'Open Partners, then Withdrawal. Choose a method (USDT-TRC20, BTC or Payeer) and enter your wallet.\n\nAn operator pays withdrawals out within two working days.',
    question_ru: 'Как вывести партнёрское вознаграждение?',
    answer_ru:
      'Откройте «Партнёрам», затем «Вывод». Выберите способ (USDT-TRC20, BTC или Payeer) и укажите кошелёк.\n\nОператор выплачивает вывод средств в течение двух рабочих дней.',
  }),
  item({
    group: 'partners',
    slug: 'partner-levels',
    question_en: 'How many levels does the partner programme have?',
    answer_en:
      'Three. You earn a share of what your referrals pay for servers, and smaller shares from their referrals.',
    question_ru: 'Сколько уровней у партнёрской программы?',
    answer_ru:
      'Три. Вы получаете долю от оплаты серверов вашими рефералами и меньшие доли от их рефералов.',
  }),
  item({
    group: 'support',
    slug: 'balance-top-up',
    question_en: 'How can I top up my balance?',
    answer_en:
      'Open Balance operations and choose a card, an e-wallet or crypto. A card payment is credited as soon as the gateway confirms it.',
    question_ru: 'Как пополнить баланс?',
    answer_ru:
      'Откройте «Операции с балансом» и выберите карту, электронный кошелёк или криптовалюту. Пополнение картой зачисляется, как только платёжный шлюз его подтвердит.',
  }),
  item({
    group: 'support',
    slug: 'vps-reboot',
    question_en: 'My MetaTrader terminal froze. How do I restart the server?',
    answer_en:
      'Open VPS, find the server and press Reboot. It takes a couple of minutes; your terminals start again if they are in the startup folder.',
    question_ru: 'Терминал MetaTrader завис. Как перезагрузить сервер?',
    answer_ru:
      'Откройте VPS, найдите сервер и нажмите «Перезагрузить». Это займёт пару минут; терминалы запустятся снова, если они в автозагрузке.',
  }),
  item({
    group: 'monitoring',
    slug: 'monitoring-what',
    question_en: 'What does online monitoring show?',
    answer_en:
      'The balance, equity, drawdown and profit of your trading accounts, live, with alerts and reports to the chat-bot.',
    question_ru: 'Что показывает онлайн-мониторинг?',
    answer_ru:
      'Баланс, средства, просадку и прибыль ваших торговых счетов в реальном времени, с уведомлениями и отчётами в чат-бот.',
  }),
  item({
    group: 'monitoring_guide',
    slug: 'publisher-install',
    question_en: 'How do I install the publisher in MetaTrader?',
    answer_en:
      'Copy the Expert Advisor into the Experts folder, attach it to any chart and paste your activation key. Allow WebRequest for the monitoring address.',
    question_ru: 'Как установить публикатор в MetaTrader?',
    answer_ru:
      'Скопируйте советник в папку Experts, прикрепите его к любому графику и вставьте ключ активации. Разрешите WebRequest для адреса мониторинга.',
  }),
];
