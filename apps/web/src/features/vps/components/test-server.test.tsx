import { screen, waitFor, within } from '@testing-library/react';
import type { TestRequest } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { ratesResponse, renderVps, searchOf, stubVpsApi } from '../test-utils';

function request(overrides: Partial<TestRequest> = {}): TestRequest {
  return {
    id: 7,
    created_at: '2026-11-09T08:00:00.000Z',
    status: 'under_review',
    reason: null,
    server_id: null,
    decided_at: null,
    ...overrides,
  };
}

const card = (name = 'Free test server for 3 days') => screen.findByRole('region', { name });

describe('the test server', () => {
  it('is ordered with the source question, then shows that it is under review', async () => {
    let asked: TestRequest | null = null;
    const api = stubVpsApi({
      'GET /user/vps/rates': () => ({ body: ratesResponse({ test_request: asked }) }),
      'POST /user/vps/test-server': () => {
        asked = request();
        return { status: 201, body: { test_request: asked, message: 'Under review' } };
      },
    });
    const { user } = renderVps('/vps?tab=rates');
    const region = await card();
    const order = within(region).getByRole('button', { name: 'Order a test server' });

    await user.click(order);
    const source = within(region).getByRole('combobox', { name: 'How did you hear about us?' });
    expect(source).toHaveFocus();
    expect(source).toHaveAccessibleDescription('Tell us how you heard about us');
    expect(api.callsTo('POST', '/user/vps/test-server')).toHaveLength(0);

    await user.selectOptions(source, 'A trading forum');
    await user.click(order);

    const status = await within(region).findByRole('status');
    expect(status).toHaveTextContent('Your request of Nov 9, 2026');
    expect(status).toHaveTextContent('Under review');
    expect(status).toHaveTextContent('We process test server requests within one business day.');
    expect(api.callsTo('POST', '/user/vps/test-server').map((c) => c.body)).toEqual([
      { source: 'forum' },
    ]);
    expect(within(region).queryByRole('button', { name: 'Order a test server' })).toBeNull();
  });

  it('says it was approved, and leads to My servers', async () => {
    stubVpsApi({
      'GET /user/vps/rates': {
        body: ratesResponse({
          trial_days: 1,
          test_request: request({
            status: 'approved',
            server_id: 40,
            decided_at: '2026-11-09T10:00:00.000Z',
          }),
        }),
      },
    });
    const { user, router } = renderVps('/vps?tab=rates');
    const region = await card('Free test server for 1 day');
    expect(within(region).getByText('Approved')).toBeInTheDocument();
    expect(within(region).getByText('Your test server is in My servers.')).toBeInTheDocument();
    await user.click(within(region).getByRole('button', { name: 'Open My servers' }));
    expect(searchOf(router).get('tab')).toBe('servers');
  });

  it('says it was rejected, and why', async () => {
    stubVpsApi({
      'GET /user/vps/rates': {
        body: ratesResponse({
          test_request: request({ status: 'rejected', reason: 'One test server per person' }),
        }),
      },
    });
    renderVps('/vps?tab=rates');
    const region = await card();
    expect(within(region).getByText('Rejected')).toBeInTheDocument();
    expect(within(region).getByText('Your test server request was rejected.')).toBeInTheDocument();
    expect(within(region).getByText('Reason: One test server per person')).toBeInTheDocument();
    expect(within(region).queryByRole('combobox')).toBeNull();
  });

  it('shows "You have already ordered a test server" and reads the request again', async () => {
    let taken = false;
    const api = stubVpsApi({
      'GET /user/vps/rates': () => ({
        body: ratesResponse({ test_request: taken ? request() : null }),
      }),
      'POST /user/vps/test-server': () => {
        taken = true;
        return {
          status: 409,
          body: { message: 'You have already ordered a test server', code: 'TEST_SERVER_TAKEN' },
        };
      },
    });
    const { user } = renderVps('/vps?tab=rates');
    const region = await card();
    await user.selectOptions(within(region).getByRole('combobox'), 'Other');
    await user.click(within(region).getByRole('button', { name: 'Order a test server' }));
    // the refusal is said, then the request (made elsewhere) shows
    await waitFor(() => expect(api.callsTo('GET', '/user/vps/rates')).toHaveLength(2));
    expect(await within(region).findByText('Under review')).toBeInTheDocument();
  });

  it('keeps the form with the refusal when the request fails otherwise', async () => {
    stubVpsApi({
      'POST /user/vps/test-server': {
        status: 503,
        body: { message: 'The service is busy. Please try again later', code: 'SERVICE_BUSY' },
      },
    });
    const { user } = renderVps('/vps?tab=rates');
    const region = await card();
    await user.selectOptions(within(region).getByRole('combobox'), 'YouTube');
    await user.click(within(region).getByRole('button', { name: 'Order a test server' }));
    expect(await within(region).findByRole('alert')).toHaveTextContent(
      'The service is busy. Please try again later',
    );
    expect(within(region).getByRole('button', { name: 'Order a test server' })).toBeEnabled();
  });

  it('counts the days in Russian', async () => {
    stubVpsApi({ 'GET /user/vps/rates': { body: ratesResponse({ trial_days: 5 }) } });
    renderVps('/vps?tab=rates', { language: 'ru' });
    expect(
      await screen.findByRole('region', { name: 'Бесплатный тестовый сервер на 5 дней' }),
    ).toBeInTheDocument();
  });
});
