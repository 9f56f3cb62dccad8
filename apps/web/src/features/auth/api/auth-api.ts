import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type {
  Alert,
  AlertResponse,
  ChangeLanguageRequest,
  CheckForgotOtpRequest,
  ClickCreateRequest,
  ForgotPasswordRequest,
  LoginRequest,
  LoginResponse,
  PendingSignInRequest,
  SecondFactorSignInRequest,
  MessageResponse,
  Permissions,
  ResetPasswordRequest,
  SignupRequest,
  TokenResponse,
  User,
  VerifyEmailRequest,
} from '@tradehost/contracts';
import { baseApi, SILENT } from '../../../shared/api/base-api';
import { isApiRequestError } from '../../../shared/lib/api-error';
import type { SessionView } from '../../../shared/model/session';
import { loggedOut, statusSet, tokenReceived, type StatusKind } from '../model/auth-slice';
import { toPermissions } from './permissions';

type AppThunkDispatch = ThunkDispatch<unknown, unknown, UnknownAction>;

/** What a failed call leaves in the status: its error code when it has one, else its text. */
function statusMessage(error: unknown): string | undefined {
  if (!isApiRequestError(error)) return undefined;
  return error.code !== 'UNKNOWN' ? error.code : error.message;
}

/**
 * onQueryStarted that mirrors a call in `auth.statuses[kind]`; the message is the answer's code
 * (SUCCESS_MESSAGES or ERROR_MESSAGES of the contracts) when it has one, else its text.
 */
function trackStatus(kind: StatusKind) {
  return async (
    _arg: unknown,
    {
      dispatch,
      queryFulfilled,
    }: { dispatch: AppThunkDispatch; queryFulfilled: Promise<{ data: unknown }> },
  ) => {
    dispatch(statusSet({ kind, state: 'pending' }));
    try {
      const { data } = await queryFulfilled;
      const answer = data as Partial<MessageResponse> | undefined;
      dispatch(statusSet({ kind, state: 'succeeded', message: answer?.code ?? answer?.message }));
    } catch (failure) {
      dispatch(
        statusSet({
          kind,
          state: 'failed',
          message: statusMessage((failure as { error?: unknown }).error),
        }),
      );
    }
  };
}

/**
 * onQueryStarted of the calls that sign in: a token starts the session and the signed-in data
 * is fetched at once; a login that asks for a second factor starts nothing yet.
 */
async function startsSession(
  arg: unknown,
  api: {
    dispatch: AppThunkDispatch;
    queryFulfilled: Promise<{ data: LoginResponse }>;
  },
) {
  const tracking = trackStatus('login')(arg, api);
  try {
    const { data } = await api.queryFulfilled;
    if ('token' in data) {
      api.dispatch(tokenReceived(data));
      startSignedInFetches(api.dispatch);
    }
  } catch {
    // the status and the form carry the failure
  }
  await tracking;
}

const post =
  <T>(url: string) =>
  (body: T) => ({ url, method: 'POST', body });

/**
 * The account endpoints (SPEC section 7). The auth screens show their own failures, so those
 * calls are silent; the rest toast theirs.
 */
export const authApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    signup: build.mutation<MessageResponse, SignupRequest>({
      query: post('/user/auth/create'),
      extraOptions: SILENT,
      onQueryStarted: trackStatus('signup'),
    }),
    verifyEmail: build.mutation<MessageResponse, VerifyEmailRequest>({
      query: post('/user/auth/verify-email'),
      extraOptions: SILENT,
      onQueryStarted: trackStatus('verify'),
    }),
    /** On success the session starts and the signed-in data is fetched at once. */
    login: build.mutation<LoginResponse, LoginRequest>({
      query: post('/user/auth/login'),
      extraOptions: SILENT,
      onQueryStarted: startsSession,
    }),
    /** The sign-in's second step (a code, a recovery code or a passkey); then as login. */
    secondFactorSignIn: build.mutation<TokenResponse, SecondFactorSignInRequest>({
      query: post('/user/auth/second-factor'),
      extraOptions: SILENT,
      onQueryStarted: startsSession,
    }),
    /** Passkey options (a challenge) for the second step's half-session. */
    secondFactorPasskeyOptions: build.mutation<Record<string, unknown>, PendingSignInRequest>({
      query: post('/user/auth/second-factor/passkey-options'),
      extraOptions: SILENT,
    }),
    forgotPasswordCode: build.mutation<MessageResponse, ForgotPasswordRequest>({
      query: post('/user/auth/forgot-password-code'),
      extraOptions: SILENT,
      onQueryStarted: trackStatus('forgot'),
    }),
    checkForgotOtp: build.mutation<MessageResponse, CheckForgotOtpRequest>({
      query: post('/user/auth/check-forgot-otp'),
      extraOptions: SILENT,
      onQueryStarted: trackStatus('forgot'),
    }),
    resetPasswordWithCode: build.mutation<MessageResponse, ResetPasswordRequest>({
      query: post('/user/auth/reset-password-with-code'),
      extraOptions: SILENT,
      onQueryStarted: trackStatus('reset'),
    }),
    /** Whatever the server answers, the session ends here. */
    logout: build.mutation<unknown, void>({
      query: () => ({ url: '/user/auth/logout', method: 'POST' }),
      extraOptions: SILENT,
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch {
          // offline or already gone: logged out all the same
        } finally {
          dispatch(loggedOut());
        }
      },
    }),
    /** 401 ends the session (SPEC 8); 429 toasts through the base query and drops the user. */
    getUser: build.query<User, void>({
      query: () => '/user/auth',
      providesTags: ['User'],
      async onQueryStarted(_arg, { dispatch, getState, queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch (failure) {
          const error = (failure as { error?: unknown }).error;
          // once: the logout resets the cache, and a screen still mounted may ask again
          const { authorized } = (getState() as unknown as SessionView).auth;
          if (authorized && isApiRequestError(error) && error.status === 401) dispatch(loggedOut());
        }
      },
    }),
    changeLanguage: build.mutation<unknown, ChangeLanguageRequest>({
      query: post('/user/change_language'),
    }),
    /** Never fails: missing flags and a failed call read as available (DEFAULT_PERMISSIONS). */
    getPermissions: build.query<Permissions, void>({
      async queryFn(_arg, _api, _extraOptions, baseQuery) {
        const result = await baseQuery('/front/permissions');
        return { data: toPermissions(result.error ? undefined : result.data) };
      },
      providesTags: ['Permissions'],
      extraOptions: SILENT,
    }),
    getAlert: build.query<Alert | null, void>({
      query: () => '/user/alert',
      transformResponse: (response: AlertResponse | null) => response?.alert ?? null,
      providesTags: ['Alert'],
      extraOptions: SILENT,
    }),
    createClick: build.mutation<unknown, ClickCreateRequest>({
      query: post('/clicks/create'),
      extraOptions: SILENT,
    }),
  }),
});

/**
 * The fetches of a signed-in start (SPEC 7): the user (whose language the app then applies), the
 * permissions, the alert. After a sign-in they are made afresh (`force`); when a stored session
 * starts the console, cached answers serve.
 */
export function startSignedInFetches(dispatch: AppThunkDispatch, force = true): void {
  dispatch(authApi.util.prefetch('getUser', undefined, { force }));
  dispatch(authApi.util.prefetch('getPermissions', undefined, { force }));
  dispatch(authApi.util.prefetch('getAlert', undefined, { force }));
}

export const {
  useSignupMutation,
  useVerifyEmailMutation,
  useLoginMutation,
  useSecondFactorSignInMutation,
  useSecondFactorPasskeyOptionsMutation,
  useForgotPasswordCodeMutation,
  useCheckForgotOtpMutation,
  useResetPasswordWithCodeMutation,
  useLogoutMutation,
  useGetUserQuery,
  useChangeLanguageMutation,
  useGetPermissionsQuery,
  useGetAlertQuery,
  useCreateClickMutation,
} = authApi;
