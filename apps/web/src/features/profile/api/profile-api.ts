import type {
  ChangeNameRequest,
  ChangePasswordRequest,
  MessageResponse,
  SecurityEventsResponse,
  SignOutOthersResponse,
  User,
  UserSessionsResponse,
} from '@tradehost/contracts';
import { baseApi, SILENT } from '../../../shared/api/base-api';

const api = baseApi.enhanceEndpoints({ addTagTypes: ['Sessions', 'Activity'] });

/**
 * The profile page's calls. Each change of the account invalidates 'User': the header's avatar
 * and name (GET /user/auth) follow at once. The forms show their own failures (silent).
 */
export const profileApi = api.injectEndpoints({
  endpoints: (build) => ({
    changeName: build.mutation<User, ChangeNameRequest>({
      query: (body) => ({ url: '/user/change_name', method: 'POST', body }),
      invalidatesTags: (result) => (result ? ['User'] : []),
      extraOptions: SILENT,
    }),
    /** multipart/form-data with the one file; the server checks and re-encodes it. */
    uploadAvatar: build.mutation<User, File>({
      query: (file) => {
        const body = new FormData();
        body.append('file', file, file.name);
        return { url: '/user/avatar', method: 'POST', body };
      },
      invalidatesTags: (result) => (result ? ['User'] : []),
      extraOptions: SILENT,
    }),
    removeAvatar: build.mutation<User, void>({
      query: () => ({ url: '/user/avatar', method: 'DELETE' }),
      invalidatesTags: (result) => (result ? ['User'] : []),
      extraOptions: SILENT,
    }),
    /** The other sessions end with it: the list is asked again. */
    changePassword: build.mutation<MessageResponse, ChangePasswordRequest>({
      query: (body) => ({ url: '/user/change_password', method: 'POST', body }),
      invalidatesTags: (result) => (result ? ['Sessions', 'Activity'] : []),
      extraOptions: SILENT,
    }),
    /** A page (from 1) of the sign-ins: this one first on the first page. */
    getSessions: build.query<UserSessionsResponse, number>({
      query: (page) => ({ url: '/user/sessions', params: { page } }),
      providesTags: ['Sessions'],
      extraOptions: SILENT,
    }),
    signOutOthers: build.mutation<SignOutOthersResponse, void>({
      query: () => ({ url: '/user/sessions/sign_out_others', method: 'POST' }),
      invalidatesTags: (result) => (result ? ['Sessions', 'Activity'] : []),
      extraOptions: SILENT,
    }),
    /** Ends one sign-in (its id); its access tokens stop at once. */
    endSession: build.mutation<MessageResponse, string>({
      query: (id) => ({ url: `/user/sessions/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (result) => (result ? ['Sessions', 'Activity'] : []),
      extraOptions: SILENT,
    }),
    /** A page (from 1) of the account's security log, newest first. */
    getActivity: build.query<SecurityEventsResponse, number>({
      query: (page) => ({ url: '/user/activity', params: { page } }),
      providesTags: ['Activity'],
      extraOptions: SILENT,
    }),
  }),
});

export const {
  useChangeNameMutation,
  useUploadAvatarMutation,
  useRemoveAvatarMutation,
  useChangePasswordMutation,
  useGetSessionsQuery,
  useSignOutOthersMutation,
  useEndSessionMutation,
  useGetActivityQuery,
} = profileApi;
