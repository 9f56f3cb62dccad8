import { screen, waitFor, within } from '@testing-library/react';
import type { FactorsResponse } from '@tradehost/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  NO_FACTORS,
  passkeyItem,
  renderProfile,
  stubObjectUrls,
  stubProfileApi,
} from '../test-utils';

// the browser's WebAuthn prompt (a third-party library over navigator.credentials, which jsdom
// lacks): what the user does in it is the test's to say
const webAuthn = vi.hoisted(() => ({
  startRegistration: vi.fn(),
  startAuthentication: vi.fn(),
  browserSupportsWebAuthn: vi.fn(() => true),
}));
vi.mock('@simplewebauthn/browser', () => webAuthn);

afterEach(() => {
  webAuthn.startRegistration.mockReset();
  webAuthn.startAuthentication.mockReset();
});

const CODES = Array.from({ length: 10 }, (_, i) => `abcde-${String(23450 + i)}`);
const ENROLMENT = {
  uri: 'otpauth://totp/TradeHost:alice%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DP&issuer=TradeHost',
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DP',
  qr: 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
};
const TOTP_ON: FactorsResponse = {
  totp: { enabled: true, since: '2026-11-22T12:00:00.000Z' },
  passkeys: [],
  recovery_codes: { left: 10, created_at: '2026-11-22T12:00:00.000Z' },
};
const INVALID_CODE = {
  status: 422,
  body: {
    message: 'The code is wrong or was already used',
    code: 'SECOND_FACTOR_INVALID',
    errors: { code: ['The code is wrong or was already used'] },
  },
};
const REGISTRATION = {
  id: 'cred',
  rawId: 'cred',
  type: 'public-key',
  response: { clientDataJSON: 'e30', attestationObject: 'o2M' },
  clientExtensionResults: {},
};

const section = () => screen.getByRole('region', { name: 'Second factor' });
const part = (name: string) => within(section()).getByRole('listitem', { name });

/** Factors that the stub serves and the test changes, as the server would. */
function factorsServer(initial: FactorsResponse) {
  const state = { current: initial };
  return { state, handler: () => ({ body: state.current }) };
}

describe('the second factor', () => {
  it('shows an account without one: the app off, no passkeys, no codes yet', async () => {
    stubProfileApi();
    renderProfile();
    const app = await screen.findByRole('listitem', { name: 'Authenticator app' });
    expect(app).toHaveTextContent('Off');
    expect(within(app).getByRole('button', { name: 'Set up the authenticator app' })).toBeVisible();
    expect(part('Passkeys')).toHaveTextContent('No passkeys yet.');
    expect(part('Recovery codes')).toHaveTextContent(
      'They are made when you turn on the authenticator app',
    );
    expect(within(part('Recovery codes')).queryByRole('button')).toBeNull();
  });

  it('comes after the password on the page', async () => {
    stubProfileApi();
    renderProfile();
    await screen.findByRole('listitem', { name: 'Authenticator app' });
    const titles = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(titles.indexOf('Second factor')).toBe(titles.indexOf('Password') + 1);
  });

  it('shows the app on since when, each passkey and how many codes are left', async () => {
    stubProfileApi({
      'GET /user/factors': {
        body: {
          ...TOTP_ON,
          passkeys: [
            passkeyItem(),
            passkeyItem({ id: 8, name: 'Phone', last_used_at: '2026-11-23T08:15:00.000Z' }),
          ],
          recovery_codes: { left: 8, created_at: '2026-11-22T12:00:00.000Z' },
        },
      },
    });
    renderProfile();
    const app = await screen.findByRole('listitem', { name: 'Authenticator app' });
    expect(app).toHaveTextContent('On');
    expect(within(app).getByText('On since Nov 22, 2026').closest('time')).toHaveAttribute(
      'datetime',
      '2026-11-22T12:00:00.000Z',
    );
    const keys = within(part('Passkeys')).getAllByRole('listitem');
    expect(keys[0]).toHaveTextContent(/Work laptop\s*Added:\s*Nov 21, 2026\s*Last used:\s*not yet/);
    expect(keys[1]).toHaveTextContent(/Phone.*Last used:\s*Nov 23, 2026/);
    expect(part('Recovery codes')).toHaveTextContent('8 of 10 left');
    expect(part('Recovery codes')).not.toHaveTextContent(/Only|No recovery codes left/);
  });

  it('warns when few or no recovery codes are left, in Russian with its plurals', async () => {
    let left = 3;
    stubProfileApi({
      'GET /user/factors': () => ({
        body: {
          ...TOTP_ON,
          recovery_codes: { left, created_at: TOTP_ON.recovery_codes.created_at },
        },
      }),
    });
    const first = renderProfile({ language: 'ru' });
    const codes = await screen.findByRole('listitem', { name: 'Резервные коды' });
    expect(codes).toHaveTextContent('Осталось 3 из 10');
    expect(codes).toHaveTextContent('Осталось всего 3 резервных кода.');
    first.unmount();

    left = 1;
    renderProfile({ language: 'ru' });
    const one = await screen.findByRole('listitem', { name: 'Резервные коды' });
    expect(one).toHaveTextContent('Остался 1 из 10');
    expect(one).toHaveTextContent('Остался всего 1 резервный код.');
  });

  it('says none are left, and offers new ones', async () => {
    stubProfileApi({
      'GET /user/factors': {
        body: {
          ...TOTP_ON,
          recovery_codes: { left: 0, created_at: TOTP_ON.recovery_codes.created_at },
        },
      },
    });
    renderProfile();
    const codes = await screen.findByRole('listitem', { name: 'Recovery codes' });
    expect(codes).toHaveTextContent('0 of 10 left');
    expect(codes).toHaveTextContent('No recovery codes left: if you lose your phone or passkey');
    expect(within(codes).getByRole('button', { name: 'Create new recovery codes' })).toBeVisible();
  });

  it('sets up the app: QR, key, a wrong code on its field, then the ten codes once', async () => {
    const server = factorsServer(NO_FACTORS);
    let tries = 0;
    const api = stubProfileApi({
      'GET /user/factors': server.handler,
      'POST /user/factors/totp': { body: ENROLMENT },
      'POST /user/factors/totp/confirm': () => {
        tries += 1;
        if (tries === 1) return INVALID_CODE;
        server.state.current = TOTP_ON;
        return { body: { recovery_codes: CODES } };
      },
    });
    const { create } = stubObjectUrls();
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this);
    });
    const { user } = renderProfile();
    await user.click(await screen.findByRole('button', { name: 'Set up the authenticator app' }));

    expect(
      await screen.findByRole('heading', { name: 'Set up the authenticator app' }),
    ).toHaveFocus();
    expect(
      screen.getByRole('img', {
        name: 'QR code that adds your TradeHost account to an authenticator app',
      }),
    ).toHaveAttribute('src', ENROLMENT.qr);
    expect(within(section()).getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy the key' }));
    expect(await navigator.clipboard.readText()).toBe(ENROLMENT.secret);

    const code = screen.getByLabelText('Code from the app');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    await user.type(code, '123');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(code).toHaveAccessibleDescription('The code must be 6 digits');
    expect(api.callsTo('POST', '/user/factors/totp/confirm')).toEqual([]);

    await user.type(code, '456');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    await waitFor(() =>
      expect(code).toHaveAccessibleDescription('The code is wrong or was already used'),
    );
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(code).toHaveFocus();

    await user.clear(code);
    await user.type(code, '654 321');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByRole('heading', { name: 'Save your recovery codes' })).toHaveFocus();
    expect(api.callsTo('POST', '/user/factors/totp/confirm').map((c) => c.body)).toEqual([
      { code: '123456' },
      { code: '654321' },
    ]);
    expect(screen.getByText(/The authenticator app is on/)).toBeInTheDocument();
    const shown = within(screen.getByRole('list', { name: 'Your recovery codes' }));
    expect(shown.getAllByRole('listitem').map((li) => li.textContent)).toEqual(CODES);

    await user.click(screen.getByRole('button', { name: 'Copy the codes' }));
    expect(await navigator.clipboard.readText()).toBe(CODES.join('\n'));
    await user.click(screen.getByRole('button', { name: 'Download (.txt)' }));
    expect(clicked.map((a) => a.download)).toEqual(['tradehost-recovery-codes.txt']);
    const file = create.mock.calls[0]![0] as Blob;
    // jsdom's Blob has no text(): its FileReader reads it
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(file);
    });
    expect(text).toMatch(/^TradeHost recovery codes of alice@example.com, made /);
    expect(text).toContain(CODES.join('\n'));

    // the view stays until the user says the codes are saved
    await user.click(screen.getByRole('button', { name: 'Done' }));
    const saved = screen.getByRole('checkbox', { name: 'I have saved these codes' });
    expect(saved).toHaveAccessibleDescription(
      'Confirm that you have saved the codes: they are not shown again',
    );
    expect(saved).toHaveFocus();
    expect(screen.getByRole('list', { name: 'Your recovery codes' })).toBeInTheDocument();
    await user.click(saved);
    await user.click(screen.getByRole('button', { name: 'Done' }));

    expect(
      (await screen.findByText('Your recovery codes are saved. Each one works once.')).closest(
        '[role="status"]',
      ),
    ).toHaveFocus();
    expect(screen.queryByRole('list', { name: 'Your recovery codes' })).toBeNull();
    expect(screen.queryByText(CODES[0]!)).toBeNull();
    await waitFor(() => expect(part('Authenticator app')).toHaveTextContent('On'));
    expect(part('Recovery codes')).toHaveTextContent('10 of 10 left');
  });

  it('says a wrong code in Russian, and a cancelled set-up changes nothing', async () => {
    const api = stubProfileApi({
      'POST /user/factors/totp': { body: ENROLMENT },
      'POST /user/factors/totp/confirm': INVALID_CODE,
    });
    const { user } = renderProfile({ language: 'ru' });
    await user.click(await screen.findByRole('button', { name: 'Подключить аутентификатор' }));
    const code = await screen.findByLabelText('Код из приложения');
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Включить' }));
    await waitFor(() =>
      expect(code).toHaveAccessibleDescription('Код неверный или уже использован'),
    );
    await user.click(screen.getByRole('button', { name: 'Отмена' }));
    expect(await screen.findByRole('button', { name: 'Подключить аутентификатор' })).toHaveFocus();
    expect(api.callsTo('POST', '/user/factors/totp/confirm')).toHaveLength(1);
  });

  it('turns the app off after a confirmation while a passkey stays', async () => {
    const server = factorsServer({ ...TOTP_ON, passkeys: [passkeyItem()] });
    const api = stubProfileApi({
      'GET /user/factors': server.handler,
      'POST /user/factors/totp/disable': () => {
        server.state.current = { ...server.state.current, totp: { enabled: false, since: null } };
        return { body: server.state.current };
      },
    });
    const { user } = renderProfile();
    await user.click(await screen.findByRole('button', { name: 'Turn off the authenticator app' }));
    const dialog = screen.getByRole('dialog', { name: 'Turn off the authenticator app?' });
    expect(dialog).toHaveAccessibleDescription('Sign-in will no longer ask for its codes.');
    expect(within(dialog).queryByLabelText('Password')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('POST', '/user/factors/totp/disable')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Turn off the authenticator app' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('The authenticator app is turned off.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/user/factors/totp/disable').map((c) => c.body)).toEqual([{}]);
    await waitFor(() => expect(part('Authenticator app')).toHaveTextContent('Off'));
  });

  it('asks for the password and a current code to turn off the last factor, and shows what was wrong', async () => {
    let answer: { status?: number; body: unknown } = {
      status: 422,
      body: {
        message: 'The current password is wrong',
        code: 'CURRENT_PASSWORD_WRONG',
        errors: { password: ['The current password is wrong'] },
      },
    };
    const api = stubProfileApi({
      'GET /user/factors': { body: TOTP_ON },
      'POST /user/factors/totp/disable': () => answer,
    });
    const { user } = renderProfile();
    await user.click(await screen.findByRole('button', { name: 'Turn off the authenticator app' }));
    const dialog = screen.getByRole('dialog', { name: 'Turn off the authenticator app?' });
    expect(dialog).toHaveAccessibleDescription(/It is your last second factor/);
    await user.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    const password = within(dialog).getByLabelText('Password');
    expect(password).toHaveAccessibleDescription('Enter your current password');
    expect(password).toHaveFocus();
    const code = within(dialog).getByLabelText('Code from the app');
    expect(code).toHaveAccessibleDescription('The code must be 6 digits');
    expect(api.callsTo('POST', '/user/factors/totp/disable')).toEqual([]);

    await user.type(password, 'not-it');
    await user.type(code, '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    await waitFor(() =>
      expect(password).toHaveAccessibleDescription('The current password is wrong'),
    );
    expect(screen.getByRole('dialog')).toBeInTheDocument();

    // a lost phone: a recovery code instead
    await user.click(within(dialog).getByRole('button', { name: 'Use a recovery code instead' }));
    // the link that switched is gone: the focus is in the recovery code's field
    expect(within(dialog).getByLabelText('Recovery code')).toHaveFocus();
    await user.clear(password);
    await user.type(password, 'correct horse');
    await user.type(within(dialog).getByLabelText('Recovery code'), ' abcde-23456 ');
    answer = { body: NO_FACTORS };
    await user.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('The authenticator app is turned off.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/user/factors/totp/disable').map((c) => c.body)).toEqual([
      { password: 'not-it', code: '123456' },
      { password: 'correct horse', recovery_code: 'abcde-23456' },
    ]);
  });

  it('makes new recovery codes after a confirmation and shows them once', async () => {
    const api = stubProfileApi({
      'GET /user/factors': { body: TOTP_ON },
      'POST /user/factors/recovery-codes': { body: { recovery_codes: CODES } },
    });
    const { user } = renderProfile();
    await user.click(await screen.findByRole('button', { name: 'Create new recovery codes' }));
    const dialog = screen.getByRole('dialog', { name: 'Create new recovery codes?' });
    expect(dialog).toHaveAccessibleDescription(/The codes you have now stop working at once/);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('POST', '/user/factors/recovery-codes')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Create new recovery codes' }));
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Create the codes' }),
    );
    expect(await screen.findByRole('heading', { name: 'Save your recovery codes' })).toHaveFocus();
    expect(
      screen.getByText('New recovery codes are made: the old ones no longer work.'),
    ).toBeVisible();
    expect(
      within(screen.getByRole('list', { name: 'Your recovery codes' })).getAllByRole('listitem'),
    ).toHaveLength(10);
  });

  it('adds a passkey by name through the browser’s prompt, calmly when the prompt is closed', async () => {
    const server = factorsServer(NO_FACTORS);
    const options = { challenge: 'Y2hhbGxlbmdl', rp: { id: 'localhost', name: 'TradeHost' } };
    const api = stubProfileApi({
      'GET /user/factors': server.handler,
      'POST /user/factors/passkeys/options': { body: options },
      'POST /user/factors/passkeys': (call) => {
        const added = passkeyItem({ name: (call.body as { name: string }).name });
        server.state.current = { ...server.state.current, passkeys: [added] };
        return { status: 201, body: added };
      },
    });
    const { user } = renderProfile();
    await user.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    const dialog = screen.getByRole('dialog', { name: 'Add a passkey' });
    const name = within(dialog).getByLabelText('Name');
    expect(name).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Create the passkey' }));
    expect(name).toHaveAccessibleDescription(/Name the passkey/);
    expect(api.callsTo('POST', '/user/factors/passkeys/options')).toEqual([]);

    await user.type(name, '  Work laptop ');
    webAuthn.startRegistration.mockRejectedValueOnce(
      Object.assign(new Error('The operation either timed out or was not allowed.'), {
        name: 'NotAllowedError',
      }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Create the passkey' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent(
      'The passkey was not created: the browser’s request was closed or timed out.',
    );
    expect(webAuthn.startRegistration).toHaveBeenCalledWith({ optionsJSON: options });
    expect(api.callsTo('POST', '/user/factors/passkeys')).toEqual([]);

    webAuthn.startRegistration.mockResolvedValueOnce(REGISTRATION);
    await user.click(within(dialog).getByRole('button', { name: 'Create the passkey' }));
    expect(await screen.findByText('The passkey “Work laptop” is added.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.callsTo('POST', '/user/factors/passkeys').map((c) => c.body)).toEqual([
      { name: 'Work laptop', response: REGISTRATION },
    ]);
    await waitFor(() =>
      expect(within(part('Passkeys')).getAllByRole('listitem')[0]).toHaveTextContent('Work laptop'),
    );
    // with a factor on, the codes can be made
    expect(
      within(part('Recovery codes')).getByRole('button', { name: 'Create recovery codes' }),
    ).toBeVisible();
  });

  it('shows the recovery codes a first passkey brought once, as after the app’s set-up', async () => {
    const server = factorsServer(NO_FACTORS);
    stubProfileApi({
      'GET /user/factors': server.handler,
      'POST /user/factors/passkeys/options': { body: { challenge: 'Y2hhbGxlbmdl' } },
      'POST /user/factors/passkeys': () => {
        const added = passkeyItem({ name: 'Phone' });
        server.state.current = {
          ...server.state.current,
          passkeys: [added],
          recovery_codes: { left: 10, created_at: added.created_at },
        };
        return { status: 201, body: { ...added, recovery_codes: CODES } };
      },
    });
    webAuthn.startRegistration.mockResolvedValueOnce(REGISTRATION);
    const { user } = renderProfile();
    await user.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    const dialog = screen.getByRole('dialog', { name: 'Add a passkey' });
    await user.type(within(dialog).getByLabelText('Name'), 'Phone');
    await user.click(within(dialog).getByRole('button', { name: 'Create the passkey' }));

    expect(await screen.findByRole('heading', { name: 'Save your recovery codes' })).toHaveFocus();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText('The passkey “Phone” is added.')).toBeVisible();
    const shown = within(screen.getByRole('list', { name: 'Your recovery codes' }));
    expect(shown.getAllByRole('listitem').map((li) => li.textContent)).toEqual(CODES);
    expect(screen.getByRole('button', { name: 'Download (.txt)' })).toBeVisible();

    await user.click(screen.getByRole('checkbox', { name: 'I have saved these codes' }));
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(
      (await screen.findByText('Your recovery codes are saved. Each one works once.')).closest(
        '[role="status"]',
      ),
    ).toHaveFocus();
    expect(screen.queryByText(CODES[0]!)).toBeNull();
    await waitFor(() => expect(part('Recovery codes')).toHaveTextContent('10 of 10 left'));
    expect(within(part('Passkeys')).getAllByRole('listitem')[0]).toHaveTextContent('Phone');
  });

  it('says so when this device already holds a passkey of the account', async () => {
    stubProfileApi({ 'POST /user/factors/passkeys/options': { body: { challenge: 'x' } } });
    webAuthn.startRegistration.mockRejectedValueOnce(
      Object.assign(new Error('The authenticator was previously registered'), {
        name: 'InvalidStateError',
      }),
    );
    const { user } = renderProfile({ language: 'ru' });
    await user.click(await screen.findByRole('button', { name: 'Добавить ключ доступа' }));
    await user.type(screen.getByLabelText('Название'), 'Телефон');
    await user.click(screen.getByRole('button', { name: 'Создать ключ доступа' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'На этом устройстве уже есть ключ доступа к вашему аккаунту.',
    );
  });

  it('renames a passkey, refusing an empty name', async () => {
    const server = factorsServer({ ...TOTP_ON, passkeys: [passkeyItem()] });
    const api = stubProfileApi({
      'GET /user/factors': server.handler,
      'PATCH /user/factors/passkeys/7': (call) => {
        const renamed = passkeyItem({ name: (call.body as { name: string }).name });
        server.state.current = { ...server.state.current, passkeys: [renamed] };
        return { body: renamed };
      },
    });
    const { user } = renderProfile();
    await user.click(await screen.findByRole('button', { name: 'Rename the passkey Work laptop' }));
    const dialog = screen.getByRole('dialog', { name: 'Rename the passkey' });
    const name = within(dialog).getByLabelText('Name');
    expect(name).toHaveValue('Work laptop');
    await user.clear(name);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(name).toHaveAccessibleDescription('Name the passkey');
    await user.type(name, 'Home desk');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The passkey is renamed to “Home desk”.')).toBeInTheDocument();
    expect(api.callsTo('PATCH', '/user/factors/passkeys/7').map((c) => c.body)).toEqual([
      { name: 'Home desk' },
    ]);
    await waitFor(() => expect(part('Passkeys')).toHaveTextContent('Home desk'));
  });

  it('removes the last passkey with the password and the passkey itself', async () => {
    const assertion = { id: 'cred', rawId: 'cred', type: 'public-key', response: {} };
    const options = { challenge: 'YXNzZXJ0' };
    const api = stubProfileApi({
      'GET /user/factors': {
        body: {
          ...NO_FACTORS,
          passkeys: [passkeyItem()],
          recovery_codes: { left: 10, created_at: TOTP_ON.recovery_codes.created_at },
        },
      },
      'POST /user/factors/passkeys/assertion-options': { body: options },
      'POST /user/factors/passkeys/7/remove': { body: NO_FACTORS },
    });
    const { user } = renderProfile();
    await user.click(await screen.findByRole('button', { name: 'Remove the passkey Work laptop' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove the passkey “Work laptop”?' });
    expect(dialog).toHaveAccessibleDescription(/It is your last second factor/);
    expect(within(dialog).getByText(/your browser asks for this passkey/)).toBeVisible();
    await user.type(within(dialog).getByLabelText('Password'), 'correct horse');

    webAuthn.startAuthentication.mockRejectedValueOnce(
      Object.assign(new Error('cancelled'), { name: 'NotAllowedError' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent(
      'The passkey was not used. Try again, or use a recovery code.',
    );
    expect(api.callsTo('POST', '/user/factors/passkeys/7/remove')).toEqual([]);

    webAuthn.startAuthentication.mockResolvedValueOnce(assertion);
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('The passkey “Work laptop” is removed.')).toBeInTheDocument();
    expect(webAuthn.startAuthentication).toHaveBeenLastCalledWith({ optionsJSON: options });
    expect(api.callsTo('POST', '/user/factors/passkeys/7/remove').map((c) => c.body)).toEqual([
      { password: 'correct horse', passkey: assertion },
    ]);
  });

  it('offers to try again when the factors cannot be loaded', async () => {
    let fail = true;
    stubProfileApi({
      'GET /user/factors': () =>
        fail
          ? { status: 500, body: { message: 'Internal server error', code: 'INTERNAL' } }
          : { body: NO_FACTORS },
    });
    const { user } = renderProfile();
    expect(await screen.findByText('The second factor could not be loaded')).toBeInTheDocument();
    fail = false;
    await user.click(within(section()).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('listitem', { name: 'Authenticator app' })).toBeInTheDocument();
  });
});
