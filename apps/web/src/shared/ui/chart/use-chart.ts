import type * as LightweightCharts from 'lightweight-charts';
import type { IChartApi } from 'lightweight-charts';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The console's charts (a monitoring account's growth and drawdown, a server's load): the
 * lightweight-charts library, fetched as a chunk of its own with the first chart drawn so that it
 * stays out of every page's first view, a chart made only as it nears the viewport, in the theme's
 * colours and the reader's language.
 */

export type Charts = typeof LightweightCharts;

/** The charting library, a chunk of its own fetched with the first chart drawn (again after a failure). */
let charts: Promise<Charts> | undefined;
function loadCharts(): Promise<Charts> {
  charts ??= import('lightweight-charts').catch((error: unknown) => {
    charts = undefined;
    throw error;
  });
  return charts;
}

/** The theme's colours, read from the CSS variables (light or dark). */
function palette() {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string) => css.getPropertyValue(name).trim();
  return {
    text: v('--color-muted'),
    grid: v('--color-divider'),
    surface: v('--color-surface'),
    primary: v('--color-primary'),
    success: v('--color-success'),
    danger: v('--color-danger'),
    warning: v('--color-warning'),
  };
}

export type ChartColors = ReturnType<typeof palette>;

/** Adds a chart's series, with the theme's colours, from the library once it is there. */
export type BuildChart = (chart: IChartApi, colors: ChartColors, lib: Charts) => void;

/**
 * Whether the element has come within a screen of the viewport (and stays so once it has): a
 * chart below the fold is not drawn with the page's first view, which on a phone is most of its
 * work, but as the reader scrolls towards it. Without IntersectionObserver, at once.
 */
function useNearViewport(ref: RefObject<HTMLElement | null>): boolean {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: '50% 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, near]);
  return near;
}

export interface ChartOptions {
  /** The most points a series of the chart has: the whole history fits the narrowest plot. */
  pointsMax: number;
  /** The reader's theme (the settings'): the chart is drawn again in its colours when it changes. */
  theme: string;
}

/**
 * A lightweight-charts chart in the returned ref's container, made when it nears the viewport and
 * rebuilt when the theme, the language or `deps` change. Until then (and if the library's chunk
 * cannot be fetched) the container's text summary stands for it.
 */
export function useChart(build: BuildChart, deps: unknown[], { pointsMax, theme }: ChartOptions) {
  const ref = useRef<HTMLDivElement>(null);
  const { language } = useTranslation().i18n;
  const near = useNearViewport(ref);
  useEffect(() => {
    const container = ref.current;
    if (!container || !near) return;
    let chart: IChartApi | undefined;
    let cancelled = false;
    loadCharts().then(
      (lib) => {
        if (!cancelled) chart = draw(container, lib, language, pointsMax, build);
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
      chart?.remove();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- rebuilt on the theme, the language and the given deps
  }, [near, theme, language, pointsMax, ...deps]);
  return ref;
}

/** The narrowest a chart's plot gets (a phone's, beside the values' axis), in CSS pixels. */
const CHART_MIN_WIDTH = 200;

function draw(
  container: HTMLElement,
  lib: Charts,
  language: string,
  pointsMax: number,
  build: BuildChart,
): IChartApi {
  const { ColorType, createChart } = lib;
  const colors = palette();
  const chart = createChart(container, {
    autoSize: true,
    // the time axis's months and days in the reader's language (each series formats its values)
    localization: { locale: language },
    layout: {
      background: { type: ColorType.Solid, color: colors.surface },
      textColor: colors.text,
      attributionLogo: false,
    },
    grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
    // The charts sit in a long page: the wheel and a vertical swipe scroll the page, as they do
    // over anything else on it (the library took both for itself, so a phone's reader could not
    // scroll past two full-width charts). Dragging, a sideways swipe and a pinch still move and
    // zoom the chart.
    handleScroll: { mouseWheel: false, vertTouchDrag: false },
    handleScale: { mouseWheel: false },
    rightPriceScale: { borderColor: colors.grid },
    timeScale: {
      borderColor: colors.grid,
      timeVisible: true,
      // no series here is finer than a minute: "12:30", not "12:30:00"
      secondsVisible: false,
      // The history's first and last points are the chart's edges: the library then moves the
      // labels at the edges inside the chart (a label is centred on its moment, and the first
      // one was cut in half at the left edge). The whole history fits on a phone too (the
      // most points in 200 px), or the left edge would be a point in the middle of the
      // history, its label cut off again.
      fixLeftEdge: true,
      fixRightEdge: true,
      minBarSpacing: CHART_MIN_WIDTH / pointsMax,
      // and stays whole as the chart's width settles with the page (a resize kept the spacing
      // of the points and cut the history's start or end off)
      lockVisibleTimeRangeOnResize: true,
    },
  });
  build(chart, colors, lib);
  chart.timeScale().fitContent();
  return chart;
}
