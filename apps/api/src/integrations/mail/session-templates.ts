import type { Language } from '@tradehost/contracts';
import { safetyLetter, utc, type RenderedMail } from './templates.ts';

/** The letters about sign-ins (sessions). */

/**
 * A refresh token was used twice: someone holds a copy of a sign-in's token. That sign-in has
 * been ended; the owner is told when, and to change the password if it was not them.
 */
export function tokenReuseMail(
  language: Language,
  input: { name: string; at: Date; resetLink: string },
): RenderedMail {
  const { at } = input;
  return safetyLetter(language, input, {
    ru: [
      'сеанс завершён для защиты',
      [
        `${utc(at)} ключ одного из ваших сеансов был предъявлен повторно: так бывает, когда его копия попала к кому-то ещё. Мы завершили этот сеанс.`,
        'Если вы просто открыли консоль в двух окнах, войдите снова. Если нет, смените пароль: это завершит все сеансы, и напишите в поддержку.',
      ],
    ],
    en: [
      'a session was ended to protect you',
      [
        `At ${utc(at)} the key of one of your sessions was presented a second time: this happens when someone else holds a copy of it. We have ended that session.`,
        'If you simply had the console open in two windows, sign in again. If not, reset your password, which ends every session, and write to support.',
      ],
    ],
  });
}
