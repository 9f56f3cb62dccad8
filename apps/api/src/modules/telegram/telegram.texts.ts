import {
  ERROR_MESSAGES,
  formatCents,
  type ErrorCode,
  type Language,
  type PowerState,
  type ServerStatus,
  type TelegramPurpose,
} from '@tradehost/contracts';
import { number2 } from '../../integrations/mail/monitoring-templates.ts';
import { utc } from '../../integrations/mail/templates.ts';
import { escapeHtml } from '../../lib/html.ts';
import { numero } from '../../lib/numero.ts';

/**
 * Everything the chat-bot says, in English and Russian: Telegram HTML (values escaped here).
 * The account's language chooses; a chat not linked yet gets its Telegram language.
 */

export interface AccountLine {
  name: string;
  login: number;
  /** A share (0.1234 is 12.34 %); null before the statistics are computed. */
  gain: number | null;
  maxDrawdown: number | null;
  lastDataAt: Date | null;
}

export interface ServerLine {
  id: number;
  rate: string;
  status: ServerStatus;
  power: PowerState;
  paidUntil: Date;
}

/** The commands in Telegram's menu, in the order shown; /help lists them too. */
export const COMMANDS = [
  'accounts',
  'servers',
  'balance',
  'reboot',
  'start',
  'alerts',
  'lang',
  'unlink',
  'help',
] as const;
export type Command = (typeof COMMANDS)[number];

const percent = (language: Language, share: number | null, sign = false) => {
  if (share === null) return '—';
  const text = `${number2(language, share * 100)} %`;
  return sign && share > 0 ? `+${text}` : text;
};
const dollars = (cents: number) => `$${formatCents(cents)}`;
const b = (text: string) => `<b>${escapeHtml(text)}</b>`;

/** The few refusals of a server control the bot passes on; others read as a failure. */
const CONTROL_ERRORS_RU: Partial<Record<ErrorCode, string>> = {
  SERVER_NOT_FOUND: 'Сервер не найден',
  SERVER_NOT_READY: 'Сервер ещё создаётся',
  SERVER_NOT_ACTIVE: 'Сервер не активен',
  SERVER_ALREADY_RUNNING: 'Сервер уже работает',
  SERVER_ALREADY_STOPPED: 'Сервер уже выключен',
  OPERATION_IN_PROGRESS:
    'С этим сервером уже выполняется другая операция. Повторите, когда она завершится (1–2 минуты)',
};

const en = {
  commands: {
    accounts: 'Monitoring accounts: gain, drawdown, last update',
    servers: 'Your servers: rate, status, paid until',
    balance: 'Your balance',
    reboot: 'Reboot a server',
    start: 'Start a server that is shut down',
    alerts: 'Switch alerts on or off for an account',
    lang: 'Language: English or Russian',
    unlink: 'Unlink this chat from your account',
    help: 'What I can do',
  } satisfies Record<Command, string>,
  help: (purposes: TelegramPurpose[]) =>
    [
      b('TradeHost bot'),
      `This chat receives ${purposeWords('en', purposes)}. Commands:`,
      COMMANDS.map((c) => `/${c} — ${escapeHtml(en.commands[c])}`).join('\n'),
    ].join('\n\n'),
  notLinked: (profileUrl: string) =>
    `This chat is not linked to a TradeHost account yet. Open your profile (${escapeHtml(profileUrl)}), press “Link Telegram” and follow the link.`,
  privateOnly:
    'I work in private chats only. Open a private chat with me and link it from your profile.',
  linkInvalid:
    'This link is invalid, used or expired. Create a new one in your profile: it works for 15 minutes.',
  linked: (purpose: TelegramPurpose, name: string, moved: boolean) =>
    [
      `Done, ${escapeHtml(name)}: this chat now receives ${purposeWords('en', [purpose])}.`,
      ...(moved
        ? ['It was linked to another account before; that account no longer gets messages here.']
        : []),
      'Send /help to see what I can do.',
    ].join('\n'),
  unlinked: 'This chat is unlinked. Link it again from your profile whenever you like.',
  accounts: {
    none: 'You have no monitoring accounts yet.',
    title: 'Monitoring accounts',
    line: (a: AccountLine) =>
      `${b(a.name)} (${a.login})\nGain ${percent('en', a.gain, true)} · drawdown ${percent('en', a.maxDrawdown)}\nLast update: ${a.lastDataAt ? utc(a.lastDataAt) : 'no data yet'}`,
  },
  servers: {
    none: 'You have no servers yet.',
    title: 'Servers',
    line: (s: ServerLine) =>
      `${b(`#${s.id}`)} ${escapeHtml(s.rate)}\n${en.status(s)} · paid until ${utc(s.paidUntil)}`,
  },
  status: (s: Pick<ServerLine, 'status' | 'power'>) =>
    s.status === 'active'
      ? { running: 'running', stopped: 'shut down', unknown: 'active' }[s.power]
      : {
          provisioning: 'being created',
          active: 'active',
          blocked: 'blocked',
          revoked: 'revoked',
          failed: 'failed',
        }[s.status],
  balance: (balance: number, partner: number) =>
    `Balance: ${b(dollars(balance))}\nPartner balance: ${b(dollars(partner))}`,
  control: {
    rebootNone: 'None of your servers is running, so there is nothing to reboot.',
    startNone: 'None of your servers is shut down, so there is nothing to start.',
    chooseReboot: 'Which server should I reboot?',
    chooseStart: 'Which server should I start?',
    confirmReboot: (s: ServerLine) =>
      `Reboot server ${b(`#${s.id}`)} (${escapeHtml(s.rate)})? Programs running on it are stopped.`,
    confirmStart: (s: ServerLine) => `Start server ${b(`#${s.id}`)} (${escapeHtml(s.rate)})?`,
    yesReboot: 'Yes, reboot',
    yesStart: 'Yes, start',
    cancel: 'Cancel',
    cancelled: 'Cancelled: nothing was done.',
    serverButton: (s: ServerLine) => `#${s.id} ${s.rate}`,
    queued: (id: number, action: 'reboot' | 'start') =>
      `Server ${b(`#${id}`)} is ${action === 'reboot' ? 'rebooting' : 'starting'}. This takes 1-2 minutes.`,
    refused: (code: ErrorCode | undefined) =>
      escapeHtml(
        code ? ERROR_MESSAGES[code] : 'Something went wrong. Please try again in a minute.',
      ),
  },
  alerts: {
    none: 'You have no monitoring accounts yet.',
    choose: 'Alerts per account: press one to switch it.',
    button: (name: string, on: boolean) => `${name}: ${on ? 'on' : 'off'}`,
    switched: (name: string, on: boolean) => `Alerts for ${b(name)} are ${on ? 'on' : 'off'} now.`,
  },
  lang: { choose: 'Choose the language:', set: 'I will speak English now.' },
  failed: 'Something went wrong. Please try again in a minute.',
  gone: 'This is no longer possible: the server or account is not yours or is gone.',
};

type Texts = typeof en;

const ru: Texts = {
  commands: {
    accounts: 'Счета мониторинга: прирост, просадка, последнее обновление',
    servers: 'Ваши серверы: тариф, состояние, оплачен до',
    balance: 'Ваш баланс',
    reboot: 'Перезагрузить сервер',
    start: 'Запустить выключенный сервер',
    alerts: 'Включить или выключить оповещения счёта',
    lang: 'Язык: английский или русский',
    unlink: 'Отвязать этот чат от аккаунта',
    help: 'Что я умею',
  },
  help: (purposes) =>
    [
      b('Бот TradeHost'),
      `Этот чат получает ${purposeWords('ru', purposes)}. Команды:`,
      COMMANDS.map((c) => `/${c} — ${escapeHtml(ru.commands[c])}`).join('\n'),
    ].join('\n\n'),
  notLinked: (profileUrl) =>
    `Этот чат ещё не привязан к аккаунту TradeHost. Откройте профиль (${escapeHtml(profileUrl)}), нажмите «Привязать Telegram» и перейдите по ссылке.`,
  privateOnly:
    'Я работаю только в личных чатах. Откройте личный чат со мной и привяжите его из профиля.',
  linkInvalid:
    'Эта ссылка неверна, уже использована или устарела. Создайте новую в профиле: она действует 15 минут.',
  linked: (purpose, name, moved) =>
    [
      `Готово, ${escapeHtml(name)}: этот чат теперь получает ${purposeWords('ru', [purpose])}.`,
      ...(moved
        ? [
            'Раньше он был привязан к другому аккаунту; тот аккаунт больше не получает здесь сообщений.',
          ]
        : []),
      'Отправьте /help, чтобы узнать, что я умею.',
    ].join('\n'),
  unlinked: 'Чат отвязан. Привязать его снова можно в любой момент из профиля.',
  accounts: {
    none: 'У вас пока нет счетов мониторинга.',
    title: 'Счета мониторинга',
    line: (a) =>
      `${b(a.name)} (${a.login})\nПрирост ${percent('ru', a.gain, true)} · просадка ${percent('ru', a.maxDrawdown)}\nПоследнее обновление: ${a.lastDataAt ? utc(a.lastDataAt) : 'данных ещё нет'}`,
  },
  servers: {
    none: 'У вас пока нет серверов.',
    title: 'Серверы',
    line: (s) =>
      `${b(numero(s.id))} ${escapeHtml(s.rate)}\n${ru.status(s)} · оплачен до ${utc(s.paidUntil)}`,
  },
  status: (s) =>
    s.status === 'active'
      ? { running: 'работает', stopped: 'выключен', unknown: 'активен' }[s.power]
      : {
          provisioning: 'создаётся',
          active: 'активен',
          blocked: 'заблокирован',
          revoked: 'удалён',
          failed: 'ошибка создания',
        }[s.status],
  balance: (balance, partner) =>
    `Баланс: ${b(dollars(balance))}\nПартнёрский баланс: ${b(dollars(partner))}`,
  control: {
    rebootNone: 'Ни один ваш сервер не работает, перезагружать нечего.',
    startNone: 'Ни один ваш сервер не выключен, запускать нечего.',
    chooseReboot: 'Какой сервер перезагрузить?',
    chooseStart: 'Какой сервер запустить?',
    confirmReboot: (s) =>
      `Перезагрузить сервер ${b(numero(s.id))} (${escapeHtml(s.rate)})? Запущенные на нём программы будут остановлены.`,
    confirmStart: (s) => `Запустить сервер ${b(numero(s.id))} (${escapeHtml(s.rate)})?`,
    yesReboot: 'Да, перезагрузить',
    yesStart: 'Да, запустить',
    cancel: 'Отмена',
    cancelled: 'Отменено: ничего не сделано.',
    serverButton: (s) => `${numero(s.id)} ${s.rate}`,
    queued: (id, action) =>
      `Сервер ${b(numero(id))} ${action === 'reboot' ? 'перезагружается' : 'запускается'}. Это займёт 1–2 минуты.`,
    refused: (code) =>
      escapeHtml(
        (code && CONTROL_ERRORS_RU[code]) || 'Что-то пошло не так. Попробуйте через минуту.',
      ),
  },
  alerts: {
    none: 'У вас пока нет счетов мониторинга.',
    choose: 'Оповещения по счетам: нажмите, чтобы переключить.',
    button: (name, on) => `${name}: ${on ? 'вкл.' : 'выкл.'}`,
    switched: (name, on) => `Оповещения счёта ${b(name)} теперь ${on ? 'включены' : 'выключены'}.`,
  },
  lang: { choose: 'Выберите язык:', set: 'Теперь я говорю по-русски.' },
  failed: 'Что-то пошло не так. Попробуйте через минуту.',
  gone: 'Это уже невозможно: сервер или счёт не ваш или удалён.',
};

function purposeWords(language: Language, purposes: TelegramPurpose[]): string {
  const words = {
    en: { account: 'account notifications', monitoring: 'monitoring alerts and reports' },
    ru: { account: 'уведомления аккаунта', monitoring: 'оповещения и отчёты мониторинга' },
  }[language];
  return purposes.map((p) => words[p]).join(language === 'ru' ? ' и ' : ' and ');
}

export const TEXTS: Record<Language, Texts> = { en, ru };

/** A chat not linked yet: Russian for a Russian Telegram, else English. */
export const languageOf = (telegramLanguage: string | undefined): Language =>
  telegramLanguage?.toLowerCase().startsWith('ru') ? 'ru' : 'en';
