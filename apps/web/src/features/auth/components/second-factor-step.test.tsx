import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { bodiesSentTo, json, renderAt, stubFetch } from './test-utils';

const TOKEN = { token: 'header.payload.signature', expires: '2030-01-01T00:00:00.000Z' };
const challenge = (methods: string[]) => ({
  second_factor: { token: 'half-session', methods, expires: '2030-01-01T00:00:00.000Z' },
});

async function passwordStep(user: ReturnType<typeof renderAt>['user']) {
  await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
  await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'correct horse');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('the sign-in’s second step', () => {
  it('asks for the app’s code after the password, then signs in', async () => {
    const api = stubFetch({
      'POST /user/auth/login': () => json(200, challenge(['totp', 'recovery_code'])),
      'POST /user/auth/second-factor': () => json(200, TOKEN),
    });
    const { user } = renderAt('/login');
    await passwordStep(user);
    expect(await screen.findByRole('heading', { name: 'Confirm it is you' })).toHaveFocus();
    const code = screen.getByLabelText('Code from the app');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).not.toBeInTheDocument();
    await user.type(code, '123 456');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'VPS servers' })).toBeInTheDocument();
    expect(bodiesSentTo(api, '/user/auth/second-factor')).toEqual([
      { token: 'half-session', code: '123456' },
    ]);
  });

  it('shows a wrong code on its field, takes a recovery code, and goes back when the step ends', async () => {
    let tries = 0;
    const api = stubFetch({
      'POST /user/auth/login': () => json(200, challenge(['totp', 'passkey', 'recovery_code'])),
      'POST /user/auth/second-factor': () => {
        tries += 1;
        return tries === 1
          ? json(422, {
              message: 'The code is wrong or was already used',
              code: 'SECOND_FACTOR_INVALID',
              errors: { code: ['The code is wrong or was already used'] },
            })
          : json(401, {
              message: 'The sign-in has expired, please enter your password again',
              code: 'SIGN_IN_PENDING_EXPIRED',
            });
      },
    });
    const { user } = renderAt('/login');
    await passwordStep(user);
    expect(await screen.findByRole('button', { name: 'Use a passkey' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Code from the app'), '000000');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('The code is wrong or was already used')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    // the link is gone with the code's field: the focus is in the recovery code's, not lost
    expect(screen.getByLabelText('Recovery code')).toHaveFocus();
    await user.type(screen.getByLabelText('Recovery code'), 'abcde-23456');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(
      await screen.findByText('The sign-in has expired, please enter your password again'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(bodiesSentTo(api, '/user/auth/second-factor')).toEqual([
      { token: 'half-session', code: '000000' },
      { token: 'half-session', recovery_code: 'abcde-23456' },
    ]);
  });
});
