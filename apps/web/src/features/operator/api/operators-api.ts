import type { OperatorResponse, OperatorRole, OperatorsResponse } from '@tradehost/contracts';
import { baseApi, SILENT } from '../../../shared/api/base-api';

/**
 * The operators and their roles (/api/admin/operators: the API's admin module, role admin). A
 * grant or a revoke is a step-up call: the base query asks for a fresh proof when the API wants
 * one and sends it again. Either changes the user's role (users.role follows the roles), so the
 * users' records are asked again, and the signed-in user too (an admin's own roles). Silent: the
 * screens show their own failures.
 */

export const OPERATORS_TAG = 'Operators';

export interface RoleChange {
  userId: number;
  role: OperatorRole;
}

/** What a grant or a revoke that went through changes: the operators, the user, the signed-in user. */
const afterChange = (
  result: OperatorResponse | undefined,
  _error: unknown,
  { userId }: RoleChange,
) =>
  result
    ? [
        { type: OPERATORS_TAG, id: 'LIST' } as const,
        { type: 'OperatorUsers', id: userId } as const,
        { type: 'OperatorUsers', id: 'LIST' } as const,
        'User' as const,
      ]
    : [];

const api = baseApi.enhanceEndpoints({ addTagTypes: [OPERATORS_TAG, 'OperatorUsers'] });

export const operatorsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getOperators: build.query<OperatorsResponse, void>({
      query: () => '/admin/operators',
      extraOptions: SILENT,
      providesTags: [{ type: OPERATORS_TAG, id: 'LIST' }],
    }),

    grantRole: build.mutation<OperatorResponse, RoleChange>({
      query: ({ userId, role }) => ({
        url: `/admin/operators/${userId}/roles`,
        method: 'POST',
        body: { role },
      }),
      extraOptions: SILENT,
      invalidatesTags: afterChange,
    }),

    revokeRole: build.mutation<OperatorResponse, RoleChange>({
      query: ({ userId, role }) => ({
        url: `/admin/operators/${userId}/roles/${role}`,
        method: 'DELETE',
      }),
      extraOptions: SILENT,
      invalidatesTags: afterChange,
    }),
  }),
});

export const { useGetOperatorsQuery, useGrantRoleMutation, useRevokeRoleMutation } = operatorsApi;
