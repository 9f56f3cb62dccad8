import type { FaqItem, FaqItemRequest, FaqResponse } from '@tradehost/contracts';
import { baseApi, SILENT } from '../../../../shared/api/base-api';

/**
 * The FAQ editor's endpoints (/api/admin/faq, role admin): every question, published or not, by
 * group and position; add, edit and delete one. Silent like the rest of the area.
 */

/** 'Faq': the users' FAQ (features/faq), shown again after an edit. */
export const FAQ_OPERATOR_TAGS = ['OperatorFaq', 'OperatorAudit', 'Faq'] as const;
type Tag = { type: (typeof FAQ_OPERATOR_TAGS)[number]; id: string } | 'Faq';

const FAQ: Tag = { type: 'OperatorFaq', id: 'LIST' };
const AUDIT: Tag = { type: 'OperatorAudit', id: 'LIST' };

export interface FaqItemAnswer {
  item: FaqItem;
  message: string;
}

const api = baseApi.enhanceEndpoints({ addTagTypes: FAQ_OPERATOR_TAGS });

/** A question deleted meanwhile (404) leaves the list stale too. */
const changedTags = (result: unknown, error: { status: number } | undefined): Tag[] =>
  result ? [FAQ, AUDIT, 'Faq'] : error?.status === 404 ? [FAQ] : [];

export const faqOperatorApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAdminFaq: build.query<FaqResponse, void>({
      query: () => '/admin/faq',
      extraOptions: SILENT,
      providesTags: [FAQ],
    }),

    /** 409 FAQ_SLUG_TAKEN when another question has the link name. */
    createFaqItem: build.mutation<FaqItemAnswer, FaqItemRequest>({
      query: (body) => ({ url: '/admin/faq', method: 'POST', body }),
      extraOptions: SILENT,
      invalidatesTags: changedTags,
    }),

    updateFaqItem: build.mutation<FaqItemAnswer, { id: number; body: FaqItemRequest }>({
      query: ({ id, body }) => ({ url: `/admin/faq/${id}`, method: 'PUT', body }),
      extraOptions: SILENT,
      invalidatesTags: changedTags,
    }),

    deleteFaqItem: build.mutation<{ message: string }, { id: number }>({
      query: ({ id }) => ({ url: `/admin/faq/${id}`, method: 'DELETE' }),
      extraOptions: SILENT,
      invalidatesTags: changedTags,
    }),
  }),
});

export const {
  useGetAdminFaqQuery,
  useCreateFaqItemMutation,
  useUpdateFaqItemMutation,
  useDeleteFaqItemMutation,
} = faqOperatorApi;
