import type { FaqItem, FaqResponse } from '@tradehost/contracts';
import { baseApi, SILENT } from '../../../shared/api/base-api';

const api = baseApi.enhanceEndpoints({ addTagTypes: ['Faq'] });

/**
 * The FAQ as the reader sees it: the published questions, both languages, by group and position
 * (the page searches them itself). Tagged 'Faq': an operator's edit invalidating that tag shows
 * at once in the same console. The page shows its own failure (silent).
 */
export const faqApi = api.injectEndpoints({
  endpoints: (build) => ({
    getFaq: build.query<FaqItem[], void>({
      query: () => '/user/faq',
      transformResponse: (response: FaqResponse) => response.data,
      providesTags: ['Faq'],
      extraOptions: SILENT,
    }),
  }),
});

export const { useGetFaqQuery } = faqApi;
