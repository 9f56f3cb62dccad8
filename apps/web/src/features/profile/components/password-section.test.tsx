import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderProfile, stubProfileApi } from '../test-utils';

const passwordRegion = () => screen.getByRole('region', { name: 'Password' });
const field = (label: string) => within(passwordRegion()).getByLabelText(label);

async function fill(
  user: ReturnType<typeof renderProfile>['user'],
  values: { current?: string; next?: string; repeat?: string },
) {
  await screen.findByRole('region', { name: 'Password' });
  if (values.current) await user.type(field('Current password'), values.current);
  if (values.next) await user.type(field('New password'), values.next);
  if (values.repeat) await user.type(field('Repeat the new password'), values.repeat);
  await user.click(screen.getByRole('button', { name: 'Change the password' }));
}

describe('the password form', () => {
  it('marks each field with its own error and calls nothing', async () => {
    const api = stubProfileApi();
    const { user } = renderProfile();
    await fill(user, { next: 'short', repeat: 'other' });
    expect(field('Current password')).toHaveAccessibleDescription('Enter your current password');
    expect(field('New password')).toHaveAccessibleDescription(
      'Password must be at least 8 characters At least 8 characters',
    );
    expect(field('Current password')).toHaveFocus();
    expect(api.callsTo('POST', '/user/change_password')).toEqual([]);
  });

  it('says when the two new passwords differ', async () => {
    const api = stubProfileApi();
    const { user } = renderProfile();
    await fill(user, { current: 'old password', next: 'new password 1', repeat: 'new password 2' });
    expect(field('Repeat the new password')).toHaveAccessibleDescription('Passwords do not match');
    expect(field('Repeat the new password')).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('POST', '/user/change_password')).toEqual([]);
  });

  it('puts a wrong current password on its field and focuses it', async () => {
    stubProfileApi({
      'POST /user/change_password': {
        status: 422,
        body: {
          message: 'The current password is wrong',
          code: 'CURRENT_PASSWORD_WRONG',
          errors: { current_password: ['The current password is wrong'] },
        },
      },
    });
    const { user } = renderProfile();
    await fill(user, {
      current: 'not it at all',
      next: 'new password 1',
      repeat: 'new password 1',
    });
    await waitFor(() =>
      expect(field('Current password')).toHaveAccessibleDescription(
        'The current password is wrong',
      ),
    );
    expect(field('Current password')).toHaveFocus();
    expect(screen.getByRole('alert')).toHaveTextContent('The current password is wrong');
  });

  it('changes the password, clears the form and lists the sessions again', async () => {
    const api = stubProfileApi({
      'POST /user/change_password': {
        body: { message: 'Your password has been changed.', code: 'PASSWORD_CHANGED' },
      },
    });
    const { user } = renderProfile();
    await screen.findByText('Safari on iOS');
    await fill(user, { current: 'old password', next: 'new password 1', repeat: 'new password 1' });
    expect(
      await screen.findByText('The password is changed. Your other sessions are signed out.'),
    ).toBeInTheDocument();
    expect(api.callsTo('POST', '/user/change_password').map((c) => c.body)).toEqual([
      {
        current_password: 'old password',
        password: 'new password 1',
        password_confirmation: 'new password 1',
      },
    ]);
    for (const label of ['Current password', 'New password', 'Repeat the new password'])
      expect(field(label)).toHaveValue('');
    await waitFor(() => expect(api.callsTo('GET', '/user/sessions')).toHaveLength(2));
  });
});
