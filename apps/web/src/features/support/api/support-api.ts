import type {
  Department,
  DepartmentsResponse,
  TicketActionResponse,
  TicketResponse,
  TicketsResponse,
} from '@tradehost/contracts';
import { baseApi, SILENT } from '../../../shared/api/base-api';

const TAGS = ['SupportDepartments', 'SupportTickets', 'SupportUnread'] as const;
const api = baseApi.enhanceEndpoints({ addTagTypes: TAGS });
const LIST = { type: 'SupportTickets', id: 'LIST' } as const;

export const TICKETS_PER_PAGE = 20;
/** The ticket's thread is asked again this often while it is open and the page shown. */
export const TICKET_POLL_MS = 10_000;
/** The list and the navigation's unread count, less often. */
export const LIST_POLL_MS = 30_000;
export const UNREAD_POLL_MS = 60_000;

export type TicketStatusFilter = 'open' | 'new' | 'processing' | 'closed';

export interface TicketsArgs {
  status?: TicketStatusFilter;
  departmentId?: number;
  page: number;
  perPage?: number;
}

export interface NewTicket {
  departmentId: number;
  title: string;
  text: string;
  files: File[];
}

export interface NewMessage {
  ticketId: number;
  text: string;
  files: File[];
}

function multipart(fields: Record<string, string>, files: File[]): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const file of files) body.append('files', file, file.name);
  return body;
}

/**
 * The reader's support tickets. Writing, opening and closing invalidate the list and the unread
 * count; reading a ticket marks it read on the server, so when a ticket's answer shows something
 * new, the list and the count are asked again. The pages show their own failures (silent).
 */
export const supportApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSupportDepartments: build.query<Department[], void>({
      query: () => '/user/support/departments',
      transformResponse: (response: DepartmentsResponse) => response.data,
      providesTags: ['SupportDepartments'],
      extraOptions: SILENT,
    }),
    getTickets: build.query<TicketsResponse, TicketsArgs>({
      query: ({ status, departmentId, page, perPage = TICKETS_PER_PAGE }) => ({
        url: '/user/support/tickets',
        params: {
          ...(status ? { status } : {}),
          ...(departmentId ? { department_id: departmentId } : {}),
          page,
          per_page: perPage,
        },
      }),
      providesTags: [LIST],
      extraOptions: SILENT,
    }),
    /** Tickets with news from the staff: the navigation's badge. */
    getSupportUnread: build.query<number, void>({
      query: () => '/user/support/unread',
      transformResponse: (response: { count: number }) => response.count,
      providesTags: ['SupportUnread'],
      extraOptions: SILENT,
    }),
    getTicket: build.query<TicketResponse, number>({
      query: (id) => `/user/support/tickets/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'SupportTickets', id }],
      async onQueryStarted(_id, { dispatch, getCacheEntry, queryFulfilled }) {
        // what the page showed until now (the entry keeps it while the next answer comes)
        const before = getCacheEntry().data;
        try {
          const { data } = await queryFulfilled;
          const seen = before?.ticket.updated_at === data.ticket.updated_at && !data.ticket.unread;
          // the server marked it read as it answered: the list and the badge follow
          if (!seen) dispatch(supportApi.util.invalidateTags([LIST, 'SupportUnread']));
        } catch {
          // the page shows the failure
        }
      },
      extraOptions: SILENT,
    }),
    /**
     * multipart: the fields and up to five `files`. A 409 TICKET_OPEN_EXISTS names the open one
     * (`errorBody(error, ticketOpenConflictSchema)`).
     */
    createTicket: build.mutation<TicketActionResponse, NewTicket>({
      query: ({ departmentId, title, text, files }) => ({
        url: '/user/support/tickets',
        method: 'POST',
        body: multipart({ department_id: String(departmentId), title, text }, files),
      }),
      invalidatesTags: (result) => (result ? [LIST, 'SupportUnread'] : []),
      extraOptions: SILENT,
    }),
    /** A message; on a closed ticket it resumes it (unless another of its department is open). */
    sendTicketMessage: build.mutation<TicketActionResponse, NewMessage>({
      query: ({ ticketId, text, files }) => ({
        url: `/user/support/tickets/${ticketId}/messages`,
        method: 'POST',
        body: multipart({ text }, files),
      }),
      invalidatesTags: (result, _error, { ticketId }) =>
        result ? [LIST, { type: 'SupportTickets', id: ticketId }] : [],
      extraOptions: SILENT,
    }),
    closeTicket: build.mutation<TicketActionResponse, number>({
      query: (id) => ({ url: `/user/support/tickets/${id}/close`, method: 'POST' }),
      // closed already (TICKET_CLOSED): the page shows it as it is now
      invalidatesTags: (result, error, id) =>
        result || error?.code === 'TICKET_CLOSED' ? [LIST, { type: 'SupportTickets', id }] : [],
      extraOptions: SILENT,
    }),
  }),
});

export const {
  useGetSupportDepartmentsQuery,
  useGetTicketsQuery,
  useGetSupportUnreadQuery,
  useGetTicketQuery,
  useCreateTicketMutation,
  useSendTicketMessageMutation,
  useCloseTicketMutation,
} = supportApi;
