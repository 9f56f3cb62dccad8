import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { bodiesSentTo, json, renderAt, stubFetch } from '../components/test-utils';

const SESSION = { email: 'ada@example.com', code: '654321' };
const withSession = { pathname: '/password-reset', state: SESSION };

async function typePasswords(
  user: ReturnType<typeof renderAt>['user'],
  password: string,
  confirmation = password,
) {
  await user.type(screen.getByLabelText('New password', { selector: 'input' }), password);
  await user.type(
    screen.getByLabelText('Repeat the new password', { selector: 'input' }),
    confirmation,
  );
  await user.click(screen.getByRole('button', { name: 'Save the password' }));
}

describe('password reset page', () => {
  it('sets the new password with the e-mail and code it was given', async () => {
    const api = stubFetch({
      'POST /user/auth/reset-password-with-code': () => json(200, { message: 'ok' }),
    });
    const { user, router } = renderAt(withSession);

    expect(document.title).toBe('New password · TradeHost');
    const password = screen.getByLabelText('New password', { selector: 'input' });
    expect(password).toHaveAttribute('autocomplete', 'new-password');

    await typePasswords(user, 'brand new pw');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Password changed' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Your password has been changed.');
    expect(bodiesSentTo(api, '/user/auth/reset-password-with-code')[0]).toEqual({
      ...SESSION,
      password: 'brand new pw',
      password_confirmation: 'brand new pw',
    });
    await user.click(screen.getByRole('link', { name: 'Sign in' }));
    expect(router.state.location.pathname).toBe('/login');
  });

  it('keeps working after a reload thanks to sessionStorage', async () => {
    sessionStorage.setItem('tradehost.password-reset', JSON.stringify(SESSION));
    const api = stubFetch({
      'POST /user/auth/reset-password-with-code': () => json(200, { message: 'ok' }),
    });
    const { user } = renderAt('/password-reset');

    expect(screen.getByText(/For the account/)).toHaveTextContent('ada@example.com');
    await typePasswords(user, 'brand new pw');
    await screen.findByRole('heading', { name: 'Password changed' });
    expect(bodiesSentTo(api, '/user/auth/reset-password-with-code')[0]).toMatchObject(SESSION);
    expect(sessionStorage.getItem('tradehost.password-reset')).toBeNull();
  });

  it('explains what to do when it has no e-mail and code', async () => {
    const api = stubFetch({});
    const { user, router } = renderAt('/password-reset');

    expect(
      screen.getByRole('heading', { level: 1, name: 'Set a new password' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/first request a code by e-mail/)).toBeInTheDocument();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Go to password recovery' }));
    expect(router.state.location.pathname).toBe('/forgot-password');
    expect(api.calls).toHaveLength(0);
  });

  it('ignores a broken stored session', () => {
    sessionStorage.setItem('tradehost.password-reset', '{"email":"x","code":"12"}');
    stubFetch({});
    renderAt('/password-reset');
    expect(screen.getByRole('link', { name: 'Go to password recovery' })).toBeInTheDocument();
  });

  it('refuses a short password and a confirmation that differs', async () => {
    const api = stubFetch({});
    const { user } = renderAt(withSession);

    await typePasswords(user, 'short', 'short');
    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(screen.getByLabelText('New password', { selector: 'input' })).toHaveFocus();

    await user.clear(screen.getByLabelText('New password', { selector: 'input' }));
    await user.clear(screen.getByLabelText('Repeat the new password', { selector: 'input' }));
    await typePasswords(user, 'long enough', 'long enougH');
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('shows the detail of a 400 with a way to get a new code', async () => {
    stubFetch({
      'POST /user/auth/reset-password-with-code': () =>
        json(400, { message: 'Code is invalid or expired', code: 'CODE_INVALID' }),
    });
    const { user, router } = renderAt(withSession);
    await typePasswords(user, 'brand new pw');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Code is invalid or expired');
    await waitFor(() => expect(alert).toHaveFocus());
    await user.click(screen.getByRole('link', { name: 'Request a new code' }));
    expect(router.state.location.pathname).toBe('/forgot-password');
  });

  it('puts 422 field errors on the password', async () => {
    stubFetch({
      'POST /user/auth/reset-password-with-code': () =>
        json(422, {
          message: 'The data is invalid',
          code: 'VALIDATION',
          errors: { password: ['Password is too long'] },
        }),
    });
    const { user } = renderAt(withSession);
    await typePasswords(user, 'brand new pw');

    expect(await screen.findByRole('alert')).toHaveTextContent('The data is invalid');
    const password = screen.getByLabelText('New password', { selector: 'input' });
    expect(password).toHaveAccessibleDescription('Password is too long At least 8 characters');
    expect(password).toHaveFocus();
  });
});
