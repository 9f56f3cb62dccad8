import { screen, waitFor, within } from '@testing-library/react';
import type { LatencyResponse } from '@tradehost/contracts';
import { describe, expect, it } from 'vitest';
import { bestLocation } from './broker-latency';
import { plain, renderVps, stubVpsApi, user, type Handler, type StubCall } from '../test-utils';

/** The order form's broker field and the ping from each location (RATES: London, Frankfurt). */

const KNOWN = ['Alpha-Live', 'Alpha-Demo', 'Alphabet-Real'];

const brokers: Handler = ({ query }: StubCall) => ({
  body: {
    brokers: KNOWN.filter((name) =>
      name.toLowerCase().startsWith((query.get('query') ?? '').toLowerCase()),
    ),
  },
});

function latency(broker: string, measured: boolean): LatencyResponse {
  return {
    broker,
    since: '2026-10-11T12:00:00.000Z',
    locations: [
      {
        location: 'London (LD4)',
        ping: measured ? { median_ms: 12, p90_ms: 19, terminals: 8 } : null,
      },
      { location: 'Frankfurt (FR2)', ping: null },
      // a location of the catalogue this form does not offer is not shown
      {
        location: 'Tokyo (TY3)',
        ping: measured ? { median_ms: 3, p90_ms: 4, terminals: 3 } : null,
      },
    ],
  };
}

const latencyRoute: Handler = ({ query }: StubCall) => {
  const broker = query.get('broker')!;
  return { body: latency(broker, broker.toLowerCase() === 'alpha-live') };
};

async function openRates(language: 'en' | 'ru' = 'en') {
  const view = renderVps('/vps?tab=rates', { language });
  const name = language === 'en' ? /Your broker’s server/ : /Сервер вашего брокера/;
  return { ...view, field: await screen.findByRole('combobox', { name }) };
}

const figures = () => screen.findByTestId('latency-figures');
const lines = (list: HTMLElement) =>
  within(list)
    .getAllByRole('listitem')
    .map((item) => plain(item.textContent));

describe('the order form’s broker field', () => {
  it('suggests the servers we know as it is typed, then shows each location’s ping', async () => {
    const api = stubVpsApi({
      'GET /user/vps/brokers': brokers,
      'GET /user/vps/latency': latencyRoute,
    });
    const { user: events, field } = await openRates();
    expect(field).toHaveAccessibleDescription(/over the last 30 days/);

    await events.type(field, 'alpha-');
    const suggestions = await screen.findByRole('listbox', { name: /Broker servers/ });
    const options = within(suggestions).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Alpha-Live', 'Alpha-Demo']);
    // a name still being typed is not asked about; the typing was one request, not six
    expect(api.queries('GET', '/user/vps/latency')).toEqual([]);
    expect(api.queries('GET', '/user/vps/brokers')).toEqual([{ query: 'alpha-' }]);

    await events.keyboard('{ArrowDown}{Enter}');
    expect(field).toHaveValue('Alpha-Live');
    const list = await figures();
    expect(screen.getByRole('heading', { name: 'Ping to Alpha-Live by location' })).toBeVisible();
    expect(lines(list)).toEqual([
      'London (LD4) Lowest ping 12 ms median · 19 ms p90 · 8 terminals',
      'Frankfurt (FR2) no measurements yet',
    ]);
    const [london, frankfurt] = within(list).getAllByRole('listitem');
    expect(london).toHaveAttribute('data-best', 'true');
    expect(frankfurt).not.toHaveAttribute('data-best');
    expect(api.queries('GET', '/user/vps/latency')).toEqual([{ broker: 'Alpha-Live' }]);
  });

  it('says "no measurements yet" everywhere for a server nobody measured, marking none', async () => {
    stubVpsApi({ 'GET /user/vps/brokers': brokers, 'GET /user/vps/latency': latencyRoute });
    const { user: events, field } = await openRates();
    await events.type(field, 'Gamma-Live');
    const list = await figures();
    expect(lines(list)).toEqual([
      'London (LD4) no measurements yet',
      'Frankfurt (FR2) no measurements yet',
    ]);
    expect(within(list).queryByText('Lowest ping')).toBeNull();
    // clearing the field takes the figures away
    await events.clear(field);
    await waitFor(() => expect(screen.queryByTestId('latency-figures')).toBeNull());
  });

  it('is not sent with the order', async () => {
    const api = stubVpsApi({
      'GET /user/vps/brokers': brokers,
      'GET /user/vps/latency': latencyRoute,
      'POST /user/vps/order': { status: 422, body: { message: 'No', code: 'VALIDATION' } },
    });
    const { user: events, field } = await openRates();
    await events.type(field, 'Alpha-Live');
    await figures();
    await events.selectOptions(
      within(screen.getByRole('region', { name: 'Rent a server' })).getByRole('combobox', {
        name: 'How did you hear about us?',
      }),
      'Telegram',
    );
    await events.click(screen.getByRole('button', { name: /Pay \$20\.00/ }));
    const dialog = await screen.findByRole('dialog');
    await events.click(within(dialog).getByRole('button', { name: /Pay \$20\.00/ }));
    await waitFor(() => expect(api.callsTo('POST', '/user/vps/order')).toHaveLength(1));
    expect(api.callsTo('POST', '/user/vps/order')[0]!.body).toEqual({
      rate_id: 1,
      months: 1,
      source: 'telegram',
    });
  });

  it('says it in Russian, with the terminals counted as Russian counts them', async () => {
    stubVpsApi({
      'GET /user/auth': { body: user({ language: 'ru' }) },
      'GET /user/vps/brokers': brokers,
      'GET /user/vps/latency': latencyRoute,
    });
    const { user: events, field } = await openRates('ru');
    await events.type(field, 'alpha-live');
    expect(lines(await figures())).toEqual([
      'London (LD4) Самый низкий пинг медиана 12 мс · 90-й перцентиль 19 мс · 8 терминалов',
      'Frankfurt (FR2) измерений пока нет',
    ]);
  });
});

describe('bestLocation', () => {
  it('is the lowest median, the lower 90th percentile between equal medians, none unmeasured', () => {
    const at = (location: string, median_ms: number, p90_ms: number) => ({
      location,
      ping: { median_ms, p90_ms, terminals: 3 },
    });
    expect(bestLocation([at('A', 20, 30), at('B', 12, 40), { location: 'C', ping: null }])).toBe(
      'B',
    );
    expect(bestLocation([at('A', 12, 30), at('B', 12, 25)])).toBe('B');
    expect(bestLocation([{ location: 'A', ping: null }])).toBeNull();
  });
});
