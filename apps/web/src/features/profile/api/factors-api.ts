import type {
  FactorsResponse,
  PasskeyAdded,
  PasskeyItem,
  PasskeyRegisterRequest,
  RecoveryCodesResponse,
  RemoveFactorRequest,
  TotpEnrolment,
} from '@tradehost/contracts';
import { baseApi, SILENT } from '../../../shared/api/base-api';

const api = baseApi.enhanceEndpoints({ addTagTypes: ['Factors', 'Activity'] });

/** What WebAuthn's options are to the page: @simplewebauthn's JSON, handed on as it came. */
export type PasskeyOptions = Record<string, unknown>;

/**
 * The profile's second-factor calls (/user/factors). Each change is written to the account's
 * activity, so 'Activity' is asked again with 'Factors'. Removing a factor and new recovery
 * codes are step-up actions: the base query asks the user to confirm and tries again. The
 * section shows its own failures (silent).
 */
export const factorsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getFactors: build.query<FactorsResponse, void>({
      query: () => '/user/factors',
      providesTags: ['Factors'],
      extraOptions: SILENT,
    }),
    /** A new secret for the authenticator app: its QR code and the base32 text. */
    startTotp: build.mutation<TotpEnrolment, void>({
      query: () => ({ url: '/user/factors/totp', method: 'POST' }),
      extraOptions: SILENT,
    }),
    /** The app's first code turns it on: the ten recovery codes, shown once. */
    confirmTotp: build.mutation<RecoveryCodesResponse, string>({
      query: (code) => ({ url: '/user/factors/totp/confirm', method: 'POST', body: { code } }),
      invalidatesTags: (result) => (result ? ['Factors', 'Activity'] : []),
      extraOptions: SILENT,
    }),
    disableTotp: build.mutation<FactorsResponse, RemoveFactorRequest>({
      query: (body) => ({ url: '/user/factors/totp/disable', method: 'POST', body }),
      invalidatesTags: (result) => (result ? ['Factors', 'Activity'] : []),
      extraOptions: SILENT,
    }),
    regenerateRecoveryCodes: build.mutation<RecoveryCodesResponse, void>({
      query: () => ({ url: '/user/factors/recovery-codes', method: 'POST' }),
      invalidatesTags: (result) => (result ? ['Factors', 'Activity'] : []),
      extraOptions: SILENT,
    }),
    /** Options for navigator.credentials.create(): a challenge of 5 minutes, good once. */
    passkeyRegistrationOptions: build.mutation<PasskeyOptions, void>({
      query: () => ({ url: '/user/factors/passkeys/options', method: 'POST' }),
      extraOptions: SILENT,
    }),
    /** The passkey added; the first factor of an account brings its recovery codes, shown once. */
    addPasskey: build.mutation<PasskeyAdded, PasskeyRegisterRequest>({
      query: (body) => ({ url: '/user/factors/passkeys', method: 'POST', body }),
      invalidatesTags: (result) => (result ? ['Factors', 'Activity'] : []),
      extraOptions: SILENT,
    }),
    /** Options for navigator.credentials.get(): the proof that removing the last factor takes. */
    passkeyAssertionOptions: build.mutation<PasskeyOptions, void>({
      query: () => ({ url: '/user/factors/passkeys/assertion-options', method: 'POST' }),
      extraOptions: SILENT,
    }),
    renamePasskey: build.mutation<PasskeyItem, { id: number; name: string }>({
      query: ({ id, name }) => ({
        url: `/user/factors/passkeys/${id}`,
        method: 'PATCH',
        body: { name },
      }),
      invalidatesTags: (result) => (result ? ['Factors'] : []),
      extraOptions: SILENT,
    }),
    removePasskey: build.mutation<FactorsResponse, { id: number } & RemoveFactorRequest>({
      query: ({ id, ...body }) => ({
        url: `/user/factors/passkeys/${id}/remove`,
        method: 'POST',
        body,
      }),
      invalidatesTags: (result) => (result ? ['Factors', 'Activity'] : []),
      extraOptions: SILENT,
    }),
  }),
});

export const {
  useGetFactorsQuery,
  useStartTotpMutation,
  useConfirmTotpMutation,
  useDisableTotpMutation,
  useRegenerateRecoveryCodesMutation,
  usePasskeyRegistrationOptionsMutation,
  useAddPasskeyMutation,
  usePasskeyAssertionOptionsMutation,
  useRenamePasskeyMutation,
  useRemovePasskeyMutation,
} = factorsApi;
