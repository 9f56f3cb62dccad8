import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openSignedIn } from '../../../test/signed-in';
import { AVATAR_PATH, renderProfile, stubObjectUrls, stubProfileApi, USER } from '../test-utils';

describe('the profile page', () => {
  it('shows the photo, the account, the password form and the sessions of the signed-in user', async () => {
    stubProfileApi();
    renderProfile();
    expect(await screen.findByRole('heading', { level: 1, name: 'Profile' })).toBeInTheDocument();
    for (const name of ['Photo', 'Account', 'Password', 'Where you are signed in'])
      expect(screen.getByRole('region', { name })).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('Alice Trader');
    expect(screen.getByTestId('profile-email')).toHaveTextContent('alice@example.com');
    expect(screen.getByText('JPEG, PNG, GIF or WebP, up to 1 MB.', { exact: false })).toBeVisible();
    expect(screen.getByRole('radio', { name: 'English' })).toBeChecked();
    expect(document.title).toBe('Profile · TradeHost');
  });

  it('says it is loading, then offers to try again when the user cannot be loaded', async () => {
    let fail = true;
    stubProfileApi({
      'GET /user/auth': () =>
        fail
          ? { status: 500, body: { message: 'Internal server error', code: 'INTERNAL' } }
          : { body: USER },
    });
    const { user } = renderProfile();
    expect(screen.getByRole('status')).toHaveTextContent('Loading your profile…');
    expect(await screen.findByText('Your profile could not be loaded')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText('Name')).toHaveValue('Alice Trader');
  });

  it('is in Russian for a Russian reader', async () => {
    stubProfileApi();
    renderProfile({ language: 'ru' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Профиль' })).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Где выполнен вход' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Сменить пароль' })).toBeInTheDocument();
  });

  it('puts a new photo in the header as soon as it is saved', async () => {
    stubObjectUrls();
    const state = { current: USER };
    const api = stubProfileApi(
      {},
      {
        user: state,
        onUpload: () => {
          state.current = { ...USER, photo_path: AVATAR_PATH };
          return { body: state.current };
        },
      },
    );
    const { user } = await openSignedIn('/profile');
    // the signed-in layout and the page load lazily: more than the default second on a busy machine
    const headerLink = await screen.findByRole(
      'link',
      { name: 'Profile of Alice Trader' },
      { timeout: 5000 },
    );
    expect(within(headerLink).getByTestId('avatar-letter')).toHaveTextContent('A');

    const photo = new File([new Uint8Array(2048)], 'me.png', { type: 'image/png' });
    await user.upload(await screen.findByLabelText('Choose a photo', {}, { timeout: 5000 }), photo);
    await user.click(screen.getByRole('button', { name: 'Save the photo' }));

    await waitFor(() =>
      expect(headerLink.querySelector('img')?.getAttribute('src')).toBe(AVATAR_PATH),
    );
    expect(api.uploads.map((file) => file.name)).toEqual(['me.png']);
    expect(api.callsTo('GET', '/user/auth').length).toBeGreaterThanOrEqual(2);
  });
});
