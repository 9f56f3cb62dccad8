import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { createTransform } from 'redux-persist';
import { loggedOut, tokenReceived } from '../../../shared/model/session';

export { loggedOut, tokenReceived };

/** The screens whose progress the slice keeps (verify: the e-mail confirmation link). */
export const STATUS_KINDS = ['login', 'signup', 'verify', 'forgot', 'reset'] as const;
export type StatusKind = (typeof STATUS_KINDS)[number];
export type RequestState = 'idle' | 'pending' | 'succeeded' | 'failed';
/** `message`: an error code of the contracts or the server's text (show it with errorText). */
export interface RequestStatus {
  state: RequestState;
  message?: string;
}

export interface AuthState {
  token: string | null;
  /** When the token expires, ISO-8601. */
  expires: string | null;
  authorized: boolean;
  /** The partner code from a `?ref=` link; prefills the signup form. */
  referralCode: string | null;
  statuses: Record<StatusKind, RequestStatus>;
}

const idle: RequestStatus = { state: 'idle' };
const idleStatuses = (): Record<StatusKind, RequestStatus> => ({
  login: idle,
  signup: idle,
  verify: idle,
  forgot: idle,
  reset: idle,
});

export const initialAuthState: AuthState = {
  token: null,
  expires: null,
  authorized: false,
  referralCode: null,
  statuses: idleStatuses(),
};

export const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    referralCodeStored(state, action: PayloadAction<string>) {
      state.referralCode = action.payload;
    },
    statusSet(state, action: PayloadAction<{ kind: StatusKind } & RequestStatus>) {
      const { kind, state: requestState, message } = action.payload;
      state.statuses[kind] =
        message === undefined ? { state: requestState } : { state: requestState, message };
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(tokenReceived, (state, action) => {
        state.token = action.payload.token;
        state.expires = action.payload.expires;
        state.authorized = true;
      })
      // The session and the statuses go. The referral code stays: it is where the visitor came
      // from, not part of a session, and a stale session refused at startup must not lose it
      // before the signup form reads it.
      .addCase(loggedOut, (state) => ({ ...initialAuthState, referralCode: state.referralCode }));
  },
});

export const { referralCodeStored, statusSet } = authSlice.actions;
export const authReducer = authSlice.reducer;

type WithAuth = { auth: AuthState };
export const selectAuthorized = (state: WithAuth) => state.auth.authorized;
export const selectReferralCode = (state: WithAuth) => state.auth.referralCode;
export const selectAuthStatus = (kind: StatusKind) => (state: WithAuth) =>
  state.auth.statuses[kind];

/** What survives a reload: the session and the referral code, never a request in progress. */
type PersistedAuth = Pick<AuthState, 'token' | 'expires' | 'authorized' | 'referralCode'>;
export const authPersistTransform = createTransform<AuthState, PersistedAuth>(
  ({ token, expires, authorized, referralCode }) => ({ token, expires, authorized, referralCode }),
  (stored) => ({ ...initialAuthState, ...stored, statuses: idleStatuses() }),
  { whitelist: ['auth'] },
);
