import { PARTNER_CODE_MAX } from '@tradehost/contracts';
import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { readStorage, writeStorage } from '../../../shared/lib/preferences';
import { referralCodeStored } from './auth-slice';

export const REFERRAL_PARAM = 'ref';
const clickKey = (code: string) => `tradehost:referral-click:${code}`;

/**
 * The partner code of a `?ref=CODE` link, taken out of the address bar (history.replaceState, so
 * no navigation and no history entry) so that it is neither bookmarked nor shared on. Call it
 * before the router reads the URL. Null when there is none or it cannot be a partner code.
 */
export function takeReferralCode(
  location: Location = window.location,
  history: History = window.history,
) {
  const url = new URL(location.href);
  const code = url.searchParams.get(REFERRAL_PARAM)?.trim();
  if (!url.searchParams.has(REFERRAL_PARAM)) return null;
  url.searchParams.delete(REFERRAL_PARAM);
  history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
  return code && code.length <= PARTNER_CODE_MAX ? code : null;
}

/**
 * Keeps the code for the signup form (state.auth.referralCode, persisted) and reports the click
 * (POST /clicks/create) once per tab session, so reloads and repeated links do not count again.
 * Dispatch it after the session is restored, or the restore would overwrite the code. The API
 * loads for the report (it is not part of the first view).
 */
export function recordReferral(code: string): ThunkAction<void, unknown, unknown, UnknownAction> {
  return (dispatch) => {
    dispatch(referralCodeStored(code));
    if (readStorage(clickKey(code), 'session')) return;
    writeStorage(clickKey(code), '1', 'session');
    void import('../api/auth-api').then(({ authApi }) =>
      dispatch(authApi.endpoints.createClick.initiate({ referral_code: code }, { track: false })),
    );
  };
}
