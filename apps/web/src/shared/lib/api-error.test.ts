import { ticketOpenConflictSchema } from '@tradehost/contracts';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n';
import {
  applyFieldErrors,
  errorBody,
  errorText,
  fieldErrorText,
  hasErrorCode,
  toApiRequestError,
} from './api-error';

const en = i18n.getFixedT('en');
const ru = i18n.getFixedT('ru');
// the app bundles English only; Russian loads when first wanted
beforeAll(() => i18n.loadLanguages('ru'));

describe('errorText', () => {
  it('translates the code', () => {
    const error = { status: 401, code: 'LOGIN_NOT_FOUND', message: 'Login or password not found' };
    expect(errorText(en, error)).toBe('Login or password not found');
    expect(errorText(ru, error)).toBe('Неверный логин или пароль');
  });

  it('translates a connection failure', () => {
    expect(
      errorText(ru, { status: 0, code: 'NETWORK', message: 'TypeError: Failed to fetch' }),
    ).toMatch(/^Нет связи с сервером/);
  });

  it('falls back to the server message for an unknown code', () => {
    const error = {
      status: 409,
      code: 'NOT_A_KNOWN_CODE',
      message: 'A text only the server knows.',
    };
    expect(errorText(ru, error)).toBe('A text only the server knows.');
  });

  it('translates a server message that is one of the known English texts', () => {
    expect(errorText(ru, { status: 400, code: 'UNKNOWN', message: 'Email not found' })).toBe(
      'E-mail не найден',
    );
  });

  it('falls back to "Request X failure" without code or message', () => {
    expect(errorText(en, { status: 500 }, 'getUser')).toBe('Request getUser failure');
    expect(errorText(ru, undefined, 'getUser')).toBe('Ошибка запроса getUser');
    expect(errorText(en, undefined)).toBe('The request failed');
  });

  it('takes a bare code or text, as a form field keeps them', () => {
    expect(errorText(ru, 'PASSWORDS_DIFFER')).toBe('Пароли не совпадают');
    expect(errorText(ru, 'Some server text')).toBe('Some server text');
  });
});

describe('toApiRequestError', () => {
  it('keeps an API error body with its status', () => {
    expect(
      toApiRequestError({ status: 404, data: { message: 'Not found', code: 'NOT_FOUND' } }),
    ).toEqual({
      status: 404,
      code: 'NOT_FOUND',
      message: 'Not found',
    });
  });

  it('names a failed connection NETWORK with status 0', () => {
    expect(
      toApiRequestError({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' }),
    ).toMatchObject({
      status: 0,
      code: 'NETWORK',
    });
  });

  it('gives an answer that is not JSON the code of its status', () => {
    expect(
      toApiRequestError({
        status: 'PARSING_ERROR',
        originalStatus: 502,
        data: '<html>',
        error: 'SyntaxError',
      }),
    ).toEqual({ status: 502, code: 'INTERNAL', message: '' });
    expect(toApiRequestError({ status: 429, data: {} })).toMatchObject({
      code: 'TOO_MANY_REQUESTS',
    });
  });

  it('keeps a message that comes without a code', () => {
    expect(toApiRequestError({ status: 400, data: { message: 'Wallet is required' } })).toEqual({
      status: 400,
      code: 'UNKNOWN',
      message: 'Wallet is required',
    });
  });

  it('keeps only the text entries of the field errors', () => {
    expect(
      toApiRequestError({
        status: 422,
        data: {
          message: 'x',
          code: 'VALIDATION',
          errors: { email: ['EMAIL_INVALID', 3], name: [] },
        },
      }),
    ).toEqual({
      status: 422,
      code: 'VALIDATION',
      message: 'x',
      errors: { email: ['EMAIL_INVALID'] },
    });
  });
});

describe('the extra fields of an error body', () => {
  const conflict = {
    status: 409,
    data: {
      message: 'You already have an open ticket in this department',
      code: 'TICKET_OPEN_EXISTS',
      ticket_id: 7,
      open: { department: 'billing' },
    },
  };

  it('keeps the fields beside message, code and errors as details', () => {
    expect(toApiRequestError(conflict)).toEqual({
      status: 409,
      code: 'TICKET_OPEN_EXISTS',
      message: 'You already have an open ticket in this department',
      details: { ticket_id: 7, open: { department: 'billing' } },
    });
    expect(
      toApiRequestError({
        status: 422,
        data: { message: 'x', code: 'VALIDATION', errors: { text: ['TOO_LONG'] }, limit: 5 },
      }),
    ).toEqual({
      status: 422,
      code: 'VALIDATION',
      message: 'x',
      errors: { text: ['TOO_LONG'] },
      details: { limit: 5 },
    });
  });

  it('reads the whole body with a contract schema', () => {
    const error = toApiRequestError(conflict);
    expect(errorBody(error, ticketOpenConflictSchema)).toEqual({
      message: 'You already have an open ticket in this department',
      code: 'TICKET_OPEN_EXISTS',
      ticket_id: 7,
    });
  });

  it('reads nothing from a body of another shape, or from what is not a failed call', () => {
    const withoutTicket = toApiRequestError({
      status: 409,
      data: { message: 'Conflict', code: 'TICKET_OPEN_EXISTS' },
    });
    expect(withoutTicket).not.toHaveProperty('details');
    expect(errorBody(withoutTicket, ticketOpenConflictSchema)).toBeUndefined();
    const otherCode = toApiRequestError({
      status: 409,
      data: { message: 'Closed', code: 'TICKET_CLOSED', ticket_id: 7 },
    });
    expect(errorBody(otherCode, ticketOpenConflictSchema)).toBeUndefined();
    expect(errorBody(new Error('TICKET_OPEN_EXISTS'), ticketOpenConflictSchema)).toBeUndefined();
    expect(errorBody(undefined, ticketOpenConflictSchema)).toBeUndefined();
  });
});

describe('the form helpers', () => {
  const taken = {
    status: 422,
    code: 'VALIDATION',
    message: 'The given data was invalid',
    errors: { txid: ['This txid is already in use.'], wallet: ['Free text from the server'] },
  };

  it('tells a code by the code or by its English text', () => {
    expect(
      hasErrorCode({ status: 403, code: 'EMAIL_NOT_VERIFIED', message: '' }, 'EMAIL_NOT_VERIFIED'),
    ).toBe(true);
    expect(
      hasErrorCode(
        { status: 403, code: 'UNKNOWN', message: 'Email not verified' },
        'EMAIL_NOT_VERIFIED',
      ),
    ).toBe(true);
    expect(
      hasErrorCode({ status: 403, code: 'FORBIDDEN', message: '' }, 'EMAIL_NOT_VERIFIED'),
    ).toBe(false);
    expect(hasErrorCode(new Error('EMAIL_NOT_VERIFIED'), 'EMAIL_NOT_VERIFIED')).toBe(false);
  });

  it('puts a 422 on its fields, codes where the text is known, and names the first in form order', () => {
    const setError = vi.fn();
    expect(applyFieldErrors(taken, ['amount', 'wallet', 'txid'], setError)).toBe('wallet');
    expect(setError).toHaveBeenCalledWith('wallet', {
      type: 'server',
      message: 'Free text from the server',
    });
    expect(setError).toHaveBeenCalledWith('txid', { type: 'server', message: 'TXID_IN_USE' });
    expect(
      applyFieldErrors({ status: 0, code: 'NETWORK', message: '' }, ['txid'], setError),
    ).toBeUndefined();
  });

  it('translates a field message that is a code, and keeps any other text', () => {
    expect(fieldErrorText(ru, 'TXID_IN_USE')).toBe('Этот TXID уже используется.');
    expect(fieldErrorText(en, 'Free text from the server')).toBe('Free text from the server');
    expect(fieldErrorText(en, undefined)).toBeUndefined();
  });
});
