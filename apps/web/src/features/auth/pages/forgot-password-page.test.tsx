import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { bodiesSentTo, json, renderAt, stubFetch } from '../components/test-utils';

const CODE_SENT = {
  message: 'A 6-digit code has been sent to your e-mail',
  code: 'RESET_CODE_SENT',
};
const OK = { message: 'ok' };

async function requestCode(user: ReturnType<typeof renderAt>['user'], email = 'ada@example.com') {
  await user.type(screen.getByLabelText('E-mail'), email);
  await user.click(screen.getByRole('button', { name: 'Send the code' }));
  return screen.findByLabelText('Code from the e-mail');
}

describe('forgot password page', () => {
  it('goes from the e-mail to the code to a new password and back to sign-in', async () => {
    const api = stubFetch({
      'POST /user/auth/forgot-password-code': () => json(200, CODE_SENT),
      'POST /user/auth/check-forgot-otp': () => json(200, { message: 'The code is correct' }),
      'POST /user/auth/reset-password-with-code': () => json(200, OK),
    });
    const { user, router } = renderAt('/forgot-password');

    expect(
      screen.getByRole('heading', { level: 1, name: 'Password recovery' }),
    ).toBeInTheDocument();
    expect(document.title).toBe('Password recovery · TradeHost');

    const code = await requestCode(user);
    // the API answers the same for an e-mail without an account: the page does not claim more
    expect(screen.getByText(/we have sent a 6-digit code/)).toHaveTextContent(
      'If ada@example.com has an account, we have sent a 6-digit code to it. Enter it below.',
    );
    expect(code).toHaveFocus();
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');

    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Set a new password' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/password-reset');
    expect(router.state.location.state).toEqual({ email: 'ada@example.com', code: '123456' });
    expect(JSON.parse(sessionStorage.getItem('tradehost.password-reset') ?? 'null')).toEqual({
      email: 'ada@example.com',
      code: '123456',
    });
    expect(screen.getByText(/For the account/)).toHaveTextContent('ada@example.com');

    await user.type(screen.getByLabelText('New password', { selector: 'input' }), 'brand new pw');
    await user.type(
      screen.getByLabelText('Repeat the new password', { selector: 'input' }),
      'brand new pw',
    );
    await user.click(screen.getByRole('button', { name: 'Save the password' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Password changed' }),
    ).toHaveFocus();
    expect(sessionStorage.getItem('tradehost.password-reset')).toBeNull();
    expect(api.calls.map((call) => [call.path, call.body])).toEqual([
      ['/user/auth/forgot-password-code', { email: 'ada@example.com' }],
      ['/user/auth/check-forgot-otp', { email: 'ada@example.com', code: '123456' }],
      [
        '/user/auth/reset-password-with-code',
        {
          email: 'ada@example.com',
          code: '123456',
          password: 'brand new pw',
          password_confirmation: 'brand new pw',
        },
      ],
    ]);

    await user.click(screen.getByRole('link', { name: 'Sign in' }));
    expect(router.state.location.pathname).toBe('/login');
  });

  it('refuses a bad e-mail without calling the API', async () => {
    const api = stubFetch({});
    const { user } = renderAt('/forgot-password');
    await user.type(screen.getByLabelText('E-mail'), 'ada@');
    await user.click(screen.getByRole('button', { name: 'Send the code' }));
    expect(await screen.findByText('E-mail is invalid')).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('aria-invalid', 'true');
    expect(api.calls).toHaveLength(0);
  });

  it('shows the message of a 422 on the e-mail', async () => {
    stubFetch({
      'POST /user/auth/forgot-password-code': () =>
        json(422, {
          message: 'The data is invalid',
          code: 'VALIDATION',
          errors: { email: ['E-mail is invalid'] },
        }),
    });
    const { user } = renderAt('/forgot-password');
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send the code' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('The data is invalid');
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription('E-mail is invalid');
    expect(screen.getByLabelText('E-mail')).toHaveFocus();
  });

  it('shows the message of a 422 without field errors', async () => {
    stubFetch({
      'POST /user/auth/forgot-password-code': () =>
        json(422, { message: 'The data is invalid', code: 'VALIDATION' }),
    });
    const { user } = renderAt('/forgot-password');
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send the code' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The data is invalid');
    await waitFor(() => expect(alert).toHaveFocus());
  });

  it('wants exactly 6 digits and cleans up a pasted code', async () => {
    const api = stubFetch({ 'POST /user/auth/forgot-password-code': () => json(200, CODE_SENT) });
    const { user } = renderAt('/forgot-password');
    const code = await requestCode(user);

    await user.type(code, '12345');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('The code must be 6 digits')).toBeInTheDocument();
    expect(code).toHaveAccessibleDescription('The code must be 6 digits 6 digits');
    expect(code).toHaveFocus();

    await user.clear(code);
    await user.type(code, 'ab12');
    expect(code).toHaveValue('12');

    await user.clear(code);
    await user.click(code);
    await user.paste('123 456');
    expect(code).toHaveValue('123456');
    expect(bodiesSentTo(api, '/user/auth/check-forgot-otp')).toHaveLength(0);
  });

  it('shows "Code is invalid or expired" for a 400', async () => {
    stubFetch({
      'POST /user/auth/forgot-password-code': () => json(200, CODE_SENT),
      'POST /user/auth/check-forgot-otp': () =>
        json(400, { message: 'Code is invalid or expired', code: 'CODE_INVALID' }),
    });
    const { user, router } = renderAt('/forgot-password');
    await user.type(await requestCode(user), '000000');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Code is invalid or expired');
    await waitFor(() => expect(alert).toHaveFocus());
    expect(router.state.location.pathname).toBe('/forgot-password');
    expect(sessionStorage.getItem('tradehost.password-reset')).toBeNull();
  });

  it('shows the code step and "Code is invalid or expired" for an e-mail without an account (the API answers both as for any)', async () => {
    stubFetch({
      'POST /user/auth/forgot-password-code': () => json(200, CODE_SENT),
      'POST /user/auth/check-forgot-otp': () =>
        json(400, {
          message: 'Code is invalid or expired',
          code: 'CODE_INVALID',
          errors: { code: ['Code is invalid or expired'] },
        }),
    });
    const { user } = renderAt('/forgot-password', { language: 'ru' });
    await user.type(screen.getByLabelText('E-mail'), 'nobody@example.com');
    await user.click(screen.getByRole('button', { name: 'Отправить код' }));
    const code = await screen.findByLabelText('Код из письма');
    expect(screen.getByText(/мы отправили на него/)).toHaveTextContent(
      'Если адрес nobody@example.com зарегистрирован, мы отправили на него шестизначный код. Введите его ниже.',
    );
    await user.type(code, '111111');
    await user.click(screen.getByRole('button', { name: 'Продолжить' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Код неверен или срок его действия истёк',
    );
    expect(code).toHaveAccessibleDescription(
      expect.stringContaining('Код неверен или срок его действия истёк'),
    );
  });

  it('sends the code again and lets the e-mail be changed', async () => {
    const api = stubFetch({ 'POST /user/auth/forgot-password-code': () => json(200, CODE_SENT) });
    const { user } = renderAt('/forgot-password');
    await requestCode(user);

    await user.click(screen.getByRole('button', { name: 'Send the code again' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'If ada@example.com has an account, a new code has been sent to it.',
    );
    expect(bodiesSentTo(api, '/user/auth/forgot-password-code')).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Change e-mail' }));
    const email = screen.getByLabelText('E-mail');
    expect(email).toHaveValue('ada@example.com');
    await user.clear(email);
    await user.type(email, 'other@example.com');
    await user.click(screen.getByRole('button', { name: 'Send the code' }));
    await screen.findByLabelText('Code from the e-mail');
    expect(screen.getByText(/we have sent a 6-digit code/)).toHaveTextContent('other@example.com');
    expect(bodiesSentTo(api, '/user/auth/forgot-password-code').at(-1)).toEqual({
      email: 'other@example.com',
    });
  });

  it('shows an error when sending the code again fails', async () => {
    let sent = 0;
    stubFetch({
      'POST /user/auth/forgot-password-code': () =>
        ++sent === 1
          ? json(200, CODE_SENT)
          : json(429, { message: 'Too much requests - try later ...', code: 'TOO_MANY_REQUESTS' }),
    });
    const { user } = renderAt('/forgot-password');
    await requestCode(user);
    await user.click(screen.getByRole('button', { name: 'Send the code again' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too much requests - try later ...');
  });
});
