import {
  SUCCESS_MESSAGES,
  type AlertResponse,
  type ChangeLanguageRequest,
  type MessageResponse,
} from '@tradehost/contracts';
import type { ServiceDeps } from '../deps.ts';
import { userRepository } from '../../db/users.ts';

export type UserService = ReturnType<typeof createUserService>;

export function createUserService({ db, now }: Pick<ServiceDeps, 'db' | 'now'>) {
  return {
    /** The console sends EN/RU; the account keeps en/ru (also the language of its e-mails). */
    async changeLanguage(
      userId: number,
      language: ChangeLanguageRequest['language'],
    ): Promise<MessageResponse> {
      await userRepository.setLanguage(db, userId, language === 'RU' ? 'ru' : 'en');
      return { message: SUCCESS_MESSAGES.LANGUAGE_CHANGED, code: 'LANGUAGE_CHANGED' };
    },

    async currentAlert(): Promise<AlertResponse> {
      const row = await userRepository.findCurrentAlert(db, now());
      return {
        alert: row
          ? { id: row.id, level: row.level, text_en: row.textEn, text_ru: row.textRu }
          : null,
      };
    },
  };
}
