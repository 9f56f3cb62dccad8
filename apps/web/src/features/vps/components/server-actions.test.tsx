import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { OperationResponse, Server, Upgrade } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import {
  fixClock,
  operation,
  page,
  plain,
  RATES,
  renderVps,
  server,
  stubVpsApi,
  user as userFixture,
} from '../test-utils';

const row = (id = 12) => screen.findByRole('row', { name: new RegExp(`^#${id}\\b`) });

function accepted(changed: Server, kind: 'start' | 'shutdown' | 'reboot'): OperationResponse {
  return {
    server: changed,
    operation: changed.operation ?? operation({ kind }),
    message: 'The operation has started',
  };
}

const IN_PROGRESS = {
  status: 409,
  body: {
    message:
      'Another operation is running on this server. Try again when it has finished (1-2 minutes)',
    code: 'OPERATION_IN_PROGRESS',
  },
};

describe('start, shut down, reboot', () => {
  it('asks before a reboot, shows it running with a spinner, follows it and shows when it ends', async () => {
    const rebooting = server({ operation: operation({ kind: 'reboot', status: 'running' }) });
    const done = server({
      last_operation: operation({
        kind: 'reboot',
        status: 'succeeded',
        finished_at: '2026-11-10T12:01:30.000Z',
      }),
    });
    let polls = 0;
    const api = stubVpsApi({
      'GET /user/vps/servers': { body: page([server()]) },
      'POST /user/vps/servers/12/actions/reboot': {
        status: 202,
        body: accepted(rebooting, 'reboot'),
      },
      'GET /user/vps/servers/12': () => {
        polls += 1;
        return { body: { server: polls < 2 ? rebooting : done } };
      },
    });
    const { user } = renderVps('/vps?tab=servers');
    const line = within(await row());
    await user.click(line.getByRole('button', { name: 'Reboot server #12' }));

    const dialog = await screen.findByRole('dialog', { name: 'Reboot server #12?' });
    expect(dialog).toHaveAccessibleDescription(
      'Programs on the server, MetaTrader terminals included, will stop while it restarts. It takes 1–2 minutes.',
    );
    expect(api.callsTo('POST', '/user/vps/servers/12/actions/reboot')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Reboot' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await line.findByText('Rebooting…')).toBeInTheDocument();
    expect(line.getByRole('button', { name: 'Reboot server #12' })).toBeDisabled();
    expect(line.getByRole('button', { name: 'Shut down server #12' })).toBeDisabled();
    expect(api.callsTo('POST', '/user/vps/servers/12/actions/reboot')).toHaveLength(1);

    // polled every 2.5 s until the operation has ended
    await waitFor(() => expect(line.queryByText('Rebooting…')).toBeNull(), { timeout: 6000 });
    expect(line.getByText('Running')).toBeInTheDocument();
    expect(line.getByRole('button', { name: 'Reboot server #12' })).toBeEnabled();
    expect(polls).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(polls).toBe(2); // and no more
  }, 15_000);

  it('asks before a shutdown; Cancel sends nothing', async () => {
    const api = stubVpsApi({ 'GET /user/vps/servers': { body: page([server()]) } });
    const { user } = renderVps('/vps?tab=servers');
    const line = within(await row());
    await user.click(line.getByRole('button', { name: 'Shut down server #12' }));
    const dialog = await screen.findByRole('dialog', { name: 'Shut down server #12?' });
    expect(dialog).toHaveTextContent('MetaTrader terminals included, will stop');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
    await waitFor(() =>
      expect(line.getByRole('button', { name: 'Shut down server #12' })).toHaveFocus(),
    );
  });

  it('starts a stopped server at once, and says when another operation runs (409), then follows it', async () => {
    let listed = server({ power: 'stopped' });
    const api = stubVpsApi({
      'GET /user/vps/servers': () => ({ body: page([listed]) }),
      'GET /user/vps/servers/12': () => ({ body: { server: listed } }),
      'POST /user/vps/servers/12/actions/start': () => {
        // started meanwhile from another window
        listed = server({ power: 'stopped', operation: operation({ kind: 'start' }) });
        return IN_PROGRESS;
      },
    });
    const { user } = renderVps('/vps?tab=servers');
    const line = within(await row());
    expect(line.getByText('Shut down')).toBeInTheDocument();
    expect(line.queryByRole('button', { name: /Shut down server|Reboot server/ })).toBeNull();
    await user.click(line.getByRole('button', { name: 'Start server #12' }));

    expect(await line.findByRole('alert')).toHaveTextContent(
      'Another operation is running on this server. Try again when it has finished (1-2 minutes)',
    );
    // the list is read again: the operation that runs shows
    expect(await line.findByText('Starting…')).toBeInTheDocument();
    expect(line.getByRole('button', { name: 'Start server #12' })).toBeDisabled();
    expect(api.callsTo('POST', '/user/vps/servers/12/actions/start')).toHaveLength(1);
  });

  it('keeps the dialog with the refusal when the reboot is refused', async () => {
    stubVpsApi({
      'GET /user/vps/servers': { body: page([server()]) },
      'POST /user/vps/servers/12/actions/reboot': IN_PROGRESS,
    });
    const { user } = renderVps('/vps?tab=servers');
    await user.click(within(await row()).getByRole('button', { name: 'Reboot server #12' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Reboot' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Another operation is running on this server',
    );
  });

  it('says how the last operation failed', async () => {
    fixClock();
    stubVpsApi({
      'GET /user/vps/servers': {
        body: page([
          server({
            power: 'stopped',
            last_operation: operation({
              kind: 'start',
              status: 'failed',
              finished_at: '2026-11-10T11:00:00.000Z',
              error: 'The servers are unavailable right now',
            }),
          }),
        ]),
      },
    });
    renderVps('/vps?tab=servers');
    expect(
      await screen.findByText('Start did not complete: The servers are unavailable right now'),
    ).toBeInTheDocument();
  });
});

describe('renewal', () => {
  it('prices each period, shows the new paid-until and the balance, and pays with an Idempotency-Key', async () => {
    fixClock();
    let balance = 150.5;
    const renewed = server({ paid_until: '2027-03-01T10:00:00.000Z' });
    let listed = server();
    const api = stubVpsApi({
      'GET /user/auth': () => ({ body: userFixture({ balance }) }),
      'GET /user/vps/servers': () => ({ body: page([listed]) }),
      'POST /user/vps/servers/12/renew': () => {
        balance = 36.5;
        listed = renewed;
        return {
          body: { server: renewed, charged: 114, balance: 36.5, message: 'Renewed' },
        };
      },
    });
    const { user } = renderVps('/vps?tab=servers');
    const line = within(await row());
    await user.click(line.getByRole('button', { name: 'Renew server #12' }));

    const dialog = await screen.findByRole('dialog', { name: 'Renew server #12' });
    const modal = within(dialog);
    expect(dialog).toHaveAccessibleDescription('Trader, paid until Dec\u00a01,\u00a02026.');
    expect(modal.getByRole('radio', { name: '1 month' })).toBeChecked();
    expect(modal.getByRole('radio', { name: '1 month' })).toHaveAccessibleDescription(
      'No discount $40.00',
    );
    expect(modal.getByRole('radio', { name: '12 months' })).toHaveAccessibleDescription(
      '−15% $408.00',
    );
    await user.click(modal.getByRole('radio', { name: '3 months' }));
    expect(plain(modal.getByTestId('renew-total').textContent)).toBe('$114.00');
    expect(modal.getByText('Paid until after renewal').nextSibling).toHaveTextContent(
      'Mar 1, 2027',
    );
    expect(await modal.findByTestId('vps-balance')).toHaveTextContent('$150.50');
    const userCalls = api.callsTo('GET', '/user/auth').length;

    await user.click(modal.getByRole('button', { name: 'Pay $114.00 for 3 months' }));

    expect(
      await screen.findByText(
        'Server #12 is renewed until Mar 1, 2027. $114.00 was charged; your balance is $36.50.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    const calls = api.callsTo('POST', '/user/vps/servers/12/renew');
    expect(calls.map((c) => c.body)).toEqual([{ months: 3 }]);
    expect(calls[0]?.headers.get('Idempotency-Key')).toBeTruthy();
    expect(line.getByText('Mar 1, 2027')).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('GET', '/user/auth').length).toBeGreaterThan(userCalls));
  });

  it('says when the balance is short, and shows the refusal in the dialog', async () => {
    stubVpsApi({
      'GET /user/auth': { body: userFixture({ balance: 10 }) },
      'GET /user/vps/servers': {
        body: page([server({ status: 'blocked', power: 'stopped', renew_months: 6 })]),
      },
      'POST /user/vps/servers/12/renew': {
        status: 422,
        body: { message: 'Insufficient funds for payment', code: 'INSUFFICIENT_FUNDS_PAYMENT' },
      },
    });
    const { user } = renderVps('/vps?tab=servers');
    await user.click(within(await row()).getByRole('button', { name: 'Renew server #12' }));
    const modal = within(await screen.findByRole('dialog', { name: 'Renew server #12' }));
    expect(modal.getByText('The server is blocked; once renewed it starts again.')).toBeVisible();
    // auto-renewal's period is the one offered first
    expect(modal.getByRole('radio', { name: '6 months' })).toBeChecked();
    expect(
      await modal.findByText('$206.00 more is needed on your balance.', { exact: false }),
    ).toBeInTheDocument();
    await user.click(modal.getByRole('button', { name: 'Pay $216.00 for 6 months' }));
    const alert = await modal.findByRole('alert');
    expect(alert).toHaveTextContent('Insufficient funds for payment Top up the balance');
    expect(within(alert).getByRole('link', { name: 'Top up the balance' })).toHaveAttribute(
      'href',
      '/balance-operations?tab=topup',
    );
  });
});

describe('upgrade', () => {
  const pending: Upgrade = {
    id: 3,
    created_at: '2026-11-10T12:00:00.000Z',
    from_rate: 'Trader',
    to_rate: 'Pro',
    to_rate_id: 3,
    scheduled_for: '2026-11-20',
    price: 16,
    status: 'pending',
  };

  it('offers the larger rates and the days up to paid-until, prices the difference and asks once', async () => {
    fixClock();
    let listed = server();
    const api = stubVpsApi({
      'GET /user/vps/servers': () => ({ body: page([listed]) }),
      'POST /user/vps/servers/12/upgrade': () => {
        listed = server({ upgrade: pending });
        return {
          status: 202,
          body: {
            server: listed,
            upgrade: pending,
            charged: 16,
            balance: 134.5,
            message: 'The upgrade is scheduled',
          },
        };
      },
    });
    const { user } = renderVps('/vps?tab=servers');
    const line = within(await row());
    await user.click(line.getByRole('button', { name: 'Upgrade server #12' }));

    const modal = within(await screen.findByRole('dialog', { name: 'Upgrade server #12' }));
    // Start is smaller and Trader is the current one: Pro only
    expect(modal.getAllByRole('radio')).toHaveLength(1);
    expect(modal.getByRole('radio', { name: 'Pro' })).toBeChecked();
    expect(modal.getByRole('radio', { name: 'Pro' })).toHaveAccessibleDescription(
      /\+\$40\.00 a month/,
    );
    const date = modal.getByLabelText('Upgrade date');
    expect(date).toHaveAttribute('min', '2026-11-10');
    expect(date).toHaveAttribute('max', '2026-11-30');
    expect(date).toHaveValue('2026-11-10');
    expect(date).toHaveAccessibleDescription(
      'From Nov\u00a010,\u00a02026 to Nov\u00a030,\u00a02026',
    );
    // 22 days of $40 a month, a month as 30 days, up to the cent
    expect(modal.getByText('Price difference until Dec 1, 2026 (22 days)')).toBeInTheDocument();
    expect(plain(modal.getByTestId('upgrade-total').textContent)).toBe('$29.34');
    expect(
      modal.getByText('The server is offline for up to 1 hour while it is upgraded.'),
    ).toBeInTheDocument();

    fireEvent.change(date, { target: { value: '2026-12-05' } });
    await user.click(modal.getByRole('button', { name: 'Upgrade' }));
    expect(date).toHaveAttribute('aria-invalid', 'true');
    expect(date).toHaveAccessibleDescription(
      'Choose a date from today to the day before the paid-until date From Nov\u00a010,\u00a02026 to Nov\u00a030,\u00a02026',
    );
    expect(date).toHaveFocus();
    expect(api.callsTo('POST', '/user/vps/servers/12/upgrade')).toHaveLength(0);

    fireEvent.change(date, { target: { value: '2026-11-20' } });
    expect(plain(modal.getByTestId('upgrade-total').textContent)).toBe('$16.00');
    await user.click(modal.getByRole('button', { name: 'Pay $16.00 and upgrade' }));

    expect(
      await screen.findByText(
        'The upgrade of server #12 to Pro is scheduled for Nov 20, 2026. $16.00 was charged; your balance is $134.50.',
      ),
    ).toBeInTheDocument();
    const calls = api.callsTo('POST', '/user/vps/servers/12/upgrade');
    expect(calls.map((c) => c.body)).toEqual([{ rate_id: 3, date: '2026-11-20' }]);
    expect(calls[0]?.headers.get('Idempotency-Key')).toBeTruthy();

    // pending: shown on the row, and the button says why it is unavailable
    expect(
      await line.findByText('Upgrade to Pro on Nov 20, 2026 is being processed'),
    ).toBeInTheDocument();
    const button = line.getByRole('button', { name: 'Upgrade server #12' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription(
      'Upgrade to Pro on Nov\u00a020,\u00a02026 is being processed',
    );
    await user.click(button);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(line.getByRole('status')).toHaveTextContent(
      'An upgrade to Pro on Nov 20, 2026 is already being processed',
    );
  });

  it('shows the API’s refusal (a request already being processed)', async () => {
    fixClock();
    stubVpsApi({
      'GET /user/vps/servers': { body: page([server()]) },
      'POST /user/vps/servers/12/upgrade': {
        status: 409,
        body: {
          message: 'An upgrade request is already being processed',
          code: 'UPGRADE_PENDING',
        },
      },
    });
    const { user } = renderVps('/vps?tab=servers');
    await user.click(within(await row()).getByRole('button', { name: 'Upgrade server #12' }));
    const modal = within(await screen.findByRole('dialog'));
    await user.click(modal.getByRole('button', { name: 'Pay $29.34 and upgrade' }));
    expect(await modal.findByRole('alert')).toHaveTextContent(
      'An upgrade request is already being processed',
    );
  });

  it('is unavailable, with the reason, for a test server, the largest rate and the last day', async () => {
    fixClock();
    stubVpsApi({
      'GET /user/vps/servers': {
        body: page([
          server({ id: 31, is_trial: true }),
          server({ id: 32, rate: RATES[2]! }),
          server({ id: 33, paid_until: '2026-11-10T20:00:00.000Z' }),
        ]),
      },
    });
    const { user } = renderVps('/vps?tab=servers');
    const cases: [number, string][] = [
      [31, 'A test server cannot be upgraded'],
      [32, 'The server is already on the largest rate'],
      [33, 'Too little of the paid period is left for an upgrade; renew the server first'],
    ];
    for (const [id, reason] of cases) {
      const line = within(await row(id));
      const button = await line.findByRole('button', { name: `Upgrade server #${id}` });
      await waitFor(() => expect(button).toHaveAttribute('aria-disabled', 'true'));
      await user.click(button);
      expect(line.getByRole('status')).toHaveTextContent(reason);
      expect(button).toHaveAccessibleDescription(reason);
    }
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
