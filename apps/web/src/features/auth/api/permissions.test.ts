import { describe, expect, it } from 'vitest';
import { makeStore } from '../../../app/store';
import { stubFetch } from '../../../test/fetch-stub';
import { authApi } from './auth-api';
import { toPermissions } from './permissions';

describe('toPermissions', () => {
  it('keeps the flags the server sends', () => {
    expect(toPermissions({ partner: false, monitoring: true })).toEqual({
      partner: false,
      monitoring: true,
    });
    expect(toPermissions({ partner: true, monitoring: false })).toEqual({
      partner: true,
      monitoring: false,
    });
  });

  it('makes a missing flag true', () => {
    expect(toPermissions({ partner: false })).toEqual({ partner: false, monitoring: true });
    expect(toPermissions({})).toEqual({ partner: true, monitoring: true });
  });

  it('makes a flag that is not a boolean true', () => {
    expect(toPermissions({ partner: 'no', monitoring: null })).toEqual({
      partner: true,
      monitoring: true,
    });
  });

  it('makes everything available without a body', () => {
    expect(toPermissions(undefined)).toEqual({ partner: true, monitoring: true });
    expect(toPermissions(null)).toEqual({ partner: true, monitoring: true });
    expect(toPermissions('oops')).toEqual({ partner: true, monitoring: true });
  });
});

describe('getPermissions', () => {
  it('answers the server flags', async () => {
    stubFetch({ 'GET /front/permissions': { body: { partner: false, monitoring: true } } });
    const result = await makeStore().dispatch(authApi.endpoints.getPermissions.initiate());
    expect(result.data).toEqual({ partner: false, monitoring: true });
  });

  it('answers the defaults when the call fails', async () => {
    stubFetch({
      'GET /front/permissions': { status: 500, body: { message: 'x', code: 'INTERNAL' } },
    });
    const result = await makeStore().dispatch(authApi.endpoints.getPermissions.initiate());
    expect(result.isError).toBe(false);
    expect(result.data).toEqual({ partner: true, monitoring: true });
  });

  it('answers the defaults when the server is unreachable', async () => {
    stubFetch({ 'GET /front/permissions': 'network-error' });
    const result = await makeStore().dispatch(authApi.endpoints.getPermissions.initiate());
    expect(result.data).toEqual({ partner: true, monitoring: true });
  });
});
