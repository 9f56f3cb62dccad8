import type {
  PortfolioResponse,
  PortfolioSummary,
  PublicPortfolioResponse,
} from '@tradehost/contracts';
import { baseApi, SILENT } from '../../../shared/api/base-api';

export interface PortfolioBody {
  name?: string;
  account_ids?: number[];
  is_public?: boolean;
  hide_money?: boolean;
}

/**
 * MonitoringPortfolios: the reader's portfolios. They combine accounts, so whatever changes an
 * account (MonitoringAccounts: a rename, a deletion, its new figures) refreshes them too.
 */
const api = baseApi.enhanceEndpoints({
  addTagTypes: ['MonitoringPortfolios', 'MonitoringAccounts'],
});
const SHOWN = ['MonitoringPortfolios', 'MonitoringAccounts'] as const;

/** Portfolios: several of the reader's monitored accounts seen as one, and their public pages. */
export const portfoliosApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPortfolios: build.query<PortfolioSummary[], void>({
      query: () => '/user/monitoring/portfolios',
      transformResponse: (r: { portfolios: PortfolioSummary[] }) => r.portfolios,
      providesTags: [...SHOWN],
      extraOptions: SILENT,
    }),
    /** The reader's portfolio of a public id alone, for its page (null: not theirs). */
    getOwnPortfolio: build.query<PortfolioSummary | null, string>({
      query: (monitoringId) => ({
        url: '/user/monitoring/portfolios',
        params: { monitoring_id: monitoringId },
      }),
      transformResponse: (r: { portfolios: PortfolioSummary[] }, _meta, monitoringId) =>
        r.portfolios.find((p) => p.monitoring_id === monitoringId) ?? null,
      providesTags: [...SHOWN],
      extraOptions: SILENT,
    }),
    getPortfolio: build.query<PortfolioResponse, number>({
      query: (id) => `/user/monitoring/portfolios/${id}`,
      providesTags: [...SHOWN],
      extraOptions: SILENT,
    }),
    createPortfolio: build.mutation<PortfolioResponse, PortfolioBody>({
      query: (body) => ({ url: '/user/monitoring/portfolios', method: 'POST', body }),
      invalidatesTags: (result) => (result ? ['MonitoringPortfolios'] : []),
      extraOptions: SILENT,
    }),
    updatePortfolio: build.mutation<PortfolioResponse, PortfolioBody & { id: number }>({
      query: ({ id, ...body }) => ({
        url: `/user/monitoring/portfolios/${id}`,
        method: 'PATCH',
        body,
      }),
      invalidatesTags: (result) => (result ? ['MonitoringPortfolios'] : []),
      extraOptions: SILENT,
    }),
    deletePortfolio: build.mutation<void, number>({
      query: (id) => ({ url: `/user/monitoring/portfolios/${id}`, method: 'DELETE' }),
      invalidatesTags: (_result, error) => (error ? [] : ['MonitoringPortfolios']),
      extraOptions: SILENT,
    }),
    getPublicPortfolio: build.query<PublicPortfolioResponse, string>({
      query: (monitoringId) => `/monitoring/portfolios/${monitoringId}`,
      extraOptions: SILENT,
    }),
  }),
});

export const {
  useGetPortfoliosQuery,
  useGetOwnPortfolioQuery,
  useGetPortfolioQuery,
  useCreatePortfolioMutation,
  useUpdatePortfolioMutation,
  useDeletePortfolioMutation,
  useGetPublicPortfolioQuery,
} = portfoliosApi;
