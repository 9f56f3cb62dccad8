import type { AdminUser, AuditEntry, LedgerEntry, Page } from '@tradehost/contracts';
import { baseApi, SILENT } from '../../../shared/api/base-api';
import { queryParams } from '../lib/query-params';

/**
 * The operator area's own endpoints (/api/admin/users, /api/admin/audit: the API's admin module):
 * the users, one user and their ledger, and the audit log. Each domain's operator screens have
 * their API slice beside them (features/<domain>/operator/api). Their cache tags join the API's
 * here and there (enhanceEndpoints), so base-api.ts does not list them. Every call is silent:
 * the screens show their own loading, empty and error states.
 */

export const OPERATOR_TAGS = ['OperatorUsers', 'OperatorLedger', 'OperatorAudit'] as const;

export interface UsersArgs {
  query: string;
  page: number;
  per_page?: number;
}

export interface LedgerArgs {
  userId: number;
  page: number;
  per_page?: number;
}

export interface PageArgs {
  page: number;
  per_page?: number;
}

export const USERS_PER_PAGE = 20;
export const LEDGER_PER_PAGE = 20;
export const AUDIT_PER_PAGE = 25;

const api = baseApi.enhanceEndpoints({ addTagTypes: OPERATOR_TAGS });

export const operatorApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAdminUsers: build.query<Page<AdminUser>, UsersArgs>({
      query: ({ query, page, per_page = USERS_PER_PAGE }) => ({
        url: '/admin/users',
        params: queryParams({ query: query.trim(), page, per_page }),
      }),
      extraOptions: SILENT,
      providesTags: [{ type: 'OperatorUsers', id: 'LIST' }],
    }),

    getAdminUser: build.query<{ user: AdminUser }, number>({
      query: (id) => `/admin/users/${id}`,
      extraOptions: SILENT,
      providesTags: (_result, _error, id) => [{ type: 'OperatorUsers', id }],
    }),

    getUserLedger: build.query<Page<LedgerEntry>, LedgerArgs>({
      query: ({ userId, page, per_page = LEDGER_PER_PAGE }) => ({
        url: `/admin/users/${userId}/ledger`,
        params: queryParams({ page, per_page }),
      }),
      extraOptions: SILENT,
      providesTags: (_result, _error, { userId }) => [{ type: 'OperatorLedger', id: userId }],
    }),

    getAudit: build.query<Page<AuditEntry>, PageArgs>({
      query: ({ page, per_page = AUDIT_PER_PAGE }) => ({
        url: '/admin/audit',
        params: queryParams({ page, per_page }),
      }),
      extraOptions: SILENT,
      providesTags: [{ type: 'OperatorAudit', id: 'LIST' }],
    }),
  }),
});

export const {
  useGetAdminUsersQuery,
  useGetAdminUserQuery,
  useGetUserLedgerQuery,
  useGetAuditQuery,
} = operatorApi;
