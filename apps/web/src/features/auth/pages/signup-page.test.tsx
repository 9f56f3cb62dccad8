import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { bodiesSentTo, deferred, json, renderAt, stubFetch } from '../components/test-utils';
import type { Reply } from '../../../test/fetch-stub';

async function fillValidForm(user: ReturnType<typeof renderAt>['user']) {
  await user.type(screen.getByLabelText('Name'), 'Ada Trader');
  await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
  await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'correct horse');
  await user.type(
    screen.getByLabelText('Repeat the password', { selector: 'input' }),
    'correct horse',
  );
  await user.click(screen.getByRole('checkbox', { name: /I accept the public offer/ }));
}

describe('signup page', () => {
  it('creates the account with the UI language and asks to confirm the e-mail', async () => {
    const api = stubFetch({
      'POST /user/auth/create': () =>
        json(201, { message: 'Registration complete.', code: 'SIGNUP_DONE' }),
    });
    const { user, router } = renderAt('/signup');

    expect(
      screen.getByRole('heading', { level: 1, name: 'Create an account' }),
    ).toBeInTheDocument();
    expect(document.title).toBe('Create an account · TradeHost');
    expect(screen.getByLabelText('Name')).toHaveAttribute('autocomplete', 'name');
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('autocomplete', 'email');
    expect(screen.getByLabelText('Password', { selector: 'input' })).toHaveAttribute(
      'autocomplete',
      'new-password',
    );

    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Confirm your e-mail' }),
    ).toHaveFocus();
    expect(screen.getByText(/We sent a link to/)).toHaveTextContent(
      'We sent a link to ada@example.com.',
    );
    expect(document.title).toBe('Confirm your e-mail · TradeHost');
    expect(bodiesSentTo(api, '/user/auth/create')).toEqual([
      {
        name: 'Ada Trader',
        email: 'ada@example.com',
        password: 'correct horse',
        password_confirmation: 'correct horse',
        consent: true,
        language: 'en',
      },
    ]);
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Back to sign in' }));
    expect(router.state.location.pathname).toBe('/login');
  });

  it('prefills the partner code from the referral link and sends it', async () => {
    const api = stubFetch({ 'POST /user/auth/create': () => json(201, { message: 'ok' }) });
    const { user } = renderAt('/signup', { referralCode: 'PARTNER42' });

    const partnerCode = screen.getByLabelText(/Partner code/);
    expect(partnerCode).toHaveValue('PARTNER42');
    expect(partnerCode).toHaveAccessibleDescription("Filled in from your partner's link");

    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await screen.findByRole('heading', { name: 'Confirm your e-mail' });
    expect(bodiesSentTo(api, '/user/auth/create')[0]).toMatchObject({ partner_code: 'PARTNER42' });
  });

  it('sends the Russian language when the interface is in Russian', async () => {
    const api = stubFetch({ 'POST /user/auth/create': () => json(201, { message: 'ok' }) });
    const { user } = renderAt('/signup', { language: 'ru' });

    expect(screen.getByRole('heading', { level: 1, name: 'Регистрация' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('Имя'), 'Иван');
    await user.type(screen.getByLabelText('E-mail'), 'ivan@example.com');
    await user.type(screen.getByLabelText('Пароль', { selector: 'input' }), '12345678');
    await user.type(screen.getByLabelText('Повторите пароль', { selector: 'input' }), '12345678');
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Зарегистрироваться' }));

    await screen.findByRole('heading', { name: 'Подтвердите e-mail' });
    expect(bodiesSentTo(api, '/user/auth/create')[0]).toMatchObject({ language: 'ru' });
  });

  it('links the consent to the offer and the policy', async () => {
    stubFetch({});
    const { user, router } = renderAt('/signup');
    expect(screen.getByRole('link', { name: 'privacy policy' })).toHaveAttribute(
      'href',
      '/privacy-policy',
    );
    await user.click(screen.getByRole('link', { name: 'public offer' }));
    expect(router.state.location.pathname).toBe('/public-offer');
  });

  it('shows the validation messages, marks the fields and focuses the first one', async () => {
    const api = stubFetch({});
    const { user } = renderAt('/signup');

    await user.click(screen.getByRole('button', { name: 'Create account' }));

    const name = screen.getByLabelText('Name');
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(name).toHaveFocus();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('Name is required');
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription('E-mail is invalid');
    expect(screen.getByLabelText('Password', { selector: 'input' })).toHaveAccessibleDescription(
      'Password must be at least 8 characters At least 8 characters',
    );
    expect(screen.getByRole('checkbox')).toHaveAccessibleDescription(
      'You must accept the offer and the privacy policy',
    );
    expect(api.calls).toHaveLength(0);
  });

  it('refuses a bad e-mail, a short password and passwords that differ', async () => {
    const api = stubFetch({});
    const { user } = renderAt('/signup');

    await user.type(screen.getByLabelText('Name'), 'Ada');
    await user.type(screen.getByLabelText('E-mail'), 'not-an-email');
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'short');
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    expect(await screen.findByText('E-mail is invalid')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveFocus();

    await user.clear(screen.getByLabelText('E-mail'));
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.clear(screen.getByLabelText('Password', { selector: 'input' }));
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'long enough');
    await user.type(
      screen.getByLabelText('Repeat the password', { selector: 'input' }),
      'different',
    );
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(screen.getByLabelText('Repeat the password', { selector: 'input' })).toHaveFocus();
    expect(api.calls).toHaveLength(0);
  });

  it("puts the server's 422 messages on their fields and in an alert", async () => {
    stubFetch({
      'POST /user/auth/create': () =>
        json(422, {
          message: 'E-mail is already used',
          code: 'EMAIL_TAKEN',
          errors: {
            email: ['E-mail is already used'],
            partner_code: ['Invalid partner code'],
          },
        }),
    });
    const { user } = renderAt('/signup', { referralCode: 'NOPE' });

    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('E-mail is already used');
    const email = screen.getByLabelText('E-mail');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('E-mail is already used');
    expect(email).toHaveFocus();
    expect(screen.getByLabelText(/Partner code/)).toHaveAccessibleDescription(
      "Invalid partner code Filled in from your partner's link",
    );
    expect(screen.getByRole('button', { name: 'Create account' })).toBeEnabled();
  });

  it.each([
    {
      language: 'en',
      labels: ['Name', 'Password', 'Repeat the password', 'Create account'],
      text: 'This password is too common. Choose another one',
    },
    {
      language: 'ru',
      labels: ['Имя', 'Пароль', 'Повторите пароль', 'Зарегистрироваться'],
      text: 'Это слишком распространённый пароль. Выберите другой',
    },
  ] as const)(
    'puts "too common" on the password field in the reader\'s language ($language)',
    async ({ language, labels: [name, passwordLabel, repeatLabel, submit], text }) => {
      const TOO_COMMON = 'This password is too common. Choose another one';
      stubFetch({
        'POST /user/auth/create': () =>
          json(422, {
            message: TOO_COMMON,
            code: 'PASSWORD_TOO_COMMON',
            errors: { password: [TOO_COMMON] },
          }),
      });
      const { user } = renderAt('/signup', { language });
      await user.type(screen.getByLabelText(name), 'Ada Trader');
      await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
      const password = screen.getByLabelText(passwordLabel, { selector: 'input' });
      await user.type(password, 'password');
      await user.type(screen.getByLabelText(repeatLabel, { selector: 'input' }), 'password');
      await user.click(screen.getByRole('checkbox'));
      await user.click(screen.getByRole('button', { name: submit }));

      expect(await screen.findByRole('alert')).toHaveTextContent(text);
      expect(password).toHaveAttribute('aria-invalid', 'true');
      expect(password).toHaveAccessibleDescription(expect.stringContaining(text));
      expect(password).toHaveFocus();
    },
  );

  it('shows a 422 without field errors in the alert and focuses it', async () => {
    stubFetch({
      'POST /user/auth/create': () =>
        json(422, { message: 'Invalid partner code', code: 'PARTNER_CODE_INVALID' }),
    });
    const { user } = renderAt('/signup');
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Invalid partner code');
    await waitFor(() => expect(alert).toHaveFocus());
  });

  it('ignores a 401 answer', async () => {
    const api = stubFetch({
      'POST /user/auth/create': () => json(401, { message: 'Unauthorized', code: 'UNAUTHORIZED' }),
    });
    const { user } = renderAt('/signup');
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    await waitFor(() => expect(bodiesSentTo(api, '/user/auth/create')).toHaveLength(1));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Create account' })).toBeEnabled(),
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(
      screen.getByRole('heading', { level: 1, name: 'Create an account' }),
    ).toBeInTheDocument();
  });

  it('disables the submit and shows the loading state while the request runs', async () => {
    const answer = deferred<Reply>();
    stubFetch({ 'POST /user/auth/create': () => answer.promise });
    const { user } = renderAt('/signup');
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    const button = await screen.findByRole('button', { name: 'Creating the account…' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');

    answer.resolve(json(201, { message: 'ok' }));
    expect(await screen.findByRole('heading', { name: 'Confirm your e-mail' })).toBeInTheDocument();
  });
});
