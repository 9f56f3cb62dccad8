import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DevMailboxLink } from './dev-mailbox-link';
import { createTestI18n } from './test-utils';

const renderLink = () =>
  render(
    <I18nextProvider i18n={createTestI18n()}>
      <DevMailboxLink />
    </I18nextProvider>,
  );

describe('DevMailboxLink', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('links to the development mailbox where the API has one', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"mails":[]}', { status: 200 })),
    );
    renderLink();
    const link = await screen.findByRole('link', { name: 'Open the development mailbox' });
    expect(link).toHaveAttribute('href', '/api/dev/mailbox');
  });

  it('shows nothing where the API has none (production)', async () => {
    const fetch = vi.fn(async () => new Response('{}', { status: 404 }));
    vi.stubGlobal('fetch', fetch);
    renderLink();
    await vi.waitFor(() =>
      expect(fetch).toHaveBeenCalledWith('/api/dev/mailbox.json', expect.anything()),
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });
});
