import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatMoment } from '../../../shared/lib/format-date';
import { chartTime } from '../lib/metrics';
import {
  deferred,
  fixClock,
  type Handler,
  metrics,
  metricsOff,
  plain,
  renderVps,
  stubServerPage,
} from '../test-utils';

// The library draws on canvases jsdom has not: what matters here is what each chart is given.
const library = vi.hoisted(() => {
  const series = { setData: vi.fn() };
  const crosshair: Array<(param: { time?: number }) => void> = [];
  const chart = {
    addSeries: vi.fn((_type: unknown, _options: Record<string, unknown>) => series),
    subscribeCrosshairMove: vi.fn((handler: (param: { time?: number }) => void) => {
      crosshair.push(handler);
    }),
    timeScale: vi.fn(() => ({ fitContent: vi.fn() })),
    priceScale: vi.fn(() => ({ applyOptions: vi.fn() })),
    applyOptions: vi.fn((_options: unknown) => undefined),
    remove: vi.fn(),
  };
  return { chart, series, crosshair, createChart: vi.fn(() => chart) };
});
vi.mock('lightweight-charts', () => ({
  createChart: library.createChart,
  ColorType: { Solid: 'solid' },
  LineSeries: 'line',
  LineStyle: { Solid: 0, Dashed: 2 },
}));

/** IntersectionObserver that sees every chart near at once. */
class Near {
  readonly callback: IntersectionObserverCallback;
  constructor(callback: IntersectionObserverCallback) {
    this.callback = callback;
  }
  observe(target: Element) {
    queueMicrotask(() =>
      this.callback(
        [{ target, isIntersecting: true } as IntersectionObserverEntry],
        this as unknown as IntersectionObserver,
      ),
    );
  }
  disconnect() {}
}

const UNAVAILABLE = {
  status: 503,
  body: {
    message: 'The servers are unavailable right now. Please try again later',
    code: 'HYPERVISOR_UNAVAILABLE',
  },
};

const resources = async () => within(await screen.findByRole('region', { name: 'Resources' }));
/** A chart's legend: each line's name and figure. */
const legendOf = (chart: string) =>
  within(screen.getByRole('heading', { level: 3, name: chart }).closest('div')!.parentElement!)
    .getAllByRole('listitem')
    .map((item) => plain(item.textContent));

describe("a server's resources", () => {
  beforeEach(() => {
    vi.clearAllMocks();
    library.crosshair.length = 0;
  });
  afterEach(() => vi.unstubAllGlobals());

  it('draws CPU, memory, network and disk for the last hour, with a gap where the machine was off', async () => {
    vi.stubGlobal('IntersectionObserver', Near);
    fixClock();
    const api = stubServerPage();
    renderVps('/vps/servers/12');
    const section = await resources();
    expect(section.getByRole('radio', { name: 'Hour' })).toBeChecked();
    for (const name of ['CPU', 'Memory', 'Network', 'Disk'])
      expect(await section.findByRole('heading', { level: 3, name })).toBeInTheDocument();
    expect(api.queries('GET', '/user/vps/servers/12/metrics')).toEqual([{ timeframe: 'hour' }]);

    // each chart's summary stands for it: the average and the peak of each line, in its units
    expect(section.getByRole('img', { name: /^CPU over the last hour/ })).toHaveAccessibleName(
      'CPU over the last hour: CPU in use 33% on average, 45% at most.',
    );
    expect(
      plain(section.getByRole('img', { name: /^Memory over/ }).getAttribute('aria-label')),
    ).toBe('Memory over the last hour: In use 3 GB on average, 3 GB at most.');
    expect(
      plain(section.getByRole('img', { name: /^Network over/ }).getAttribute('aria-label')),
    ).toBe(
      'Network over the last hour: In 30 KB/s on average, 30 KB/s at most; Out 6 KB/s on average, 6 KB/s at most.',
    );

    // the legends read the latest figures
    expect(legendOf('CPU')).toEqual(['CPU in use 45%']);
    expect(legendOf('Memory')).toEqual(['In use 3 GB', 'Total 8 GB']);
    expect(legendOf('Disk')).toEqual(['Read 2 KB/s', 'Write 50 KB/s']);

    // four charts, seven lines; the machine off at 11:56 is a point with no value (a gap)
    await waitFor(() => expect(library.createChart).toHaveBeenCalledTimes(4));
    expect(library.series.setData).toHaveBeenCalledTimes(7);
    const cpu = library.series.setData.mock.calls[0]![0] as Array<{ time: number; value?: number }>;
    const points = metrics().points;
    expect(cpu).toHaveLength(6);
    expect(cpu[2]).toEqual({ time: chartTime(points[2]!.at) });
    expect(cpu[5]).toEqual({ time: chartTime(points[5]!.at), value: 45 });
    // the formatter of the values' axis speaks the reader's units
    const [, cpuOptions] = library.chart.addSeries.mock.calls[0]!;
    const format = (cpuOptions.priceFormat as { formatter: (value: number) => string }).formatter;
    expect(format(50)).toBe('50%');
    // and the crosshair's moment is the reader's clock, as the console writes a time
    const [{ localization }] = library.chart.applyOptions.mock.calls[0]! as [
      { localization: { timeFormatter: (time: number) => string } },
    ];
    expect(localization.timeFormatter(chartTime(points[5]!.at))).toBe(
      formatMoment(points[5]!.at, 'en', 'time'),
    );

    // the crosshair on a point: the legend reads its figures, and when it was
    act(() => library.crosshair[0]!({ time: chartTime(points[2]!.at) }));
    expect(legendOf('CPU')).toEqual(['CPU in use no data']);
    act(() => library.crosshair[0]!({}));
    expect(legendOf('CPU')).toEqual(['CPU in use 45%']);
    // a hover draws nothing again
    expect(library.createChart).toHaveBeenCalledTimes(4);
  });

  it('reads the day or the week when asked', async () => {
    const api = stubServerPage(
      {},
      {
        'GET /user/vps/servers/12/metrics': (call) => ({
          body: metrics({ timeframe: call.query.get('timeframe') as 'hour' }),
        }),
      },
    );
    const { user } = renderVps('/vps/servers/12');
    const section = await resources();
    await section.findByRole('heading', { level: 3, name: 'CPU' });
    await user.click(section.getByRole('radio', { name: 'Week' }));
    expect(
      await section.findByRole('img', { name: /^CPU over the last week/ }),
    ).toBeInTheDocument();
    await user.click(section.getByRole('radio', { name: 'Day' }));
    expect(await section.findByRole('img', { name: /^CPU over the last day/ })).toBeInTheDocument();
    expect(api.queries('GET', '/user/vps/servers/12/metrics')).toEqual([
      { timeframe: 'hour' },
      { timeframe: 'week' },
      { timeframe: 'day' },
    ]);
  });

  it('says when the statistics are unavailable, and tries again', async () => {
    let answer: Handler = UNAVAILABLE;
    stubServerPage({}, { 'GET /user/vps/servers/12/metrics': () => answer as never });
    const { user } = renderVps('/vps/servers/12');
    const section = await resources();
    expect(
      await section.findByText("The servers' statistics are unavailable right now."),
    ).toBeInTheDocument();
    answer = { body: metrics() };
    await user.click(section.getByRole('button', { name: 'Try again' }));
    expect(await section.findByRole('heading', { level: 3, name: 'CPU' })).toBeInTheDocument();
  });

  it('says why it could not load otherwise, and shows the loading and the empty period', async () => {
    const held = deferred<void>();
    stubServerPage(
      {},
      {
        'GET /user/vps/servers/12/metrics': async () => {
          await held.promise;
          return {
            status: 409,
            body: { message: 'The server is not active', code: 'SERVER_NOT_ACTIVE' },
          };
        },
      },
    );
    const { unmount } = renderVps('/vps/servers/12');
    const section = await resources();
    expect(section.getByText("Loading the server's statistics…")).toBeInTheDocument();
    held.resolve();
    expect(
      await section.findByText("The server's statistics could not be loaded."),
    ).toBeInTheDocument();
    expect(section.getByText('The server is not active')).toBeInTheDocument();
    unmount();

    stubServerPage({}, { 'GET /user/vps/servers/12/metrics': { body: metricsOff() } });
    renderVps('/vps/servers/12');
    expect(
      await (await resources()).findByRole('heading', { name: 'No figures for this period' }),
    ).toBeInTheDocument();
  });

  it('says the server is near its limits and offers the upgrade', async () => {
    fixClock();
    stubServerPage(
      {},
      {
        'GET /user/vps/servers/12/metrics': {
          body: metrics({ pressure: { cpu: true, memory: false } }),
        },
      },
    );
    const { user } = renderVps('/vps/servers/12');
    const section = await resources();
    expect(await section.findByText('The server is near its limits')).toBeInTheDocument();
    expect(
      section.getByText(
        'Its processor has been 90% busy or more lately. A larger rate gives it more room.',
      ),
    ).toBeInTheDocument();
    await user.click(section.getByRole('button', { name: 'Upgrade the server' }));
    expect(await screen.findByRole('dialog', { name: 'Upgrade server #12' })).toBeInTheDocument();
  });

  it('says why a server near its limits cannot be upgraded', async () => {
    fixClock();
    stubServerPage(
      { is_trial: true },
      {
        'GET /user/vps/servers/12/metrics': {
          body: metrics({ pressure: { cpu: true, memory: true } }),
        },
      },
    );
    renderVps('/vps/servers/12');
    const section = await resources();
    expect(
      await section.findByText(
        'Its processor and its memory have been 90% busy or more lately. A larger rate gives it more room.',
      ),
    ).toBeInTheDocument();
    expect(
      section.getByText('It cannot be upgraded now: A test server cannot be upgraded.'),
    ).toBeInTheDocument();
    expect(section.queryByRole('button', { name: 'Upgrade the server' })).toBeNull();
  });

  it('is not there for a server that is not on the hypervisor', async () => {
    for (const status of ['provisioning', 'revoked', 'failed'] as const) {
      const api = stubServerPage({ status });
      const { unmount } = renderVps('/vps/servers/12');
      expect(await screen.findByRole('region', { name: 'Server details' })).toBeInTheDocument();
      expect(screen.queryByRole('region', { name: 'Resources' })).toBeNull();
      expect(api.callsTo('GET', '/user/vps/servers/12/metrics')).toEqual([]);
      unmount();
    }
  });

  it('speaks Russian: its units, its periods and its notice', async () => {
    fixClock();
    stubServerPage(
      {},
      {
        'GET /user/vps/servers/12/metrics': {
          body: metrics({ pressure: { cpu: false, memory: true } }),
        },
      },
    );
    renderVps('/vps/servers/12', { language: 'ru' });
    const section = within(await screen.findByRole('region', { name: 'Ресурсы' }));
    expect(section.getByRole('radio', { name: 'Сутки' })).toBeInTheDocument();
    expect(
      await section.findByRole('heading', { level: 3, name: 'Процессор' }),
    ).toBeInTheDocument();
    expect(legendOf('Процессор')).toEqual(['Загрузка 45 %']);
    expect(legendOf('Память')).toEqual(['Занято 3 ГБ', 'Всего 8 ГБ']);
    expect(legendOf('Диск')).toEqual(['Чтение 2 КБ/с', 'Запись 50 КБ/с']);
    expect(
      plain(section.getByRole('img', { name: /^Процессор за/ }).getAttribute('aria-label')),
    ).toBe('Процессор за последний час: Загрузка — в среднем 33 %, максимум 45 %.');
    expect(
      section.getByText(
        'Память в последнее время занята на 90 % и больше. Тариф побольше даст ему запас.',
        { normalizer: plain },
      ),
    ).toBeInTheDocument();
    expect(section.getByRole('button', { name: 'Улучшить сервер' })).toBeInTheDocument();
  });
});
