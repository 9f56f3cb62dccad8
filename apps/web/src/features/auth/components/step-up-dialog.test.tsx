import { act, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { baseApi } from '../../../shared/api/base-api';
import { idempotentPost, type Idempotent } from '../../../shared/api/idempotent';
import { stepUpGate } from '../../../shared/api/step-up-gate';
import { deferred, stubFetch, type Reply, type StubCall } from '../../../test/fetch-stub';
import { renderApp } from '../../../test/render';

/**
 * Step-up in the console: a call answered 403 STEP_UP_REQUIRED opens one small dialog, the
 * proof goes to POST /user/auth/step-up, and the call goes again (a money call with its
 * Idempotency-Key); cancelled, the call fails and nothing else is sent.
 */

const probeApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    probeTransfer: build.mutation<{ done: boolean }, Idempotent<{ amount: number }>>({
      query: idempotentPost('/probe/transfer'),
    }),
    probeReveal: build.mutation<{ password: string }, void>({
      query: () => ({ url: '/probe/reveal', method: 'POST' }),
    }),
  }),
});

function Probe() {
  const [transfer] = probeApi.useProbeTransferMutation();
  const [reveal] = probeApi.useProbeRevealMutation();
  const [outcome, setOutcome] = useState<string[]>([]);
  const record = (what: string) => setOutcome((previous) => [...previous, what]);
  const both = () => {
    void transfer({ body: { amount: 600 }, idempotencyKey: 'key-1' })
      .unwrap()
      .then(
        () => record('transferred'),
        (error: { code: string }) => record(`transfer failed ${error.code}`),
      );
    void reveal()
      .unwrap()
      .then(
        (answer) => record(`revealed ${answer.password}`),
        (error: { code: string }) => record(`reveal failed ${error.code}`),
      );
  };
  return (
    <main>
      <button type="button" onClick={both}>
        Go
      </button>
      <output data-testid="outcome">{outcome.join(', ')}</output>
    </main>
  );
}

const STEP_UP_REQUIRED = (methods: string[]): Reply => ({
  status: 403,
  body: { message: 'Confirm it is you to continue', code: 'STEP_UP_REQUIRED', methods },
});

/** A route that asks for a step-up until the proof was given. */
function guarded(state: { proved: boolean }, methods: string[], ok: Reply) {
  return () => (state.proved ? ok : STEP_UP_REQUIRED(methods));
}

function stepUpRoute(state: { proved: boolean }, right: Record<string, string>) {
  return (call: StubCall): Reply => {
    const body = call.body as Record<string, string>;
    const [field] = Object.keys(body);
    if (JSON.stringify(body) === JSON.stringify(right)) {
      state.proved = true;
      return { body: { message: 'Confirmed: you can continue', code: 'STEP_UP_DONE' } };
    }
    return {
      status: 422,
      body: {
        message: 'The password or code is wrong',
        code: 'STEP_UP_PROOF_INVALID',
        errors: { [field!]: ['The password or code is wrong'] },
      },
    };
  };
}

const open = (language: 'en' | 'ru' = 'en') =>
  renderApp({
    routes: [{ path: '/', element: <Probe /> }],
    signedIn: true,
    language,
    preloadedState: { settings: { theme: 'light', language } },
  });

// a test that failed with the dialog open leaves no request behind for the next
afterEach(() => stepUpGate.settle('cancelled'));

describe('the step-up dialog', () => {
  it('opens once for two calls, shows a wrong password in it, and sends both again once proved', async () => {
    const state = { proved: false };
    const http = stubFetch({
      'POST /probe/transfer': guarded(state, ['password'], { status: 201, body: { done: true } }),
      'POST /probe/reveal': guarded(state, ['password'], { body: { password: 's3cret' } }),
      'POST /user/auth/step-up': stepUpRoute(state, { password: 'correct horse' }),
    });
    const { user } = await open();
    await user.click(screen.getByRole('button', { name: 'Go' }));

    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    const password = screen.getByLabelText('Password', { selector: 'input' });
    await waitFor(() => expect(password).toHaveFocus());
    expect(password).toHaveAttribute('autocomplete', 'current-password');

    await user.type(password, 'wrong{Enter}');
    // the wrong proof is named as the one asked for
    expect(await screen.findByText('The password is wrong')).toBeInTheDocument();
    expect(dialog).toBeInTheDocument();

    await user.clear(password);
    await user.type(password, 'correct horse{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() =>
      expect(screen.getByTestId('outcome').textContent ?? '').toContain('transferred'),
    );
    expect(screen.getByTestId('outcome').textContent).toContain('revealed s3cret');

    expect(http.callsTo('POST', '/user/auth/step-up').map((c) => c.body)).toEqual([
      { password: 'wrong' },
      { password: 'correct horse' },
    ]);
    // the money call went again with the same Idempotency-Key
    expect(
      http.callsTo('POST', '/probe/transfer').map((c) => c.headers.get('Idempotency-Key')),
    ).toEqual(['key-1', 'key-1']);
    expect(http.callsTo('POST', '/probe/reveal')).toHaveLength(2);
  });

  it('cancelled (Escape): the calls fail with a notice and nothing else is sent', async () => {
    const state = { proved: false };
    const http = stubFetch({
      'POST /probe/transfer': guarded(state, ['password'], { status: 201, body: { done: true } }),
      'POST /probe/reveal': guarded(state, ['password'], { body: { password: 's3cret' } }),
    });
    const { user } = await open();
    await user.click(screen.getByRole('button', { name: 'Go' }));
    await screen.findByRole('dialog', { name: 'Confirm it is you' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() =>
      expect(screen.getByTestId('outcome').textContent?.split(', ').sort()).toEqual([
        'reveal failed STEP_UP_CANCELLED',
        'transfer failed STEP_UP_CANCELLED',
      ]),
    );
    expect(await screen.findAllByText('Not done: you did not confirm it is you')).not.toHaveLength(
      0,
    );
    expect(http.callsTo('POST', '/user/auth/step-up')).toHaveLength(0);
    expect(http.callsTo('POST', '/probe/transfer')).toHaveLength(1);
  });

  it('asks for the app’s code when a second factor is on, in Russian, and takes a recovery code', async () => {
    const state = { proved: false };
    const http = stubFetch({
      'POST /probe/transfer': guarded(state, ['totp', 'recovery_code'], {
        status: 201,
        body: { done: true },
      }),
      'POST /probe/reveal': guarded(state, ['totp', 'recovery_code'], {
        body: { password: 's3cret' },
      }),
      'POST /user/auth/step-up': stepUpRoute(state, { recovery_code: 'abcde-23456' }),
    });
    const { user } = await open('ru');
    await user.click(screen.getByRole('button', { name: 'Go' }));
    await screen.findByRole('dialog', { name: 'Подтвердите, что это вы' });
    expect(screen.queryByLabelText('Пароль')).not.toBeInTheDocument();
    const code = screen.getByLabelText('Код из приложения');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await user.type(code, '123{Enter}');
    expect(await screen.findByText('Код должен состоять из 6 цифр')).toBeInTheDocument();
    await user.type(code, '456{Enter}');
    expect(await screen.findByText('Код неверный или уже использован')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Ввести резервный код' }));
    // the link is gone with the code's field: the focus is in the recovery code's
    expect(screen.getByLabelText('Резервный код')).toHaveFocus();
    await user.keyboard(' abcde-23456 {Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByTestId('outcome').textContent).toContain('transferred'));
    expect(http.callsTo('POST', '/user/auth/step-up').map((c) => c.body)).toEqual([
      { code: '123456' },
      { recovery_code: 'abcde-23456' },
    ]);
  });

  it('offers the ways the account has, as the sign-in’s second step does', async () => {
    const methods = ['totp', 'passkey', 'recovery_code'];
    stubFetch({
      'POST /probe/transfer': guarded({ proved: false }, methods, { status: 201, body: {} }),
      'POST /probe/reveal': guarded({ proved: false }, methods, { body: {} }),
    });
    const { user } = await open();
    await user.click(screen.getByRole('button', { name: 'Go' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Confirm it is you' }));
    await waitFor(() => expect(dialog.getByLabelText('Code from the app')).toHaveFocus());
    expect(dialog.getByRole('button', { name: 'Use a passkey' })).toBeVisible();
    expect(dialog.queryByRole('button', { name: 'Use the code from the app' })).toBeNull();

    await user.click(dialog.getByRole('button', { name: 'Use a recovery code' }));
    expect(dialog.queryByLabelText('Code from the app')).toBeNull();
    expect(dialog.getByLabelText('Recovery code')).toHaveAttribute('autocomplete', 'off');
    expect(dialog.getByLabelText('Recovery code')).toHaveFocus();
    expect(dialog.queryByRole('button', { name: 'Use a recovery code' })).toBeNull();
    await user.click(dialog.getByRole('button', { name: 'Use the code from the app' }));
    expect(dialog.getByLabelText('Code from the app')).toHaveAttribute(
      'autocomplete',
      'one-time-code',
    );
    expect(dialog.getByLabelText('Code from the app')).toHaveFocus();
  });

  it('with a passkey alone, offers the passkey and nothing to type', async () => {
    stubFetch({
      'POST /probe/transfer': guarded({ proved: false }, ['passkey'], { status: 201, body: {} }),
      'POST /probe/reveal': guarded({ proved: false }, ['passkey'], { body: {} }),
    });
    const { user } = await open();
    await user.click(screen.getByRole('button', { name: 'Go' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    expect(dialog).toHaveAccessibleDescription('Use your passkey to continue.');
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Use a passkey' })).toHaveFocus(),
    );
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Confirm' })).toBeNull();
  });

  it('keeps the dialog while the proof is checked: Escape does nothing then', async () => {
    const state = { proved: false };
    const answer = deferred<Reply>();
    stubFetch({
      'POST /probe/transfer': guarded(state, ['password'], { status: 201, body: { done: true } }),
      'POST /probe/reveal': guarded(state, ['password'], { body: { password: 's3cret' } }),
      'POST /user/auth/step-up': () => answer.promise,
    });
    const { user } = await open();
    await user.click(screen.getByRole('button', { name: 'Go' }));
    await screen.findByRole('dialog');
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    state.proved = true;
    await act(async () => {
      answer.resolve({ body: { message: 'Confirmed: you can continue', code: 'STEP_UP_DONE' } });
      await answer.promise;
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
