import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderProfile, stubProfileApi, USER } from '../test-utils';

describe('the account section', () => {
  it('saves the name and asks for the user again (the header follows)', async () => {
    const state = { current: USER };
    const api = stubProfileApi(
      {
        'POST /user/change_name': (call) => {
          state.current = { ...USER, name: (call.body as { name: string }).name };
          return { body: state.current };
        },
      },
      { user: state },
    );
    const { user } = renderProfile();
    const name = await screen.findByLabelText('Name');
    await user.clear(name);
    await user.type(name, '  Alice Smith ');
    await user.click(screen.getByRole('button', { name: 'Save the name' }));
    expect(await screen.findByText('The name is saved.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/user/change_name').map((c) => c.body)).toEqual([
      { name: 'Alice Smith' },
    ]);
    await waitFor(() => expect(api.callsTo('GET', '/user/auth')).toHaveLength(2));
    expect(screen.getByLabelText('Name')).toHaveValue('Alice Smith');
  });

  it('refuses an empty name on its field without calling the server', async () => {
    const api = stubProfileApi();
    const { user } = renderProfile();
    await user.clear(await screen.findByLabelText('Name'));
    await user.click(screen.getByRole('button', { name: 'Save the name' }));
    const field = screen.getByLabelText('Name');
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveFocus();
    expect(api.callsTo('POST', '/user/change_name')).toEqual([]);
  });

  it('puts the server’s refusal on the field, translated', async () => {
    stubProfileApi({
      'POST /user/change_name': {
        status: 422,
        body: {
          message: 'Name is too long',
          code: 'NAME_TOO_LONG',
          errors: { name: ['Name is too long'] },
        },
      },
    });
    const { user } = renderProfile({ language: 'ru' });
    await user.type(await screen.findByLabelText('Имя'), 'x');
    await user.click(screen.getByRole('button', { name: 'Сохранить имя' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Имя')).toHaveAttribute('aria-invalid', 'true'),
    );
    expect(screen.getByLabelText('Имя')).toHaveAccessibleDescription('Слишком длинное имя');
  });

  it('shows the e-mail read-only and switches the language (saved to the account)', async () => {
    const api = stubProfileApi({ 'POST /user/change_language': { body: { message: 'ok' } } });
    const { user, store } = renderProfile();
    expect(await screen.findByTestId('profile-email')).toHaveTextContent('alice@example.com');
    expect(screen.queryByRole('textbox', { name: 'E-mail' })).toBeNull();
    await user.click(screen.getByRole('radio', { name: 'Русский' }));
    expect(store.getState().settings.language).toBe('ru');
    await waitFor(() =>
      expect(api.callsTo('POST', '/user/change_language').map((c) => c.body)).toEqual([
        { language: 'RU' },
      ]),
    );
  });
});
