import type {
  MessageResponse,
  TelegramLinkResponse,
  TelegramPurpose,
  TelegramStatusResponse,
} from '@tradehost/contracts';
import { baseApi, SILENT } from '../../../shared/api/base-api';

const api = baseApi.enhanceEndpoints({ addTagTypes: ['TelegramStatus'] });

/**
 * The profile's chat-bot calls: the status per purpose, a one-time deep link, unlinking. A link
 * or an unlink changes the user's telegram_link fields, so 'User' is asked again too. The section
 * shows its own failures (silent).
 */
export const telegramApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTelegramStatus: build.query<TelegramStatusResponse, void>({
      query: () => '/user/telegram',
      providesTags: ['TelegramStatus'],
      extraOptions: SILENT,
    }),
    createTelegramLink: build.mutation<TelegramLinkResponse, TelegramPurpose>({
      query: (purpose) => ({ url: '/user/telegram/link', method: 'POST', body: { purpose } }),
      extraOptions: SILENT,
    }),
    unlinkTelegram: build.mutation<MessageResponse, TelegramPurpose>({
      query: (purpose) => ({ url: `/user/telegram/link/${purpose}`, method: 'DELETE' }),
      invalidatesTags: (result) => (result ? ['TelegramStatus', 'User'] : []),
      extraOptions: SILENT,
    }),
  }),
});

export const {
  useGetTelegramStatusQuery,
  useCreateTelegramLinkMutation,
  useUnlinkTelegramMutation,
} = telegramApi;
