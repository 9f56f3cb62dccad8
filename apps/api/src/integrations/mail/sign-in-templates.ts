import { isIP } from 'node:net';
import type { Language } from '@tradehost/contracts';
import { safetyLetter, utc, type RenderedMail } from './templates.ts';

/** The letters of sign-in's guard and of the password reset by code. */

/** The client's address as the request gave it, if it is one (X-Forwarded-For could say anything). */
const addressOf = (ip: string | null) => (ip && isIP(ip) ? ip : '?');

/**
 * Too many wrong passwords: sign-in to the account is locked until `until`. Tells from which
 * address the last try came and when, and offers the password reset (which also unlocks).
 */
export function signInLockedMail(
  language: Language,
  input: { name: string; at: Date; until: Date; ip: string | null; resetLink: string },
): RenderedMail {
  const { at, until } = input;
  const ip = addressOf(input.ip);
  return safetyLetter(language, input, {
    ru: [
      'вход в аккаунт временно заблокирован',
      [
        `В ваш аккаунт много раз подряд пытались войти с неверным паролем, последний раз ${utc(at)} с адреса ${ip}.`,
        `Чтобы защитить аккаунт, мы заблокировали вход до ${utc(until)}. После этого вы сможете войти со своим паролем как обычно.`,
        'Если это были не вы, смените пароль по коду из письма: сброс пароля сразу снимает блокировку.',
      ],
    ],
    en: [
      'sign-in to your account is locked for a while',
      [
        `Someone tried to sign in to your account with a wrong password many times in a row, the last time at ${utc(at)} from the address ${ip}.`,
        `To protect the account, we have locked sign-in until ${utc(until)}. After that you can sign in with your password as usual.`,
        'If this was not you, reset your password with an e-mailed code: a reset also ends the lock at once.',
      ],
    ],
  });
}

/**
 * The password was reset with a mailed code: when, from which address, that every session has
 * been signed out, and what to do if it was not the owner.
 */
export function passwordResetMail(
  language: Language,
  input: { name: string; at: Date; ip: string | null; resetLink: string },
): RenderedMail {
  const { at } = input;
  const ip = addressOf(input.ip);
  return safetyLetter(language, input, {
    ru: [
      'пароль сброшен',
      [
        `Пароль вашего аккаунта сброшен по коду из письма ${utc(at)} с адреса ${ip}.`,
        'Все сеансы завершены: войдите с новым паролем на своих устройствах.',
        'Если это были не вы, сразу сбросьте пароль ещё раз и напишите в поддержку: у кого-то есть доступ к вашей почте.',
      ],
    ],
    en: [
      'your password was reset',
      [
        `The password of your account was reset with an e-mailed code at ${utc(at)} from the address ${ip}.`,
        'Every session has been signed out: sign in with the new password on your devices.',
        'If this was not you, reset the password again at once and write to support: someone has access to your e-mail.',
      ],
    ],
  });
}
