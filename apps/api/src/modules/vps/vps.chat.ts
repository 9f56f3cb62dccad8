import type { Language, PowerState } from '@tradehost/contracts';
import type { TelegramMessage } from '../../integrations/telegram/port.ts';
import { escapeHtml } from '../../lib/html.ts';
import { numero } from '../../lib/numero.ts';

/**
 * What the chat that ordered a start, shutdown or reboot hears when it has ended, well or badly
 * (Telegram HTML, the owner's language). A failure says why in the user's words and what the
 * server is now, as the hypervisor says it after the attempt.
 */

export type PowerAction = 'start' | 'shutdown' | 'reboot';

/** Why an operation failed, as the user is told it (the operators' log keeps the details). */
export type FailureWhy = 'unavailable' | 'timeout' | 'not_found' | 'refused' | 'internal';

export interface PowerOutcome {
  serverId: number;
  action: PowerAction;
  /** null: done. */
  failed: FailureWhy | null;
  /** The machine's power after the operation. */
  power: PowerState;
}

const TEXTS = {
  en: {
    server: (id: number) => `<b>#${id}</b>`,
    done: {
      start: (s: string) => `Server ${s} has started and is running.`,
      shutdown: (s: string) => `Server ${s} has shut down.`,
      reboot: (s: string) => `Server ${s} has rebooted and is running.`,
    },
    verb: { start: 'started', shutdown: 'shut down', reboot: 'rebooted' },
    failed: (s: string, verb: string, why: string, now: string) =>
      `Server ${s} could not be ${verb}: ${why}. It is ${now} now. Try again in a few minutes, or write to support.`,
    why: {
      unavailable: 'the virtualization host could not be reached',
      timeout: 'the virtualization host did not finish in time',
      not_found: 'the machine was not found on the virtualization host',
      refused: 'the virtualization host refused the operation',
      internal: 'an internal error stopped the operation',
    },
    power: { running: 'running', stopped: 'shut down', unknown: 'in a state we cannot read' },
  },
  ru: {
    server: (id: number) => `<b>${numero(id)}</b>`,
    done: {
      start: (s: string) => `Сервер ${s} запущен и работает.`,
      shutdown: (s: string) => `Сервер ${s} выключен.`,
      reboot: (s: string) => `Сервер ${s} перезагружен и работает.`,
    },
    verb: { start: 'запустить', shutdown: 'выключить', reboot: 'перезагрузить' },
    failed: (s: string, verb: string, why: string, now: string) =>
      `Сервер ${s} не удалось ${verb}: ${why}. Сейчас он ${now}. Повторите через несколько минут или напишите в поддержку.`,
    why: {
      unavailable: 'сервер виртуализации недоступен',
      timeout: 'сервер виртуализации не успел завершить операцию',
      not_found: 'машина не найдена на сервере виртуализации',
      refused: 'сервер виртуализации отказал в операции',
      internal: 'операцию остановила внутренняя ошибка',
    },
    power: {
      running: 'работает',
      stopped: 'выключен',
      unknown: 'в состоянии, которое не удалось прочитать',
    },
  },
} satisfies Record<Language, unknown>;

export function powerOutcomeMessage(language: Language, outcome: PowerOutcome): TelegramMessage {
  const t = TEXTS[language];
  const server = t.server(outcome.serverId);
  if (outcome.failed === null) return { html: t.done[outcome.action](server) };
  return {
    html: t.failed(
      server,
      t.verb[outcome.action],
      escapeHtml(t.why[outcome.failed]),
      t.power[outcome.power],
    ),
  };
}
