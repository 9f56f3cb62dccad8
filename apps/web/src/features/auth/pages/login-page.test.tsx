import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { bodiesSentTo, deferred, json, renderAt, stubFetch } from '../components/test-utils';
import type { Reply } from '../../../test/fetch-stub';

const TOKEN = { token: 'header.payload.signature', expires: '2030-01-01T00:00:00.000Z' };

async function signIn(user: ReturnType<typeof renderAt>['user'], email = 'ada@example.com') {
  await user.type(screen.getByLabelText('E-mail'), email);
  await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'correct horse');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('login page', () => {
  it('signs in and goes to the VPS list', async () => {
    const api = stubFetch({ 'POST /user/auth/login': () => json(200, TOKEN) });
    const { user, router } = renderAt('/login');

    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(document.title).toBe('Sign in · TradeHost');
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('autocomplete', 'email');
    expect(screen.getByLabelText('Password', { selector: 'input' })).toHaveAttribute(
      'autocomplete',
      'current-password',
    );

    await signIn(user);

    expect(await screen.findByRole('heading', { name: 'VPS servers' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/vps');
    expect(bodiesSentTo(api, '/user/auth/login')).toEqual([
      { email: 'ada@example.com', password: 'correct horse' },
    ]);
  });

  it('links to sign-up and password recovery', async () => {
    stubFetch({});
    const { user, router } = renderAt('/login');
    await user.click(screen.getByRole('link', { name: 'Forgot your password?' }));
    expect(router.state.location.pathname).toBe('/forgot-password');
    await user.click(screen.getByRole('link', { name: 'Back to sign in' }));
    await user.click(screen.getByRole('link', { name: 'Create an account' }));
    expect(router.state.location.pathname).toBe('/signup');
  });

  it('shows and toggles the password', async () => {
    stubFetch({});
    const { user } = renderAt('/login');
    const password = screen.getByLabelText('Password', { selector: 'input' });
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(password).toHaveAttribute('type', 'password');
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await user.click(toggle);
    expect(password).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
  });

  it('validates the fields before calling the API', async () => {
    const api = stubFetch({});
    const { user } = renderAt('/login');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText('E-mail is invalid')).toBeInTheDocument();
    expect(screen.getByText('This field is required')).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveFocus();
    expect(api.calls).toHaveLength(0);
  });

  it('shows "Login or password not found" for a 401 and focuses it', async () => {
    stubFetch({
      'POST /user/auth/login': () =>
        json(401, { message: 'Login or password not found', code: 'LOGIN_NOT_FOUND' }),
    });
    const { user, router } = renderAt('/login');
    await signIn(user);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Login or password not found');
    await waitFor(() => expect(alert).toHaveFocus());
    expect(router.state.location.pathname).toBe('/login');
  });

  it('shows the lock of the account (429 LOGIN_LOCKED) and focuses it', async () => {
    stubFetch({
      'POST /user/auth/login': () =>
        json(429, {
          message: 'Too many failed sign-ins. Try again later or reset your password',
          code: 'LOGIN_LOCKED',
        }),
    });
    const { user } = renderAt('/login');
    await signIn(user);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(
      'Too many failed sign-ins. Try again later or reset your password',
    );
    await waitFor(() => expect(alert).toHaveFocus());
  });

  it('shows the wait after repeated failures (429 LOGIN_THROTTLED) in Russian', async () => {
    stubFetch({
      'POST /user/auth/login': () =>
        json(429, {
          message: 'Too many failed sign-ins. Wait a few seconds and try again',
          code: 'LOGIN_THROTTLED',
        }),
    });
    const { user } = renderAt('/login', { language: 'ru' });
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Пароль', { selector: 'input' }), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Войти' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Слишком много неудачных попыток входа. Подождите несколько секунд и попробуйте снова',
    );
  });

  it('explains a 403 "Email not verified" and that a new link was sent', async () => {
    stubFetch({
      'POST /user/auth/login': () =>
        json(403, { message: 'Email not verified', code: 'EMAIL_NOT_VERIFIED' }),
    });
    const { user } = renderAt('/login');
    await signIn(user);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Email not verified');
    expect(alert).toHaveTextContent('We have sent you a new confirmation link.');
  });

  it('falls back to the server text for an unknown code', async () => {
    stubFetch({
      'POST /user/auth/login': () => json(500, { message: 'Something odd', code: 'SOMETHING_NEW' }),
    });
    const { user } = renderAt('/login');
    await signIn(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('Something odd');
  });

  it('disables the submit while signing in', async () => {
    const answer = deferred<Reply>();
    stubFetch({ 'POST /user/auth/login': () => answer.promise });
    const { user } = renderAt('/login');
    await signIn(user);
    const button = await screen.findByRole('button', { name: 'Signing in…' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    answer.resolve(json(200, TOKEN));
    expect(await screen.findByRole('heading', { name: 'VPS servers' })).toBeInTheDocument();
  });
});

describe('e-mail confirmation link (/login?verify=<token>)', () => {
  it('confirms the e-mail once, says so and drops the token from the address', async () => {
    const answer = deferred<Reply>();
    const api = stubFetch({ 'POST /user/auth/verify-email': () => answer.promise });
    const { router } = renderAt('/login?verify=tok-123');

    expect(await screen.findByRole('status')).toHaveTextContent('Confirming your e-mail…');
    await waitFor(() => expect(router.state.location.search).toBe(''));

    answer.resolve(json(200, { message: 'Your e-mail is confirmed.', code: 'EMAIL_VERIFIED' }));
    expect(
      await screen.findByText('Your e-mail is confirmed, you can sign in.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Your e-mail is confirmed');
    // rendered under StrictMode: the effect runs twice, the call goes once
    expect(bodiesSentTo(api, '/user/auth/verify-email')).toEqual([{ token: 'tok-123' }]);
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
  });

  it('sets the message of a 404 as the status', async () => {
    const api = stubFetch({
      'POST /user/auth/verify-email': () =>
        json(404, { message: 'The confirmation link is invalid', code: 'VERIFY_LINK_INVALID' }),
    });
    const { router } = renderAt('/login?verify=unknown');

    expect(await screen.findByRole('alert')).toHaveTextContent('The confirmation link is invalid');
    expect(router.state.location.search).toBe('');
    expect(bodiesSentTo(api, '/user/auth/verify-email')).toHaveLength(1);
  });

  it('sets the message of a 422 as the status', async () => {
    stubFetch({
      'POST /user/auth/verify-email': () =>
        json(422, { message: 'The confirmation link has expired', code: 'VERIFY_LINK_EXPIRED' }),
    });
    renderAt('/login?verify=old');
    expect(await screen.findByRole('alert')).toHaveTextContent('The confirmation link has expired');
  });

  it('does nothing without the parameter', async () => {
    const api = stubFetch({});
    renderAt('/login');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });
});
