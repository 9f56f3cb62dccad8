import { describe, expect, it } from 'vitest';
import {
  checkForgotOtpRequestSchema,
  clickCreateRequestSchema,
  resetPasswordRequestSchema,
  signupRequestSchema,
} from './auth.ts';
import { ERROR_MESSAGES, errorCodeOf, isErrorCode } from './errors.ts';
import { SUCCESS_MESSAGES } from './messages.ts';

const issuesOf = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) =>
  Object.fromEntries(
    (result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]),
  );

describe('auth contracts', () => {
  const valid = {
    name: 'Ann',
    email: 'ann@example.com',
    password: 'secret123',
    password_confirmation: 'secret123',
    consent: true,
  };

  it('accepts a complete sign-up and drops an empty partner code', () => {
    const parsed = signupRequestSchema.parse({ ...valid, partner_code: '  ' });
    expect(parsed.partner_code).toBeUndefined();
  });

  it('reports sign-up problems as error codes, per field', () => {
    const result = signupRequestSchema.safeParse({});
    expect(issuesOf(result)).toEqual({
      name: 'NAME_REQUIRED',
      email: 'EMAIL_INVALID',
      password: 'PASSWORD_TOO_SHORT',
      password_confirmation: 'PASSWORDS_DIFFER',
      consent: 'CONSENT_REQUIRED',
    });
  });

  it('flags a confirmation that differs on password_confirmation', () => {
    const result = signupRequestSchema.safeParse({ ...valid, password_confirmation: 'other-pass' });
    expect(issuesOf(result)).toEqual({ password_confirmation: 'PASSWORDS_DIFFER' });
  });

  it('wants exactly 6 digits for a code', () => {
    expect(checkForgotOtpRequestSchema.safeParse({ email: 'a@b.co', code: '012345' }).success).toBe(
      true,
    );
    for (const code of ['12345', '1234567', '12345a']) {
      expect(issuesOf(checkForgotOtpRequestSchema.safeParse({ email: 'a@b.co', code }))).toEqual({
        code: 'CODE_FORMAT',
      });
    }
    expect(
      issuesOf(
        resetPasswordRequestSchema.safeParse({
          email: 'a@b.co',
          code: '123456',
          password: 'short',
          password_confirmation: 'short',
        }),
      ),
    ).toEqual({ password: 'PASSWORD_TOO_SHORT' });
  });

  it('reports a missing referral code as an invalid partner code', () => {
    expect(issuesOf(clickCreateRequestSchema.safeParse({ referral_code: '' }))).toEqual({
      referral_code: 'PARTNER_CODE_INVALID',
    });
  });
});

describe('error and success texts', () => {
  it('keeps the spec’s English texts', () => {
    expect(ERROR_MESSAGES.TOO_MANY_REQUESTS).toBe('Too much requests - try later ...');
    expect(ERROR_MESSAGES.LOGIN_NOT_FOUND).toBe('Login or password not found');
    expect(ERROR_MESSAGES.EMAIL_NOT_VERIFIED).toBe('Email not verified');
    expect(ERROR_MESSAGES.CODE_INVALID).toBe('Code is invalid or expired');
    expect(ERROR_MESSAGES.EMAIL_NOT_FOUND).toBe('Email not found');
    expect(ERROR_MESSAGES.EMAIL_TAKEN).toBe('E-mail is already used');
    expect(ERROR_MESSAGES.PARTNER_CODE_INVALID).toBe('Invalid partner code');
  });

  it('maps codes and texts both ways, each text once', () => {
    expect(isErrorCode('EMAIL_TAKEN')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
    expect(errorCodeOf('Email not found')).toBe('EMAIL_NOT_FOUND');
    const texts = [...Object.values(ERROR_MESSAGES), ...Object.values(SUCCESS_MESSAGES)];
    expect(new Set(texts).size).toBe(texts.length);
  });
});
