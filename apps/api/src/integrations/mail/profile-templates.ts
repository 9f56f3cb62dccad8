import type { Language } from '@tradehost/contracts';
import { safetyLetter, utc, type RenderedMail } from './templates.ts';

/** The profile's letters. */

/**
 * The password was changed from the profile: when, that the other sessions are signed out, and
 * what to do if it was not the account's owner (the button resets the password by e-mail code).
 */
export function passwordChangedMail(
  language: Language,
  input: { name: string; at: Date; signedOut: number; resetLink: string },
): RenderedMail {
  const { at, signedOut } = input;
  return safetyLetter(language, input, {
    ru: [
      'пароль изменён',
      [
        `Пароль вашего аккаунта изменён ${utc(at)} на странице профиля.`,
        signedOut > 0
          ? 'Все остальные сеансы завершены: на других устройствах войдите с новым паролем.'
          : 'Других активных сеансов не было.',
        'Если это были не вы, сразу сбросьте пароль по коду из письма и напишите в поддержку.',
      ],
    ],
    en: [
      'your password was changed',
      [
        `The password of your account was changed on the profile page at ${utc(at)}.`,
        signedOut > 0
          ? 'Every other session has been signed out: sign in with the new password on your other devices.'
          : 'There were no other sessions to sign out.',
        'If this was not you, reset your password with an e-mailed code at once and write to support.',
      ],
    ],
  });
}
