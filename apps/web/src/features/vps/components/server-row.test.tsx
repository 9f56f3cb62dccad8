import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred, page, renderVps, server, stubVpsApi, TOKEN, type Handler } from '../test-utils';

const row = (id = 12) => screen.findByRole('row', { name: new RegExp(`^#${id}\\b`) });

const RDP =
  'full address:s:vps12.tradehost.example:33012\r\nprompt for credentials:i:1\r\nusername:s:Administrator\r\n';

function rdpFile(request: Request) {
  void request;
  return new Response(RDP, {
    status: 200,
    headers: {
      'Content-Type': 'application/x-rdp',
      'Content-Disposition': 'attachment; filename="vps-12.rdp"',
    },
  });
}

/** A Blob's text (jsdom's Blob has no text()). */
function textOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

describe('the comment', () => {
  it('is edited in place and saved with Enter', async () => {
    const api = stubVpsApi({
      'GET /user/vps/servers': { body: page([server({ comment: 'old' })]) },
      'PATCH /user/vps/servers/12': (call) => ({
        body: { server: server({ comment: (call.body as { comment: string }).comment }) },
      }),
    });
    const { user } = renderVps('/vps?tab=servers');
    const line = within(await row());
    await user.click(line.getByRole('button', { name: 'Edit the comment of server #12: old' }));
    const field = line.getByRole('textbox', { name: 'Comment of server #12' });
    expect(field).toHaveFocus();
    expect(field).toHaveValue('old');
    await user.clear(field);
    await user.type(field, '  GBPUSD grid {Enter}');

    const button = await line.findByRole('button', {
      name: 'Edit the comment of server #12: GBPUSD grid',
    });
    expect(button).toHaveFocus();
    expect(api.callsTo('PATCH', '/user/vps/servers/12').map((c) => c.body)).toEqual([
      { comment: 'GBPUSD grid' },
    ]);
  });

  it('saves when the field is left, not when nothing changed, and Escape gives up', async () => {
    const api = stubVpsApi({
      'GET /user/vps/servers': { body: page([server()]) },
      'PATCH /user/vps/servers/12': (call) => ({
        body: { server: server({ comment: (call.body as { comment: string }).comment }) },
      }),
    });
    const { user } = renderVps('/vps?tab=servers');
    const line = within(await row());
    await user.click(line.getByRole('button', { name: 'Add a comment to server #12' }));
    await user.tab(); // left unchanged
    expect(api.callsTo('PATCH', '/user/vps/servers/12')).toHaveLength(0);

    await user.click(line.getByRole('button', { name: 'Add a comment to server #12' }));
    await user.type(line.getByRole('textbox'), 'draft{Escape}');
    expect(line.getByRole('button', { name: 'Add a comment to server #12' })).toHaveFocus();
    expect(api.callsTo('PATCH', '/user/vps/servers/12')).toHaveLength(0);

    await user.click(line.getByRole('button', { name: 'Add a comment to server #12' }));
    await user.type(line.getByRole('textbox'), 'Night robot');
    await user.tab();
    expect(
      await line.findByRole('button', { name: 'Edit the comment of server #12: Night robot' }),
    ).toBeInTheDocument();
    expect(api.callsTo('PATCH', '/user/vps/servers/12')).toHaveLength(1);
  });

  it('refuses over 200 characters before sending, and shows the server’s refusal', async () => {
    const api = stubVpsApi({
      'GET /user/vps/servers': { body: page([server()]) },
      'PATCH /user/vps/servers/12': {
        status: 422,
        body: {
          message: 'The comment is too long (200 characters at most)',
          code: 'COMMENT_TOO_LONG',
          errors: { comment: ['The comment is too long (200 characters at most)'] },
        },
      },
    });
    const { user } = renderVps('/vps?tab=servers');
    const line = within(await row());
    await user.click(line.getByRole('button', { name: 'Add a comment to server #12' }));
    const field = line.getByRole('textbox', { name: 'Comment of server #12' });
    await user.click(field);
    await user.paste('x'.repeat(201));
    await user.keyboard('{Enter}');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(line.getByRole('alert')).toHaveTextContent(
      'The comment is too long (200 characters at most)',
    );
    expect(api.callsTo('PATCH', '/user/vps/servers/12')).toHaveLength(0);

    // the server may still refuse (its own count): the field stays with what was typed
    await user.clear(field);
    await user.type(field, 'short{Enter}');
    await waitFor(() => expect(api.callsTo('PATCH', '/user/vps/servers/12')).toHaveLength(1));
    expect(await line.findByRole('alert')).toHaveTextContent(
      'The comment is too long (200 characters at most)',
    );
    expect(line.getByRole('textbox', { name: 'Comment of server #12' })).toHaveValue('short');
  });
});

describe('the login details', () => {
  afterEach(() => vi.restoreAllMocks());

  it('show host, port and user, reveal the password on request, copy them and download the .rdp file', async () => {
    const saved: { name: string; blob: Blob }[] = [];
    const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
    URL.createObjectURL = (blob: Blob | MediaSource) =>
      `blob:${saved.push({ name: '', blob: blob as Blob })}`;
    URL.revokeObjectURL = () => undefined;
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      const last = saved.at(-1);
      if (last) last.name = this.download;
    });

    const api = stubVpsApi(
      {
        'GET /user/vps/servers': { body: page([server()]) },
        'POST /user/vps/servers/12/credentials': {
          body: {
            host: 'vps12.tradehost.example',
            port: 33012,
            username: 'Administrator',
            password: 'k7#Qw9!zR2',
          },
        },
      },
      { 'GET /user/vps/servers/12/rdp': rdpFile },
    );
    try {
      const { user } = renderVps('/vps?tab=servers');
      const line = within(await row());
      await user.click(line.getByRole('button', { name: 'Show the login details of server #12' }));

      const dialog = await screen.findByRole('dialog', { name: 'Login details of server #12' });
      const modal = within(dialog);
      expect(await modal.findByText('vps12.tradehost.example')).toBeInTheDocument();
      expect(modal.getByText('33012')).toBeInTheDocument();
      expect(modal.getByText('Administrator')).toBeInTheDocument();
      // the password is not asked for until the reader wants it
      expect(modal.getByText('hidden')).toBeInTheDocument();
      expect(api.callsTo('POST', '/user/vps/servers/12/credentials')).toHaveLength(0);
      expect(
        api.requests
          .find((r) => r.url.pathname === '/api/user/vps/servers/12/rdp')
          ?.headers.get('Authorization'),
      ).toBe(`Bearer ${TOKEN}`);

      await user.click(modal.getByRole('button', { name: 'Copy the host' }));
      expect(await navigator.clipboard.readText()).toBe('vps12.tradehost.example');
      await user.click(modal.getByRole('button', { name: 'Show password' }));
      expect(await modal.findByTestId('vps-password')).toHaveTextContent('k7#Qw9!zR2');
      expect(api.callsTo('POST', '/user/vps/servers/12/credentials')).toHaveLength(1);
      await user.click(modal.getByRole('button', { name: 'Copy the password' }));
      expect(await navigator.clipboard.readText()).toBe('k7#Qw9!zR2');

      await user.click(modal.getByRole('button', { name: 'Hide password' }));
      expect(modal.queryByTestId('vps-password')).toBeNull();
      await user.click(modal.getByRole('button', { name: 'Show password' }));
      // shown again without asking again
      expect(modal.getByTestId('vps-password')).toBeInTheDocument();
      expect(api.callsTo('POST', '/user/vps/servers/12/credentials')).toHaveLength(1);

      await user.click(modal.getByRole('button', { name: 'Download .rdp' }));
      await waitFor(() => expect(saved).toHaveLength(1));
      expect(saved[0]?.name).toBe('vps-12.rdp');
      expect(await textOf(saved[0]!.blob)).toBe(RDP);
      expect(saved[0]?.blob.type).toBe('application/x-rdp');

      // closing forgets the password: it is asked for again next time
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      await waitFor(() =>
        expect(
          line.getByRole('button', { name: 'Show the login details of server #12' }),
        ).toHaveFocus(),
      );
      await user.click(line.getByRole('button', { name: 'Show the login details of server #12' }));
      const again = within(await screen.findByRole('dialog'));
      expect(again.getByText('hidden')).toBeInTheDocument();
    } finally {
      URL.createObjectURL = original.create;
      URL.revokeObjectURL = original.revoke;
    }
  });

  it('say why the password cannot be shown', async () => {
    stubVpsApi(
      {
        'GET /user/vps/servers': { body: page([server()]) },
        'POST /user/vps/servers/12/credentials': {
          status: 409,
          body: { message: 'The server is still being created', code: 'SERVER_NOT_READY' },
        },
      },
      { 'GET /user/vps/servers/12/rdp': rdpFile },
    );
    const { user } = renderVps('/vps?tab=servers');
    await user.click(
      within(await row()).getByRole('button', { name: 'Show the login details of server #12' }),
    );
    const modal = within(await screen.findByRole('dialog'));
    await user.click(modal.getByRole('button', { name: 'Show password' }));
    expect(await modal.findByRole('alert')).toHaveTextContent('The server is still being created');
    expect(modal.queryByTestId('vps-password')).toBeNull();
  });

  it('are not offered before the machine exists', async () => {
    stubVpsApi({
      'GET /user/vps/servers': {
        body: page([server({ status: 'provisioning', has_credentials: false })]),
      },
      'GET /user/vps/servers/12': {
        body: { server: server({ status: 'provisioning', has_credentials: false }) },
      },
    });
    renderVps('/vps?tab=servers');
    const line = within(await row());
    expect(line.getByText('Once created')).toBeInTheDocument();
    expect(line.queryByRole('button', { name: /login details/ })).toBeNull();
  });
});

describe('auto-renewal', () => {
  it('switches at once and stays when the API agrees', async () => {
    const answer = deferred<{ body: unknown }>();
    const api = stubVpsApi({
      'GET /user/vps/servers': { body: page([server({ renew_months: 3 })]) },
      'PUT /user/vps/servers/12/auto-renew': () => answer.promise,
    });
    const { user } = renderVps('/vps?tab=servers');
    const toggle = within(await row()).getByRole('switch', { name: 'Auto-renewal of server #12' });
    expect(toggle).toHaveAttribute('aria-checked', 'false');

    await user.click(toggle);
    // optimistic: on before the answer
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'true'));
    expect(api.callsTo('PUT', '/user/vps/servers/12/auto-renew').map((c) => c.body)).toEqual([
      { enabled: true, months: 3 },
    ]);
    answer.resolve({ body: { server: server({ renew_months: 3, auto_renew: true }) } });
    await waitFor(() => expect(toggle).not.toHaveAttribute('aria-busy'));
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    expect(toggle).toHaveAccessibleDescription('Renews for 3 months from the balance');
  });

  it('turns back and says why when the API refuses', async () => {
    const answer = deferred<Exclude<Handler, (...args: never[]) => unknown>>();
    stubVpsApi({
      'GET /user/vps/servers': { body: page([server({ auto_renew: true })]) },
      'PUT /user/vps/servers/12/auto-renew': () => answer.promise,
    });
    const { user } = renderVps('/vps?tab=servers');
    const line = within(await row());
    const toggle = line.getByRole('switch', { name: 'Auto-renewal of server #12' });
    await user.click(toggle);
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'false'));

    answer.resolve({
      status: 409,
      body: {
        message: 'The server has been revoked and can no longer be renewed',
        code: 'SERVER_REVOKED',
      },
    });
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'true'));
    expect(line.getByRole('alert')).toHaveTextContent(
      'Auto-renewal was not changed: The server has been revoked and can no longer be renewed',
    );
  });
});
