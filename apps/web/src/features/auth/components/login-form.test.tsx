import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loginFormLogic } from './login-form';
import { bodiesSentTo, deferred, json, renderAt, stubFetch } from './test-utils';

const TOKEN = { token: 'header.payload.signature', expires: '2030-01-01T00:00:00.000Z' };

/** Holds the form's logic (react-hook-form, zod, the sign-in call) until `release()`. */
function holdLogic() {
  const gate = deferred<void>();
  const realLoad = loginFormLogic.load;
  const load = vi.spyOn(loginFormLogic, 'load').mockImplementation(async () => {
    await gate.promise;
    return realLoad();
  });
  return { load, release: () => gate.resolve() };
}

const form = () => screen.getByRole('button', { name: 'Sign in' }).closest('form')!;
const email = () => screen.getByLabelText('E-mail');
const password = () => screen.getByLabelText('Password', { selector: 'input' });

describe('login form logic, loaded on first use', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is not loaded with the page; until then the browser guards the fields', () => {
    stubFetch({});
    const { load } = holdLogic();
    renderAt('/login');
    expect(load).not.toHaveBeenCalled();
    expect(form()).not.toHaveAttribute('novalidate');
    expect(email()).toHaveAttribute('type', 'email');
    expect(email()).toBeRequired();
    expect(password()).toBeRequired();
  });

  it('loads when the form is first focused, then validates with the schema', async () => {
    stubFetch({});
    const { load, release } = holdLogic();
    const { user } = renderAt('/login');
    await user.click(email());
    expect(load).toHaveBeenCalledTimes(1);
    release();
    await waitFor(() => expect(form()).toHaveAttribute('novalidate'));
    await user.type(email(), 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('E-mail is invalid')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('keeps a submit made before the logic is in until it is, then signs in with what was typed', async () => {
    const api = stubFetch({ 'POST /user/auth/login': () => json(200, TOKEN) });
    const { release } = holdLogic();
    const { user, router } = renderAt('/login');
    await user.type(email(), 'ada@example.com');
    await user.type(password(), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    // the browser let the submit through (the fields are valid); it waits for the logic
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.calls).toHaveLength(0);
    expect(router.state.location.pathname).toBe('/login');
    expect(email()).toHaveValue('ada@example.com');

    release();
    expect(await screen.findByRole('heading', { name: 'VPS servers' })).toBeInTheDocument();
    expect(bodiesSentTo(api, '/user/auth/login')).toEqual([
      { email: 'ada@example.com', password: 'correct horse' },
    ]);
  });

  it('answers a submit the browser stopped (empty fields) with the form’s own messages once loaded', async () => {
    const api = stubFetch({});
    const { release } = holdLogic();
    const { user } = renderAt('/login');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.queryByText('E-mail is invalid')).not.toBeInTheDocument();

    release();
    expect(await screen.findByText('E-mail is invalid')).toBeInTheDocument();
    expect(screen.getByText('This field is required')).toBeInTheDocument();
    expect(email()).toHaveFocus();
    expect(api.calls).toHaveLength(0);
  });

  it('says so when the logic cannot be loaded, and tries again on the next submit', async () => {
    stubFetch({});
    const realLoad = loginFormLogic.load;
    const load = vi
      .spyOn(loginFormLogic, 'load')
      .mockRejectedValue(new TypeError('Failed to fetch dynamically imported module'));
    const { user } = renderAt('/login');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No connection to the server');
    expect(form()).not.toHaveAttribute('novalidate');

    load.mockImplementation(() => realLoad());
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('E-mail is invalid')).toBeInTheDocument();
  });
});
