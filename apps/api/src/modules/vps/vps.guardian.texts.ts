import type { GuardianAction, GuardianCause, Language, Platform } from '@tradehost/contracts';
import { numero } from '../../lib/numero.ts';

/**
 * What the terminal guardian tells the owner (mail and the monitoring chat), in their language:
 * what happened, what was done, and what is true now. One message per incident, when it ends.
 */

/** How an incident ended, as the message tells it. */
export type GuardianOutcome =
  /** The terminal publishes again after the action. */
  | { kind: 'resolved'; positionsNow: number }
  /** The policy is to tell only. */
  | { kind: 'notified' }
  /** Still silent: why nothing (more) was done. */
  | {
      kind: 'escalated';
      why:
        | 'not_allowed'
        | 'positions_open'
        | 'too_soon'
        | 'failed'
        | 'still_silent'
        | 'shared'
        | 'algo_off';
    };

export interface GuardianStory {
  platform: Platform;
  accountName: string;
  login: number;
  serverId: number;
  cause: GuardianCause;
  silentSince: Date;
  action: GuardianAction;
  actedAt: Date | null;
  positions: number;
  outcome: GuardianOutcome;
}

const time = (at: Date) => `${at.toISOString().slice(11, 16)} UTC`;

const EN = {
  cause: {
    server_stopped: 'stopped publishing because the server was shut down',
    terminal_closed: 'had closed',
    broker_disconnected: 'lost its connection to the broker',
    algo_trading_off: 'had algorithmic trading switched off',
    unknown: 'stopped publishing for a reason the server does not show',
  } satisfies Record<GuardianCause, string>,
  action: {
    none: '',
    start: 'the server was started again',
    terminal_restart: 'the terminal was started again',
    reboot: 'the server was rebooted',
  } satisfies Record<GuardianAction, string>,
  why: {
    not_allowed: 'The guardian of this server may not do more; change that on the server’s page.',
    positions_open: 'The server was not rebooted because positions are open.',
    too_soon: 'The guardian acts at most once in 15 minutes on a server, so it did nothing now.',
    failed: 'The action did not succeed.',
    still_silent: 'It is still silent.',
    shared:
      'Several of your servers write from this address, so the guardian reboots none of them.',
    algo_off:
      'Switch Algo Trading on in the terminal (its toolbar button) and allow it for the publisher: the guardian cannot do that for you.',
  },
};

const RU: typeof EN = {
  cause: {
    server_stopped: 'перестал публиковать данные, потому что сервер выключен',
    terminal_closed: 'был закрыт',
    broker_disconnected: 'потерял связь с брокером',
    algo_trading_off: 'работал с выключенной алготорговлей',
    unknown: 'перестал публиковать данные по причине, которую сервер не показывает',
  },
  action: {
    none: '',
    start: 'сервер снова запущен',
    terminal_restart: 'терминал снова запущен',
    reboot: 'сервер перезагружен',
  },
  why: {
    not_allowed: 'Страж этого сервера не может делать больше: это меняется на странице сервера.',
    positions_open: 'Сервер не перезагружен, потому что открыты позиции.',
    too_soon:
      'Страж действует на сервере не чаще раза в 15 минут, поэтому сейчас ничего не сделал.',
    failed: 'Действие не удалось.',
    still_silent: 'Данных по-прежнему нет.',
    shared:
      'С этого адреса пишут несколько ваших серверов, поэтому страж не перезагружает ни один из них.',
    algo_off:
      'Включите «Алготорговлю» в терминале (кнопка на панели) и разрешите её публикатору: страж не может сделать это за вас.',
  },
};

function positionsLine(language: Language, before: number, now: number | null): string {
  if (language === 'ru') {
    if (before === 0) return 'Открытых позиций не было.';
    if (now === null) return `Открытых позиций было: ${before}.`;
    return now === before
      ? `Открытых позиций было ${before}, они на месте.`
      : `Открытых позиций было ${before}, сейчас ${now}.`;
  }
  if (before === 0) return 'No positions were open.';
  const were = before === 1 ? '1 position was open' : `${before} positions were open`;
  if (now === null) return `${were}.`;
  return now === before
    ? `${were} and ${before === 1 ? 'is' : 'are'} unchanged.`
    : `${were}; ${now} now.`;
}

/** The subject and the lines of the message (HTML-free text; the chat escapes it). */
export function guardianMessage(language: Language, story: GuardianStory) {
  const t = language === 'ru' ? RU : EN;
  const server =
    language === 'ru' ? `сервере ${numero(story.serverId)}` : `server #${story.serverId}`;
  const terminal = `${story.platform} («${story.accountName}», ${story.login})`;
  const head =
    language === 'ru'
      ? `${terminal} на ${server} ${t.cause[story.cause]} в ${time(story.silentSince)}`
      : `${terminal} on ${server} ${t.cause[story.cause]} at ${time(story.silentSince)}`;
  const acted =
    story.action === 'none' || !story.actedAt
      ? ''
      : language === 'ru'
        ? `; ${t.action[story.action]} в ${time(story.actedAt)}`
        : `; ${t.action[story.action]} at ${time(story.actedAt)}`;
  const { outcome } = story;
  const lines: string[] = [];
  let subject: string;
  if (outcome.kind === 'resolved') {
    lines.push(
      `${head}${acted}${language === 'ru' ? ' — и он снова публикует данные.' : ', and it publishes again.'}`,
    );
    lines.push(positionsLine(language, story.positions, outcome.positionsNow));
    subject =
      language === 'ru'
        ? `${story.platform} на ${server} снова работает`
        : `${story.platform} on ${server} works again`;
  } else if (outcome.kind === 'notified') {
    lines.push(`${head}.`);
    lines.push(
      language === 'ru'
        ? 'Страж этого сервера настроен только сообщать: ничего не сделано.'
        : 'The guardian of this server is set to tell only: nothing was done.',
    );
    lines.push(positionsLine(language, story.positions, null));
    subject =
      language === 'ru'
        ? `${story.platform} на ${server} молчит`
        : `${story.platform} on ${server} is silent`;
  } else {
    lines.push(`${head}${acted}.`);
    lines.push(t.why[outcome.why]);
    lines.push(positionsLine(language, story.positions, null));
    lines.push(
      language === 'ru'
        ? 'Проверьте терминал: подключитесь по RDP или напишите в поддержку.'
        : 'Please check the terminal: connect by RDP, or write to support.',
    );
    subject =
      language === 'ru'
        ? `${story.platform} на ${server} молчит: нужна ваша помощь`
        : `${story.platform} on ${server} is still silent: please check it`;
  }
  return { subject, lines };
}
