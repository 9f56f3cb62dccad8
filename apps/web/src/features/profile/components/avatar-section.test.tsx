import type { User } from '@tradehost/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AVATAR_PATH, renderProfile, stubObjectUrls, stubProfileApi, USER } from '../test-utils';

const photoRegion = () => screen.getByRole('region', { name: 'Photo' });
const fileOf = (bytes: number, name: string, type: string) =>
  new File([new Uint8Array(bytes)], name, { type });

describe('the photo', () => {
  it('previews the chosen file, uploads it on save and says so', async () => {
    const urls = stubObjectUrls();
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
    const { user } = renderProfile();
    const input = await screen.findByLabelText('Choose a photo');
    expect(input).toHaveAttribute('accept', 'image/jpeg,image/png,image/gif,image/webp');
    expect(screen.getByText('No photo yet', { exact: false })).toBeInTheDocument();

    await user.upload(input, fileOf(200 * 1024, 'holiday.jpg', 'image/jpeg'));
    expect(
      within(photoRegion()).getByRole('img', { name: 'Preview of the new photo' }),
    ).toHaveAttribute('src', 'blob:preview-holiday.jpg');
    expect(screen.getByText('holiday.jpg (200 kB) is ready to save.')).toBeInTheDocument();
    expect(api.uploads).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Save the photo' }));
    expect(await screen.findByText('The photo is saved.')).toBeInTheDocument();
    expect(api.uploads.map((file) => [file.name, file.size])).toEqual([
      ['holiday.jpg', 200 * 1024],
    ]);
    await waitFor(() =>
      expect(within(photoRegion()).getByRole('img', { name: 'Your photo' })).toHaveAttribute(
        'src',
        AVATAR_PATH,
      ),
    );
    expect(urls.revoke).toHaveBeenCalledWith('blob:preview-holiday.jpg');
  });

  it.each([
    [
      'a file over 1 MB',
      fileOf(1024 * 1024 + 1, 'big.png', 'image/png'),
      'The image must be at most 1 MB',
    ],
    [
      'an SVG',
      fileOf(300, 'logo.svg', 'image/svg+xml'),
      'The image must be a JPEG, PNG, GIF or WebP file',
    ],
    [
      'a PDF',
      fileOf(300, 'cv.pdf', 'application/pdf'),
      'The image must be a JPEG, PNG, GIF or WebP file',
    ],
  ])('refuses %s in the browser, without uploading it', async (_what, file, text) => {
    stubObjectUrls();
    const api = stubProfileApi();
    renderProfile();
    // the accept list is a hint: a reader can choose "All files" in the dialog
    const user = userEvent.setup({ applyAccept: false });
    await user.upload(await screen.findByLabelText('Choose a photo'), file);
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(screen.queryByRole('button', { name: 'Save the photo' })).toBeNull();
    expect(api.uploads).toEqual([]);
  });

  it('shows the server’s refusal in the reader’s language and keeps the chosen file', async () => {
    stubObjectUrls();
    stubProfileApi(
      {},
      {
        onUpload: () => ({
          status: 422,
          body: { message: 'The image is damaged or cannot be read', code: 'AVATAR_UNREADABLE' },
        }),
      },
    );
    const { user } = renderProfile({ language: 'ru' });
    await user.upload(
      await screen.findByLabelText('Выбрать фото'),
      fileOf(1000, 'broken.png', 'image/png'),
    );
    await user.click(screen.getByRole('button', { name: 'Сохранить фото' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Изображение повреждено или не читается',
    );
    expect(screen.getByRole('button', { name: 'Сохранить фото' })).toBeEnabled();
  });

  it('removes the photo only after a confirmation', async () => {
    const state: { current: User } = { current: { ...USER, photo_path: AVATAR_PATH } };
    const api = stubProfileApi(
      {
        'DELETE /user/avatar': () => {
          state.current = { ...USER, photo_path: null };
          return { body: state.current };
        },
      },
      { user: state },
    );
    const { user } = renderProfile();
    await user.click(await screen.findByRole('button', { name: 'Remove the photo' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove your photo?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('DELETE', '/user/avatar')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Remove the photo' }));
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove the photo' }),
    );
    expect(await screen.findByText('The photo is removed.')).toBeInTheDocument();
    expect(api.callsTo('DELETE', '/user/avatar')).toHaveLength(1);
    await waitFor(() => expect(within(photoRegion()).queryByRole('img')).toBeNull());
  });
});
