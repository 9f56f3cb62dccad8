import type {
  AlertDetails,
  AlertKind,
  AlertServer,
  Language,
  ReportPeriod,
} from '@tradehost/contracts';
import { pluralEn, pluralRu } from '../../lib/plural.ts';
import { BRAND, button, layout, userMail, type RenderedMail } from './templates.ts';
import { greeting, mailHtml, plainText, userText } from './user-text.ts';

/**
 * Monitoring's alert and report letters, and their words, which the Telegram messages reuse
 * (alertText, reportText): one wording per language for both channels. What the owner or the
 * terminal wrote (the account's name, its currency, a symbol, a server's label) passes through
 * `mark`: the letters mark it as the user's (userText), the chat messages take it as it is.
 */

/** How alertText and reportText take a text the user (or the terminal) wrote: as it is. */
type Mark = (text: string) => string;
const asIs: Mark = (text) => text;

export interface AlertAccount {
  name: string;
  login: number;
  currency: string | null;
  timeZone: string;
}

export interface AlertInput {
  account: AlertAccount;
  kind: AlertKind;
  at: Date;
  value: number | null;
  threshold: number | null;
  details: AlertDetails;
}

/** The owner's greeting name and where the letter's buttons lead. */
export interface AlertLinks {
  name: string;
  /** The account's page in the console (its Alerts section). */
  accountLink: string;
  /** The console's servers page. */
  serversLink: string;
}

const locale = (language: Language) => (language === 'ru' ? 'ru-RU' : 'en-US');

export const number2 = (language: Language, value: number) =>
  new Intl.NumberFormat(locale(language), {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(value);

const percent = (language: Language, value: number | null) =>
  value === null ? '—' : `${number2(language, value)} %`;

const money = (language: Language, value: number | null, currency: string | null) =>
  value === null ? '—' : `${number2(language, value)}${currency ? ` ${currency}` : ''}`;

/** Whole milliseconds: "212 ms", "1 500 мс". */
const ms = (language: Language, value: number | null) =>
  value === null
    ? '—'
    : `${new Intl.NumberFormat(locale(language), { maximumFractionDigits: 0 }).format(value)} ${language === 'ru' ? 'мс' : 'ms'}`;

const signed = (text: string, value: number) => (value > 0 ? `+${text}` : text);

/** "2026-01-07 15:00 (Europe/Moscow)": the moment on the account's clock. */
export function zonedTime(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)!.value;
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')} (${timeZone})`;
}

const minutesWord = (language: Language, n: number) =>
  language === 'ru' ? pluralRu(n, 'минуту', 'минуты', 'минут') : pluralEn(n, 'minute', 'minutes');

const SERVER_STATES: Record<Language, Record<AlertServer['state'], string>> = {
  en: {
    running: 'running',
    shut_down: 'shut down',
    blocked: 'blocked (not paid)',
    revoked: 'revoked',
    provisioning: 'being created',
    unknown: 'state unknown',
  },
  ru: {
    running: 'работает',
    shut_down: 'выключен',
    blocked: 'заблокирован (не оплачен)',
    revoked: 'удалён',
    provisioning: 'создаётся',
    unknown: 'состояние неизвестно',
  },
};

/** "server #12 (Trader, London): shut down" */
export function serverLine(language: Language, server: AlertServer, mark: Mark = asIs): string {
  const label = [server.rate, server.comment && mark(server.comment)].filter(Boolean).join(', ');
  const noun = language === 'ru' ? 'сервер' : 'server';
  return `${noun} #${server.id}${label ? ` (${label})` : ''}: ${SERVER_STATES[language][server.state]}`;
}

/** What the silent terminal's address tells about the owner's servers. */
function serverLines(language: Language, details: AlertDetails, mark: Mark): string[] {
  const ip = details.publisher_ip;
  const servers = details.servers ?? [];
  if (!ip) return [];
  if (servers.length === 0)
    return [
      language === 'ru'
        ? `Терминал публиковал с адреса ${ip}; среди ваших серверов такого адреса нет.`
        : `The terminal published from ${ip}; none of your servers has that address.`,
    ];
  const list = servers.map((s) => serverLine(language, s, mark)).join('; ');
  return [
    language === 'ru'
      ? `Терминал публиковал с адреса ${ip}, это ваш ${list}.`
      : `The terminal published from ${ip}, which is your ${list}.`,
  ];
}

/** The alert's subject and its lines (plain text), in the owner's language. */
export function alertText(
  language: Language,
  alert: AlertInput,
  mark: Mark = asIs,
): { subject: string; lines: string[] } {
  const { account, value, threshold, details } = alert;
  const name = `«${mark(account.name)}» (${account.login})`;
  const cur = account.currency === null ? null : mark(account.currency);
  const ru = language === 'ru';
  const when = zonedTime(alert.at, account.timeZone);
  switch (alert.kind) {
    case 'drawdown':
      return {
        subject: ru
          ? `${name}: просадка ${percent(language, value)}`
          : `${name}: drawdown ${percent(language, value)}`,
        lines: [
          ru
            ? `Просадка счёта ${name} от пика достигла ${percent(language, value)} (ваша граница ${percent(language, threshold)}), ${when}.`
            : `The drawdown of ${name} from its peak reached ${percent(language, value)} (your line: ${percent(language, threshold)}), ${when}.`,
        ],
      };
    case 'equity_below':
      return {
        subject: ru
          ? `${name}: средства ${money(language, value, cur)}`
          : `${name}: equity ${money(language, value, cur)}`,
        lines: [
          ru
            ? `Средства счёта ${name} опустились до ${money(language, value, cur)}, ниже вашей границы ${money(language, threshold, cur)}, ${when}.`
            : `The equity of ${name} fell to ${money(language, value, cur)}, below your line of ${money(language, threshold, cur)}, ${when}.`,
        ],
      };
    case 'margin_level':
      return {
        subject: ru
          ? `${name}: уровень маржи ${percent(language, value)}`
          : `${name}: margin level ${percent(language, value)}`,
        lines: [
          ru
            ? `Уровень маржи счёта ${name} опустился до ${percent(language, value)}, ниже вашей границы ${percent(language, threshold)}, ${when}.`
            : `The margin level of ${name} fell to ${percent(language, value)}, below your line of ${percent(language, threshold)}, ${when}.`,
        ],
      };
    case 'daily_loss':
      return {
        subject: ru
          ? `${name}: убыток за день ${money(language, value, cur)}`
          : `${name}: loss today ${money(language, value, cur)}`,
        lines: [
          ru
            ? `Счёт ${name} потерял за сегодня ${money(language, value, cur)}, это не меньше вашей границы ${money(language, threshold, cur)}, ${when}.`
            : `${name} has lost ${money(language, value, cur)} today, at or beyond your line of ${money(language, threshold, cur)}, ${when}.`,
        ],
      };
    case 'no_data': {
      const minutes = details.minutes ?? Math.round(value ?? 0);
      const last = details.last_data_at
        ? zonedTime(new Date(details.last_data_at), account.timeZone)
        : '—';
      return {
        subject: ru ? `${name}: нет данных от терминала` : `${name}: no data from the terminal`,
        lines: [
          ru
            ? `От счёта ${name} нет данных ${minutes} ${minutesWord(language, minutes)} торгового времени (ваша граница ${threshold ?? '—'}); последние данные: ${last}.`
            : `No data from ${name} for ${minutes} ${minutesWord(language, minutes)} of market time (your line: ${threshold ?? '—'}); the last came at ${last}.`,
          ...serverLines(language, details, mark),
        ],
      };
    }
    case 'ping_above': {
      const minutes = details.minutes ?? 0;
      const server = details.server ? mark(details.server) : null;
      const to = ru
        ? server
          ? `до ${server}`
          : 'до торгового сервера'
        : server
          ? `to ${server}`
          : 'to the trade server';
      return {
        subject: ru
          ? `${name}: пинг ${ms(language, value)}`
          : `${name}: ping ${ms(language, value)}`,
        lines: [
          ru
            ? `Пинг ${to} выше ${ms(language, threshold)} уже ${minutes} ${minutesWord(language, minutes)}: сейчас ${ms(language, value)} (счёт ${name}, ${when}).`
            : `Ping ${to} has been above ${ms(language, threshold)} for ${minutes} ${minutesWord(language, minutes)}: now ${ms(language, value)} (${name}, ${when}).`,
        ],
      };
    }
    case 'positions': {
      const p = details.position;
      if (!p) return { subject: name, lines: [] };
      const side = `${p.type} ${p.volume} ${mark(p.symbol)}`;
      const opened = p.action === 'opened';
      return {
        subject: ru
          ? `${name}: ${opened ? 'открыта' : 'закрыта'} позиция #${p.ticket}`
          : `${name}: position #${p.ticket} ${opened ? 'opened' : 'closed'}`,
        lines: [
          ru
            ? `${opened ? 'Открыта' : 'Закрыта'} позиция #${p.ticket} на счёте ${name}: ${side} по ${p.price}${opened ? '' : `, результат ${money(language, p.profit, cur)}`}, ${when}.`
            : `Position #${p.ticket} ${opened ? 'opened' : 'closed'} on ${name}: ${side} at ${p.price}${opened ? '' : `, result ${money(language, p.profit, cur)}`}, ${when}.`,
        ],
      };
    }
  }
}

/** An alert by e-mail: its lines, a button to the servers (no data) or the account's page. */
export function monitoringAlertMail(
  language: Language,
  alert: AlertInput,
  links: AlertLinks,
): RenderedMail {
  const { subject, lines } = alertText(language, alert, userText);
  const toServers = alert.kind === 'no_data' && (alert.details.servers?.length ?? 0) > 0;
  const ru = language === 'ru';
  const footer = ru
    ? 'Оповещения настраиваются на странице счёта в разделе «Оповещения».'
    : 'Alerts are set up in the Alerts section of the account’s page.';
  return userMail(
    language,
    { name: links.name, link: links.serversLink },
    subject,
    [...lines, footer],
    toServers
      ? { href: links.serversLink, label: ru ? 'Открыть мои серверы' : 'Open my servers' }
      : { href: links.accountLink, label: ru ? 'Открыть счёт' : 'Open the account' },
  );
}

// ---- reports ------------------------------------------------------------------------------------

export interface ReportTrade {
  symbol: string;
  result: number;
}

export interface ReportInput {
  account: AlertAccount;
  period: ReportPeriod;
  /** The period's first and last local dates, `YYYY-MM-DD`. */
  firstDate: string;
  lastDate: string;
  gain: number;
  profit: number;
  drawdown: number;
  trades: number;
  best: ReportTrade | null;
  worst: ReportTrade | null;
  balance: number | null;
}

const MONTHS: Record<Language, string[]> = {
  en: [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ],
  ru: [
    'январь',
    'февраль',
    'март',
    'апрель',
    'май',
    'июнь',
    'июль',
    'август',
    'сентябрь',
    'октябрь',
    'ноябрь',
    'декабрь',
  ],
};

/** "for 2026-01-06", "for the week 2026-01-05 – 2026-01-11", "for January 2026" */
function periodName(language: Language, report: ReportInput): string {
  const ru = language === 'ru';
  if (report.period === 'daily') return ru ? `за ${report.firstDate}` : `for ${report.firstDate}`;
  if (report.period === 'weekly')
    return ru
      ? `за неделю ${report.firstDate} – ${report.lastDate}`
      : `for the week ${report.firstDate} – ${report.lastDate}`;
  const month = MONTHS[language][Number(report.firstDate.slice(5, 7)) - 1];
  return `${ru ? 'за' : 'for'} ${month} ${report.firstDate.slice(0, 4)}`;
}

const PERIOD_TITLES: Record<Language, Record<ReportPeriod, string>> = {
  en: { daily: 'daily report', weekly: 'weekly report', monthly: 'monthly report' },
  ru: { daily: 'отчёт за день', weekly: 'отчёт за неделю', monthly: 'отчёт за месяц' },
};

/** The report's subject and its figures as label-value rows, in the owner's language. */
export function reportText(
  language: Language,
  report: ReportInput,
  mark: Mark = asIs,
): { subject: string; heading: string; rows: [string, string][] } {
  const ru = language === 'ru';
  const cur = report.account.currency === null ? null : mark(report.account.currency);
  const name = `«${mark(report.account.name)}» (${report.account.login})`;
  const trade = (t: ReportTrade | null) =>
    t === null ? '—' : `${signed(money(language, t.result, cur), t.result)} (${mark(t.symbol)})`;
  return {
    subject: `${name}: ${PERIOD_TITLES[language][report.period]} ${periodName(language, report)}`,
    heading: ru
      ? `Итоги счёта ${name} ${periodName(language, report)} (${report.account.timeZone}):`
      : `How ${name} did ${periodName(language, report)} (${report.account.timeZone}):`,
    rows: [
      [ru ? 'Прирост' : 'Gain', signed(percent(language, report.gain * 100), report.gain)],
      [ru ? 'Прибыль' : 'Profit', signed(money(language, report.profit, cur), report.profit)],
      [ru ? 'Просадка' : 'Drawdown', percent(language, report.drawdown * 100)],
      [ru ? 'Сделки' : 'Trades', String(report.trades)],
      [ru ? 'Лучшая сделка' : 'Best trade', trade(report.best)],
      [ru ? 'Худшая сделка' : 'Worst trade', trade(report.worst)],
      [ru ? 'Баланс на конец' : 'Balance at the end', money(language, report.balance, cur)],
    ],
  };
}

/** A report by e-mail: the figures as a table (HTML) and as lines (text). */
export function monitoringReportMail(
  language: Language,
  report: ReportInput,
  links: Pick<AlertLinks, 'name' | 'accountLink'>,
): RenderedMail {
  const { subject, heading, rows } = reportText(language, report, userText);
  const ru = language === 'ru';
  const title = `${BRAND}: ${subject}`;
  const hello = greeting(language, links.name);
  const label = ru ? 'Открыть статистику' : 'Open the statistics';
  const footer = ru
    ? 'Отчёты включаются и выключаются на странице счёта в разделе «Оповещения».'
    : 'Reports are switched on and off in the Alerts section of the account’s page.';
  const table = `<table role="presentation" style="border-collapse:collapse;width:100%">${rows
    .map(
      ([label, value]) =>
        `<tr><td style="padding:6px 0;color:#5b6477">${mailHtml(label)}</td><td style="padding:6px 0;text-align:right;font-weight:bold">${mailHtml(value)}</td></tr>`,
    )
    .join('')}</table>`;
  return {
    subject: plainText(title),
    text: plainText(
      `${[hello, heading, rows.map(([l, v]) => `${l}: ${v}`).join('\n'), footer, `${label}: ${links.accountLink}`, BRAND].join('\n\n')}\n`,
    ),
    html: layout(language, title, [
      mailHtml(hello),
      mailHtml(heading),
      table,
      mailHtml(footer),
      button(links.accountLink, label),
    ]),
  };
}
