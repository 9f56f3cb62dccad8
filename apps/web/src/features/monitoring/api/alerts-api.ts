import type { AlertHistory, AlertSettings, UpdateAlertSettings } from '@tradehost/contracts';
import { baseApi, SILENT } from '../../../shared/api/base-api';

export const ALERTS_PER_PAGE = 10;

const api = baseApi.enhanceEndpoints({
  addTagTypes: ['MonitoringAlerts', 'MonitoringAlertHistory'],
});

/** A monitoring account's alert rules, channels and reports, and its alert history. */
export const alertsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAlertSettings: build.query<AlertSettings, number>({
      query: (id) => `/user/monitoring/accounts/${id}/alerts`,
      providesTags: (_result, _error, id) => [{ type: 'MonitoringAlerts', id }],
      extraOptions: SILENT,
    }),
    updateAlertSettings: build.mutation<AlertSettings, UpdateAlertSettings & { id: number }>({
      query: ({ id, ...body }) => ({
        url: `/user/monitoring/accounts/${id}/alerts`,
        method: 'PATCH',
        body,
      }),
      // the answer is the settings as stored: no second read
      async onQueryStarted({ id }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(alertsApi.util.upsertQueryData('getAlertSettings', id, data));
      },
      extraOptions: SILENT,
    }),
    getAlertHistory: build.query<AlertHistory, { id: number; page: number }>({
      query: ({ id, page }) => ({
        url: `/user/monitoring/accounts/${id}/alerts/history`,
        params: { page, per_page: ALERTS_PER_PAGE },
      }),
      providesTags: (_result, _error, { id }) => [{ type: 'MonitoringAlertHistory', id }],
      extraOptions: SILENT,
    }),
  }),
});

export const { useGetAlertSettingsQuery, useUpdateAlertSettingsMutation, useGetAlertHistoryQuery } =
  alertsApi;
