import { act, screen, waitFor } from '@testing-library/react';
import { CHART_POINTS_MAX, type ChartResponse } from '@tradehost/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp, renderSignedInPage } from '../../../test/render';
import { AccountCharts } from './charts';

// The library draws on canvases jsdom has not: what matters here is when a chart is made.
const library = vi.hoisted(() => {
  const series = { setData: vi.fn() };
  const chart = {
    addSeries: vi.fn(() => series),
    timeScale: vi.fn(() => ({ fitContent: vi.fn() })),
    remove: vi.fn(),
  };
  return { chart, series, createChart: vi.fn(() => chart) };
});
vi.mock('lightweight-charts', () => ({
  createChart: library.createChart,
  ColorType: { Solid: 'solid' },
  LineSeries: 'line',
  AreaSeries: 'area',
}));

/** IntersectionObserver as the test moves the page: `scrollIntoReach()` brings every target near. */
const observed = new Set<{ callback: IntersectionObserverCallback; targets: Element[] }>();
class FakeIntersectionObserver {
  readonly entry: { callback: IntersectionObserverCallback; targets: Element[] };
  constructor(callback: IntersectionObserverCallback) {
    this.entry = { callback, targets: [] };
    observed.add(this.entry);
  }
  observe(target: Element) {
    this.entry.targets.push(target);
  }
  disconnect() {
    observed.delete(this.entry);
  }
}
function scrollIntoReach() {
  for (const { callback, targets } of [...observed])
    callback(
      targets.map((target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry),
      {} as IntersectionObserver,
    );
}

const points: ChartResponse['points'] = [0, 1, 2].map((day) => ({
  time: new Date(Date.UTC(2026, 10, 20 + day)).toISOString(),
  balance: 1000 + day,
  equity: 1000 + day,
  gain: day / 100,
  drawdown: day / 200,
}));

describe('AccountCharts', () => {
  beforeEach(() => {
    vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
    vi.clearAllMocks();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    observed.clear();
  });

  it('draws the charts only once they near the viewport, and removes them with the page', async () => {
    const view = await renderApp({
      routes: [{ path: '/', element: <AccountCharts points={points} /> }],
    });
    // the summaries stand for the charts from the start
    expect(
      await screen.findByRole('img', { name: /Growth chart of 3 points/ }),
    ).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /drawdown/i })).toBeInTheDocument();
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(library.createChart).not.toHaveBeenCalled();

    act(() => scrollIntoReach());
    await waitFor(() => expect(library.createChart).toHaveBeenCalledTimes(2));
    expect(library.series.setData).toHaveBeenCalledTimes(2);
    expect(observed.size).toBe(0); // drawn once near: nothing watched any more

    view.unmount();
    expect(library.chart.remove).toHaveBeenCalledTimes(2);
  });

  it('draws at once where IntersectionObserver is missing', async () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    await renderApp({ routes: [{ path: '/', element: <AccountCharts points={points} /> }] });
    await waitFor(() => expect(library.createChart).toHaveBeenCalledTimes(2));
  });

  it('keeps the first and last time labels inside the chart, the whole history shown on a phone', async () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    await renderApp({ routes: [{ path: '/', element: <AccountCharts points={points} /> }] });
    await waitFor(() => expect(library.createChart).toHaveBeenCalledTimes(2));
    type Options = {
      timeScale: {
        fixLeftEdge?: boolean;
        fixRightEdge?: boolean;
        minBarSpacing?: number;
        lockVisibleTimeRangeOnResize?: boolean;
      };
    };
    for (const [, options] of library.createChart.mock.calls as unknown as [unknown, Options][]) {
      // fixed edges: the library moves a label centred on the first (last) moment inside
      expect(options.timeScale).toMatchObject({ fixLeftEdge: true, fixRightEdge: true });
      // the most points the API sends fit in a phone's plot (about 200 px), or the left edge
      // would be somewhere in the middle of the history, its label cut
      expect(CHART_POINTS_MAX * options.timeScale.minBarSpacing!).toBeLessThanOrEqual(200);
      // and the whole history stays in view as the chart's width changes
      expect(options.timeScale.lockVisibleTimeRangeOnResize).toBe(true);
    }
  });

  it('speaks the reader’s language: the time axis and the percentages', async () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    const { user } = renderSignedInPage(
      [{ path: '/', element: <AccountCharts points={points} /> }],
      '/',
      'token',
      { language: 'ru' },
    );
    type Options = { localization: { locale: string } };
    const made = () => library.createChart.mock.calls as unknown as [unknown, Options][];
    await waitFor(() => expect(made().at(-1)?.[1].localization.locale).toBe('ru'));
    const added = library.chart.addSeries.mock.calls as unknown as [
      unknown,
      { priceFormat: { formatter: (value: number) => string } },
    ][];
    expect(added.at(-1)![1].priceFormat.formatter(-5.23)).toBe('\u22125,23\u00a0%');

    // balance and equity: amounts
    await user.click(screen.getByRole('radio', { name: 'Баланс и средства' }));
    await waitFor(() =>
      expect(added.at(-1)![1].priceFormat.formatter(1234.5)).toMatch(/^1\s234,50$/u),
    );
  });
});
