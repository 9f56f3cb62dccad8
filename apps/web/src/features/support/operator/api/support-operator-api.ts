import type {
  AdminDepartment,
  AdminDepartmentsResponse,
  AdminTicketActionResponse,
  AdminTicketResponse,
  AdminTicketSummary,
  CannedRepliesResponse,
  CannedReply,
  CannedReplyRequest,
  DepartmentRequest,
  Page,
  SupportQueuesResponse,
  TicketStatus,
  User,
} from '@tradehost/contracts';
import { baseApi, SILENT } from '../../../../shared/api/base-api';
import { queryParams } from '../../../operator/lib/query-params';

/**
 * The help desk's endpoints (/api/admin/support/..., role admin): the queues per department, the
 * tickets and their threads (internal notes included), replies and notes with files, assigning
 * and statuses; the canned replies and the departments. Silent like the rest of the area: the
 * screens show their own states.
 */

/** 'SupportDepartments': the users' list of departments (features/support), asked again after an edit. */
export const SUPPORT_OPERATOR_TAGS = [
  'OperatorSupportQueues',
  'OperatorTickets',
  'OperatorCannedReplies',
  'OperatorDepartments',
  'OperatorAudit',
  'SupportDepartments',
] as const;
type Tag =
  { type: (typeof SUPPORT_OPERATOR_TAGS)[number]; id: string | number } | 'SupportDepartments';

export const TICKETS_PER_PAGE = 20;

/** open: New and Processing; all: every status (the parameter left out). */
export type TicketStatusFilter = 'open' | TicketStatus | 'all';
export type AssigneeFilter = 'any' | 'me' | 'none';

export interface AdminTicketsArgs {
  status: TicketStatusFilter;
  assignee: AssigneeFilter;
  /** Undefined: every department. */
  department_id?: number;
  /** A ticket number, or part of the title or the user's e-mail; empty: no search. */
  search: string;
  page: number;
  per_page?: number;
}

export interface StaffMessageArgs {
  ticketId: number;
  text: string;
  /** An internal note (never shown to the user) rather than a reply. */
  internal: boolean;
  files: readonly File[];
}

const QUEUES: Tag = { type: 'OperatorSupportQueues', id: 'LIST' };
const TICKETS: Tag = { type: 'OperatorTickets', id: 'LIST' };
const CANNED: Tag = { type: 'OperatorCannedReplies', id: 'LIST' };
const DEPARTMENTS: Tag = { type: 'OperatorDepartments', id: 'LIST' };
const AUDIT: Tag = { type: 'OperatorAudit', id: 'LIST' };

const api = baseApi.enhanceEndpoints({ addTagTypes: [...SUPPORT_OPERATOR_TAGS, 'User'] });

/** After an action on a ticket: its thread, the lists, the queues' counts and the audit log. */
const ticketTags = (result: unknown, _error: unknown, args: { ticketId: number }): Tag[] =>
  result ? [{ type: 'OperatorTickets', id: args.ticketId }, TICKETS, QUEUES, AUDIT] : [];

export const supportOperatorApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * The signed-in operator, from the same GET /user/auth the header reads (whose ticket is
     * "mine"). An endpoint of its own keeps this feature apart from the auth feature.
     */
    getSupportOperator: build.query<Pick<User, 'id' | 'email'>, void>({
      query: () => '/user/auth',
      transformResponse: (user: User) => ({ id: user.id, email: user.email }),
      providesTags: ['User'],
      extraOptions: SILENT,
    }),

    getSupportQueues: build.query<SupportQueuesResponse, void>({
      query: () => '/admin/support/queues',
      extraOptions: SILENT,
      providesTags: [QUEUES],
    }),

    /** Waiting longest first, then the oldest activity. */
    getAdminTickets: build.query<Page<AdminTicketSummary>, AdminTicketsArgs>({
      query: ({ status, assignee, department_id, search, page, per_page = TICKETS_PER_PAGE }) => ({
        url: '/admin/support/tickets',
        params: queryParams({
          status: status === 'all' ? undefined : status,
          assignee: assignee === 'any' ? undefined : assignee,
          department_id,
          search: search.trim(),
          page,
          per_page,
        }),
      }),
      extraOptions: SILENT,
      providesTags: [TICKETS],
    }),

    /** The ticket and its whole thread, internal notes and status changes included. */
    getAdminTicket: build.query<AdminTicketResponse, number>({
      query: (id) => `/admin/support/tickets/${id}`,
      extraOptions: SILENT,
      providesTags: (_result, _error, id) => [{ type: 'OperatorTickets', id }],
    }),

    /**
     * A reply (the ticket goes Processing, the user is told) or an internal note; multipart. A
     * reply that would open a closed ticket while the user has another open one in its
     * department is refused with 409 TICKET_OPEN_EXISTS and that ticket's `ticket_id`
     * (`errorBody(error, ticketOpenConflictSchema)`); so is such a status change.
     */
    postStaffMessage: build.mutation<AdminTicketActionResponse, StaffMessageArgs>({
      query: ({ ticketId, text, internal, files }) => {
        const body = new FormData();
        body.append('text', text);
        body.append('internal', internal ? 'true' : 'false');
        for (const file of files) body.append('files', file, file.name);
        return { url: `/admin/support/tickets/${ticketId}/messages`, method: 'POST', body };
      },
      extraOptions: SILENT,
      invalidatesTags: ticketTags,
    }),

    /** `me` takes the ticket, null gives it back. */
    assignTicket: build.mutation<
      AdminTicketActionResponse,
      { ticketId: number; assignee: 'me' | null }
    >({
      query: ({ ticketId, assignee }) => ({
        url: `/admin/support/tickets/${ticketId}/assign`,
        method: 'POST',
        body: { assignee },
      }),
      extraOptions: SILENT,
      invalidatesTags: ticketTags,
    }),

    setTicketStatus: build.mutation<
      AdminTicketActionResponse,
      { ticketId: number; status: TicketStatus }
    >({
      query: ({ ticketId, status }) => ({
        url: `/admin/support/tickets/${ticketId}/status`,
        method: 'POST',
        body: { status },
      }),
      extraOptions: SILENT,
      invalidatesTags: ticketTags,
    }),

    getCannedReplies: build.query<CannedRepliesResponse, void>({
      query: () => '/admin/support/canned',
      extraOptions: SILENT,
      providesTags: [CANNED],
    }),

    createCannedReply: build.mutation<{ reply: CannedReply; message: string }, CannedReplyRequest>({
      query: (body) => ({ url: '/admin/support/canned', method: 'POST', body }),
      extraOptions: SILENT,
      invalidatesTags: (result) => (result ? [CANNED, AUDIT] : []),
    }),

    updateCannedReply: build.mutation<
      { reply: CannedReply; message: string },
      { id: number; body: CannedReplyRequest }
    >({
      query: ({ id, body }) => ({ url: `/admin/support/canned/${id}`, method: 'PUT', body }),
      extraOptions: SILENT,
      // a reply deleted meanwhile (404) leaves the list stale too
      invalidatesTags: (result, error) =>
        result ? [CANNED, AUDIT] : error?.status === 404 ? [CANNED] : [],
    }),

    deleteCannedReply: build.mutation<{ message: string }, { id: number }>({
      query: ({ id }) => ({ url: `/admin/support/canned/${id}`, method: 'DELETE' }),
      extraOptions: SILENT,
      invalidatesTags: (result, error) =>
        result ? [CANNED, AUDIT] : error?.status === 404 ? [CANNED] : [],
    }),

    /** Every department (the inactive ones too) with the operators whose mail it is. */
    getAdminDepartments: build.query<AdminDepartmentsResponse, void>({
      query: () => '/admin/support/departments',
      extraOptions: SILENT,
      providesTags: [DEPARTMENTS],
    }),

    createDepartment: build.mutation<
      { department: AdminDepartment; message: string },
      DepartmentRequest
    >({
      query: (body) => ({ url: '/admin/support/departments', method: 'POST', body }),
      extraOptions: SILENT,
      invalidatesTags: (result) =>
        result ? [DEPARTMENTS, QUEUES, AUDIT, 'SupportDepartments'] : [],
    }),

    updateDepartment: build.mutation<
      { department: AdminDepartment; message: string },
      { id: number; body: DepartmentRequest }
    >({
      query: ({ id, body }) => ({ url: `/admin/support/departments/${id}`, method: 'PUT', body }),
      extraOptions: SILENT,
      invalidatesTags: (result) =>
        result ? [DEPARTMENTS, QUEUES, AUDIT, 'SupportDepartments'] : [],
    }),
  }),
});

export const {
  useGetSupportOperatorQuery,
  useGetSupportQueuesQuery,
  useGetAdminTicketsQuery,
  useGetAdminTicketQuery,
  usePostStaffMessageMutation,
  useAssignTicketMutation,
  useSetTicketStatusMutation,
  useGetCannedRepliesQuery,
  useCreateCannedReplyMutation,
  useUpdateCannedReplyMutation,
  useDeleteCannedReplyMutation,
  useGetAdminDepartmentsQuery,
  useCreateDepartmentMutation,
  useUpdateDepartmentMutation,
} = supportOperatorApi;
