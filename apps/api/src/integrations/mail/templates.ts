import { formatCents, type Language } from '@tradehost/contracts';
import { escapeHtml } from '../../lib/html.ts';
import { numero } from '../../lib/numero.ts';
import { greeting, mailHtml, mailTitle, plainText, userText } from './user-text.ts';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export const BRAND = 'TradeHost';

/** Wraps paragraphs (already HTML) in a plain, inline-styled letter. */
export function layout(language: Language, title: string, paragraphs: string[]): string {
  return `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><title>${mailTitle(title)}</title></head>
<body style="margin:0;padding:24px;background:#f4f6fa;font-family:Arial,Helvetica,sans-serif;color:#1d2433">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
<p style="font-size:20px;font-weight:bold;margin:0 0 16px">${BRAND}</p>
${paragraphs.map((p) => `<p style="font-size:15px;line-height:1.5;margin:0 0 12px">${p}</p>`).join('\n')}
</div>
</body>
</html>
`;
}

export const button = (href: string, label: string) =>
  `<a href="${escapeHtml(href)}" style="display:inline-block;padding:10px 18px;background:#1a5fd0;color:#ffffff;border-radius:6px;text-decoration:none">${escapeHtml(label)}</a>`;

export function verificationMail(
  language: Language,
  input: { name: string; link: string },
): RenderedMail {
  const { name, link } = input;
  const hello = greeting(language, name);
  if (language === 'ru') {
    const subject = `${BRAND}: подтвердите e-mail`;
    return {
      subject,
      text: `${plainText(hello)}\n\nЧтобы подтвердить e-mail и завершить регистрацию в ${BRAND}, откройте ссылку:\n${link}\n\nСсылка действует 48 часов. Если вы не регистрировались, просто проигнорируйте это письмо.\n\n${BRAND}\n`,
      html: layout(language, subject, [
        mailHtml(hello),
        `Чтобы подтвердить e-mail и завершить регистрацию в ${BRAND}, нажмите кнопку:`,
        button(link, 'Подтвердить e-mail'),
        `Или откройте ссылку: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`,
        'Ссылка действует 48 часов. Если вы не регистрировались, просто проигнорируйте это письмо.',
      ]),
    };
  }
  const subject = `${BRAND}: confirm your e-mail`;
  return {
    subject,
    text: `${plainText(hello)}\n\nTo confirm your e-mail and finish signing up for ${BRAND}, open this link:\n${link}\n\nThe link works for 48 hours. If you did not sign up, ignore this e-mail.\n\n${BRAND}\n`,
    html: layout(language, subject, [
      mailHtml(hello),
      `To confirm your e-mail and finish signing up for ${BRAND}, press the button:`,
      button(link, 'Confirm e-mail'),
      `Or open this link: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`,
      'The link works for 48 hours. If you did not sign up, ignore this e-mail.',
    ]),
  };
}

export function resetCodeMail(
  language: Language,
  input: { name: string; code: string },
): RenderedMail {
  const { name, code } = input;
  const hello = greeting(language, name);
  const codeHtml = `<span style="font-size:28px;font-weight:bold;letter-spacing:6px">${escapeHtml(code)}</span>`;
  if (language === 'ru') {
    const subject = `${BRAND}: код для сброса пароля`;
    return {
      subject,
      text: `${plainText(hello)}\n\nВаш код для сброса пароля: ${code}\n\nКод действует 10 минут. Если вы не запрашивали сброс пароля, просто проигнорируйте это письмо.\n\n${BRAND}\n`,
      html: layout(language, subject, [
        mailHtml(hello),
        'Ваш код для сброса пароля:',
        codeHtml,
        'Код действует 10 минут. Если вы не запрашивали сброс пароля, просто проигнорируйте это письмо.',
      ]),
    };
  }
  const subject = `${BRAND}: your password reset code`;
  return {
    subject,
    text: `${plainText(hello)}\n\nYour password reset code: ${code}\n\nThe code works for 10 minutes. If you did not ask to reset your password, ignore this e-mail.\n\n${BRAND}\n`,
    html: layout(language, subject, [
      mailHtml(hello),
      'Your password reset code:',
      codeHtml,
      'The code works for 10 minutes. If you did not ask to reset your password, ignore this e-mail.',
    ]),
  };
}

// ---- VPS rental ------------------------------------------------------------------------------

/** "2026-03-05 14:00 UTC": one unambiguous form for both languages. */
export const utc = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
export const dollars = (cents: number) => `$${formatCents(cents)}`;

export interface VpsMailServer {
  name: string;
  serverId: number;
  /** "Trader, London (LD4)" */
  rate: string;
  /** The console's servers page. */
  link: string;
}

const openServers = (language: Language, link: string) => ({
  href: link,
  label: language === 'ru' ? 'Открыть мои серверы' : 'Open my servers',
});

/**
 * A letter to a user: "TradeHost: <subject>", the greeting, plain paragraphs (escaped for HTML,
 * their userText parts unlinkable: user-text.ts) and a button, to the console's servers page unless
 * told otherwise.
 */
export function userMail(
  language: Language,
  to: { name: string; link: string },
  subject: string,
  paragraphs: string[],
  action = openServers(language, to.link),
): RenderedMail {
  const title = `${BRAND}: ${subject}`;
  const lines = [greeting(language, to.name), ...paragraphs];
  return {
    subject: plainText(title),
    text: plainText(`${[...lines, `${action.label}: ${action.href}`, BRAND].join('\n\n')}\n`),
    html: layout(language, title, [...lines.map(mailHtml), button(action.href, action.label)]),
  };
}

/**
 * A letter about the account's safety (a lock, a reset, a changed password, an ended session):
 * `texts` gives each language's subject and paragraphs, and its button resets the password by an
 * e-mailed code, the one thing to do when it was not the owner.
 */
export function safetyLetter(
  language: Language,
  to: { name: string; resetLink: string },
  texts: Record<Language, [subject: string, paragraphs: string[]]>,
): RenderedMail {
  const [subject, paragraphs] = texts[language];
  return userMail(language, { name: to.name, link: to.resetLink }, subject, paragraphs, {
    href: to.resetLink,
    label: language === 'ru' ? 'Сбросить пароль' : 'Reset the password',
  });
}

/** The server is created and running; the password is only shown in the console. */
export function vpsReadyMail(
  language: Language,
  input: VpsMailServer & { host: string; port: number; username: string },
): RenderedMail {
  const { serverId, rate, host, port, username } = input;
  return language === 'ru'
    ? userMail(language, input, `сервер ${numero(serverId)} готов`, [
        `Ваш сервер ${numero(serverId)} (${rate}) создан и запущен.`,
        `Адрес для подключения по RDP: ${host}:${port}, пользователь: ${username}.`,
        'Пароль мы не отправляем по почте: откройте «Данные для входа» в списке серверов, там же можно скачать файл .rdp.',
      ])
    : userMail(language, input, `server #${serverId} is ready`, [
        `Your server #${serverId} (${rate}) is created and running.`,
        `Connect by RDP to ${host}:${port} as ${username}.`,
        'We never send the password by e-mail: open "Login details" in your servers list, where you can also download an .rdp file.',
      ]);
}

/** The server runs a fresh Windows from its rate's template, with a new password. */
export function vpsReinstalledMail(
  language: Language,
  input: VpsMailServer & { snapshot: boolean },
): RenderedMail {
  const { serverId, rate, snapshot } = input;
  return language === 'ru'
    ? userMail(language, input, `сервер ${numero(serverId)} переустановлен`, [
        `Windows на сервере ${numero(serverId)} (${rate}) установлена заново: адрес и срок оплаты прежние, программы и файлы нужно установить снова.`,
        'Пароль новый: откройте «Данные для входа» в консоли.',
        ...(snapshot ? ['Снимок прежнего состояния сохранён: к нему можно вернуться.'] : []),
      ])
    : userMail(language, input, `server #${serverId} is reinstalled`, [
        `Server #${serverId} (${rate}) runs a fresh Windows: its address and paid period are the same; programs and files need installing again.`,
        'The password is new: open "Login details" in the console.',
        ...(snapshot ? ['A snapshot of the previous state is kept: you can go back to it.'] : []),
      ]);
}

/** The server's Windows password was changed on the owner's request. */
export function vpsPasswordChangedMail(language: Language, input: VpsMailServer): RenderedMail {
  const { serverId, rate } = input;
  return language === 'ru'
    ? userMail(language, input, `новый пароль сервера ${numero(serverId)}`, [
        `Пароль Windows на сервере ${numero(serverId)} (${rate}) заменён новым по вашему запросу: откройте «Данные для входа» в консоли.`,
        'Если вы его не меняли, срочно смените пароль аккаунта и напишите в поддержку.',
      ])
    : userMail(language, input, `server #${serverId} has a new password`, [
        `The Windows password of server #${serverId} (${rate}) was replaced at your request: open "Login details" in the console.`,
        'If it was not you, change your account password at once and write to support.',
      ]);
}

/** The server could not be created; what was paid for it went back to the balance. */
export function vpsCreateFailedMail(
  language: Language,
  input: VpsMailServer & { reason: string; refundedCents: number | null },
): RenderedMail {
  const { serverId, rate, reason, refundedCents } = input;
  return language === 'ru'
    ? userMail(language, input, `не удалось создать сервер ${numero(serverId)}`, [
        `К сожалению, сервер ${numero(serverId)} (${rate}) создать не удалось. Причина: ${reason}`,
        refundedCents
          ? `Оплата ${dollars(refundedCents)} возвращена на ваш баланс.`
          : 'Оплата за этот сервер не списывалась.',
        'Вы можете заказать сервер ещё раз или написать в поддержку.',
      ])
    : userMail(language, input, `server #${serverId} could not be created`, [
        `We are sorry: server #${serverId} (${rate}) could not be created. Reason: ${reason}`,
        refundedCents
          ? `The payment of ${dollars(refundedCents)} has been returned to your balance.`
          : 'Nothing was charged for this server.',
        'You can order it again or write to support.',
      ]);
}

/** The paid period ends in `days` days (3 or 1). */
export function vpsExpiryWarningMail(
  language: Language,
  input: VpsMailServer & { days: number; paidUntil: Date; autoRenew: boolean },
): RenderedMail {
  const { serverId, rate, days, paidUntil, autoRenew } = input;
  const when = days === 1 ? 'через 1 день' : `через ${days} дня`;
  return language === 'ru'
    ? userMail(language, input, `сервер ${numero(serverId)} оплачен до ${utc(paidUntil)}`, [
        `Оплаченный период сервера ${numero(serverId)} (${rate}) заканчивается ${when}: ${utc(paidUntil)}.`,
        autoRenew
          ? 'Включено автопродление: пополните баланс, чтобы его хватило на следующий период.'
          : 'Продлите сервер, иначе после этой даты он будет заблокирован (данные сохранятся на время льготного периода).',
      ])
    : userMail(language, input, `server #${serverId} is paid until ${utc(paidUntil)}`, [
        `The paid period of server #${serverId} (${rate}) ends in ${days} ${days === 1 ? 'day' : 'days'}: ${utc(paidUntil)}.`,
        autoRenew
          ? 'Auto-renewal is on: make sure your balance covers the next period.'
          : 'Renew it, or after that date it is blocked (its data is kept for a grace period).',
      ]);
}

export function vpsAutoRenewedMail(
  language: Language,
  input: VpsMailServer & { months: number; chargedCents: number; paidUntil: Date },
): RenderedMail {
  const { serverId, rate, months, chargedCents, paidUntil } = input;
  return language === 'ru'
    ? userMail(language, input, `сервер ${numero(serverId)} продлён автоматически`, [
        `Сервер ${numero(serverId)} (${rate}) продлён автоматически на ${months} мес. С баланса списано ${dollars(chargedCents)}.`,
        `Теперь он оплачен до ${utc(paidUntil)}.`,
      ])
    : userMail(language, input, `server #${serverId} renewed automatically`, [
        `Server #${serverId} (${rate}) was renewed automatically for ${months} ${months === 1 ? 'month' : 'months'}; ${dollars(chargedCents)} was taken from your balance.`,
        `It is now paid until ${utc(paidUntil)}.`,
      ]);
}

export function vpsAutoRenewFailedMail(
  language: Language,
  input: VpsMailServer & { priceCents: number; balanceCents: number; paidUntil: Date },
): RenderedMail {
  const { serverId, rate, priceCents, balanceCents, paidUntil } = input;
  return language === 'ru'
    ? userMail(language, input, `не удалось продлить сервер ${numero(serverId)}`, [
        `Автопродление сервера ${numero(serverId)} (${rate}) не выполнено: на балансе ${dollars(balanceCents)}, а продление стоит ${dollars(priceCents)}.`,
        `Пополните баланс до ${utc(paidUntil)} — мы попробуем снова, — или продлите сервер вручную, иначе он будет заблокирован.`,
      ])
    : userMail(language, input, `server #${serverId} could not be renewed`, [
        `Auto-renewal of server #${serverId} (${rate}) did not go through: your balance is ${dollars(balanceCents)} and the renewal costs ${dollars(priceCents)}.`,
        `Top up before ${utc(paidUntil)} (we will try again) or renew it by hand, or it will be blocked.`,
      ]);
}

export function vpsBlockedMail(
  language: Language,
  input: VpsMailServer & { revokeAt: Date },
): RenderedMail {
  const { serverId, rate, revokeAt } = input;
  return language === 'ru'
    ? userMail(language, input, `сервер ${numero(serverId)} заблокирован`, [
        `Оплаченный период сервера ${numero(serverId)} (${rate}) закончился, сервер остановлен и заблокирован. Данные на нём сохранены.`,
        `Продлите его до ${utc(revokeAt)}, и он снова заработает. После этой даты сервер будет удалён вместе с данными.`,
      ])
    : userMail(language, input, `server #${serverId} is blocked`, [
        `The paid period of server #${serverId} (${rate}) has ended, so it is stopped and blocked. Its data is kept.`,
        `Renew it before ${utc(revokeAt)} and it runs again. After that date the server and its data are deleted.`,
      ]);
}

export function vpsReactivatedMail(
  language: Language,
  input: VpsMailServer & { paidUntil: Date },
): RenderedMail {
  const { serverId, rate, paidUntil } = input;
  return language === 'ru'
    ? userMail(language, input, `сервер ${numero(serverId)} снова работает`, [
        `Сервер ${numero(serverId)} (${rate}) разблокирован и запущен. Он оплачен до ${utc(paidUntil)}.`,
      ])
    : userMail(language, input, `server #${serverId} is running again`, [
        `Server #${serverId} (${rate}) is unblocked and running. It is paid until ${utc(paidUntil)}.`,
      ]);
}

export function vpsRevokedMail(language: Language, input: VpsMailServer): RenderedMail {
  const { serverId, rate } = input;
  return language === 'ru'
    ? userMail(language, input, `сервер ${numero(serverId)} удалён`, [
        `Сервер ${numero(serverId)} (${rate}) не был продлён в течение льготного периода, поэтому он удалён вместе с данными.`,
        'Новый сервер можно заказать в любое время.',
      ])
    : userMail(language, input, `server #${serverId} is revoked`, [
        `Server #${serverId} (${rate}) was not renewed within the grace period, so it has been deleted with its data.`,
        'You can order a new server at any time.',
      ]);
}

export function vpsUpgradeDoneMail(
  language: Language,
  input: VpsMailServer & { running: boolean },
): RenderedMail {
  const { serverId, rate, running } = input;
  return language === 'ru'
    ? userMail(language, input, `сервер ${numero(serverId)} переведён на новый тариф`, [
        `Сервер ${numero(serverId)} переведён на тариф ${rate}.`,
        running ? 'Он снова запущен.' : 'Сейчас он остановлен: запустите его из списка серверов.',
      ])
    : userMail(language, input, `server #${serverId} is upgraded`, [
        `Server #${serverId} now runs on the ${rate} rate.`,
        running ? 'It is running again.' : 'It is stopped now: start it from your servers list.',
      ]);
}

export function vpsUpgradeFailedMail(
  language: Language,
  input: VpsMailServer & { reason: string; refundedCents: number | null },
): RenderedMail {
  const { serverId, rate, reason, refundedCents } = input;
  return language === 'ru'
    ? userMail(language, input, `не удалось сменить тариф сервера ${numero(serverId)}`, [
        `Перевести сервер ${numero(serverId)} на тариф ${rate} не удалось. Причина: ${reason}`,
        refundedCents
          ? `Оплата ${dollars(refundedCents)} возвращена на ваш баланс, сервер остался на прежнем тарифе.`
          : 'Сервер остался на прежнем тарифе.',
      ])
    : userMail(language, input, `server #${serverId} could not be upgraded`, [
        `Server #${serverId} could not be moved to the ${rate} rate. Reason: ${reason}`,
        refundedCents
          ? `The payment of ${dollars(refundedCents)} has been returned to your balance; the server stays on its rate.`
          : 'The server stays on its rate.',
      ]);
}

/** An operator approved the test server: it is being created and runs for `trialDays` days. */
export function vpsTestApprovedMail(
  language: Language,
  input: VpsMailServer & { trialDays: number; paidUntil: Date },
): RenderedMail {
  const { serverId, rate, trialDays, paidUntil } = input;
  return language === 'ru'
    ? userMail(language, input, 'тестовый сервер одобрен', [
        `Ваша заявка на тестовый сервер одобрена. Сервер ${numero(serverId)} (${rate}) создаётся, это займёт несколько минут.`,
        `Он бесплатно работает ${trialDays} дн., до ${utc(paidUntil)}. Чтобы он работал и дальше, продлите его в списке серверов.`,
      ])
    : userMail(language, input, 'your test server is approved', [
        `Your test server request is approved. Server #${serverId} (${rate}) is being created; this takes a few minutes.`,
        `It runs free for ${trialDays} ${trialDays === 1 ? 'day' : 'days'}, until ${utc(paidUntil)}. To keep it afterwards, renew it in your servers list.`,
      ]);
}

/** An operator declined the test server, with the reason. */
export function vpsTestRejectedMail(
  language: Language,
  input: { name: string; reason: string; link: string },
): RenderedMail {
  const { reason, link } = input;
  return language === 'ru'
    ? userMail(
        language,
        input,
        'заявка на тестовый сервер отклонена',
        [
          `К сожалению, ваша заявка на тестовый сервер отклонена. Причина: ${reason}`,
          'Вы можете заказать сервер на любой срок на странице тарифов.',
        ],
        { href: link, label: 'Открыть тарифы' },
      )
    : userMail(
        language,
        input,
        'your test server request was declined',
        [
          `We are sorry: your test server request was declined. Reason: ${reason}`,
          'You can rent a server for any period on the rates page.',
        ],
        { href: link, label: 'Open the rates' },
      );
}

/** A monitoring subscription ends in 3 days or 1: renew it, or the publishers are refused. */
export function monitoringExpiryWarningMail(
  language: Language,
  input: {
    name: string;
    subscriptionId: number;
    days: number;
    endsAt: Date;
    retentionDays: number;
    link: string;
  },
): RenderedMail {
  const { subscriptionId, days, endsAt, link } = input;
  return language === 'ru'
    ? userMail(
        language,
        input,
        `подписка на мониторинг ${numero(subscriptionId)} заканчивается ${utc(endsAt)}`,
        [
          `Подписка на мониторинг ${numero(subscriptionId)} заканчивается ${days === 1 ? 'через 1 день' : `через ${days} дня`}: ${utc(endsAt)}.`,
          `Продлите её, иначе терминалы перестанут публиковать данные. Статистика счетов хранится ещё ${input.retentionDays} дн. после окончания.`,
        ],
        { href: link, label: 'Продлить подписку' },
      )
    : userMail(
        language,
        input,
        `monitoring subscription #${subscriptionId} ends on ${utc(endsAt)}`,
        [
          `Monitoring subscription #${subscriptionId} ends in ${days} ${days === 1 ? 'day' : 'days'}: ${utc(endsAt)}.`,
          `Renew it, or the terminals stop publishing. The accounts’ statistics are kept for ${input.retentionDays} days after the end.`,
        ],
        { href: link, label: 'Renew the subscription' },
      );
}

const openPartners = (language: Language, link: string) => ({
  href: link,
  label: language === 'ru' ? 'Открыть партнёрскую программу' : 'Open the partner programme',
});

/** A partner's withdrawal request is received: the amount is reserved, processed by the due day. */
export function withdrawalReceivedMail(
  language: Language,
  input: {
    name: string;
    link: string;
    amountCents: number;
    method: string;
    wallet: string;
    dueAt: Date;
  },
): RenderedMail {
  const { amountCents, method, dueAt, link } = input;
  const wallet = userText(input.wallet);
  return language === 'ru'
    ? userMail(
        language,
        input,
        'заявка на вывод получена',
        [
          `Мы получили вашу заявку на вывод ${dollars(amountCents)} (${method}) на кошелёк ${wallet}.`,
          `Сумма списана с партнёрского баланса. Заявка будет обработана до ${utc(dueAt)}.`,
        ],
        openPartners(language, link),
      )
    : userMail(
        language,
        input,
        'withdrawal request received',
        [
          `We have received your request to withdraw ${dollars(amountCents)} (${method}) to ${wallet}.`,
          `The amount has left your partner balance. The request will be processed by ${utc(dueAt)}.`,
        ],
        openPartners(language, link),
      );
}

/** The withdrawal is paid out, with the payment's reference. */
export function withdrawalPaidMail(
  language: Language,
  input: {
    name: string;
    link: string;
    amountCents: number;
    method: string;
    wallet: string;
    reference: string;
  },
): RenderedMail {
  const { amountCents, method, reference, link } = input;
  const wallet = userText(input.wallet);
  return language === 'ru'
    ? userMail(
        language,
        input,
        'вывод выплачен',
        [
          `Мы отправили ${dollars(amountCents)} (${method}) на кошелёк ${wallet}.`,
          `Номер платежа: ${reference}.`,
        ],
        openPartners(language, link),
      )
    : userMail(
        language,
        input,
        'withdrawal paid out',
        [
          `We have sent ${dollars(amountCents)} (${method}) to ${wallet}.`,
          `Payment reference: ${reference}.`,
        ],
        openPartners(language, link),
      );
}

/** The withdrawal is cancelled with the reason; the amount is back in the partner balance. */
export function withdrawalCancelledMail(
  language: Language,
  input: { name: string; link: string; amountCents: number; reason: string },
): RenderedMail {
  const { amountCents, reason, link } = input;
  return language === 'ru'
    ? userMail(
        language,
        input,
        'заявка на вывод отменена',
        [
          `Ваша заявка на вывод ${dollars(amountCents)} отменена. Причина: ${reason}`,
          'Сумма возвращена на партнёрский баланс: вы можете подать новую заявку.',
        ],
        openPartners(language, link),
      )
    : userMail(
        language,
        input,
        'withdrawal request cancelled',
        [
          `Your request to withdraw ${dollars(amountCents)} was cancelled. Reason: ${reason}`,
          'The amount is back in your partner balance: you can send a new request.',
        ],
        openPartners(language, link),
      );
}
