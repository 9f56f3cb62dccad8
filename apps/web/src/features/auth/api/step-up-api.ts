import type { MessageResponse, StepUpRequest } from '@tradehost/contracts';
import { baseApi, SILENT } from '../../../shared/api/base-api';

/** Step-up: a fresh proof of the owner, asked before money or secrets leave (StepUpDialog). */
export const stepUpApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    stepUp: build.mutation<MessageResponse, StepUpRequest>({
      query: (body) => ({ url: '/user/auth/step-up', method: 'POST', body }),
      extraOptions: SILENT,
    }),
    stepUpPasskeyOptions: build.mutation<Record<string, unknown>, void>({
      query: () => ({ url: '/user/auth/step-up/passkey-options', method: 'POST' }),
      extraOptions: SILENT,
    }),
  }),
});

export const { useStepUpMutation, useStepUpPasskeyOptionsMutation } = stepUpApi;
