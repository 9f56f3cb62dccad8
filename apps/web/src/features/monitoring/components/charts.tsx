import { CHART_POINTS_MAX, type ChartResponse } from '@tradehost/contracts';
import type * as LightweightCharts from 'lightweight-charts';
import type { IChartApi, UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../../app/hooks';
import segments from '../../../shared/ui/segments/segments.module.css';
import { selectTheme } from '../../settings/model/settings-slice';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import styles from './monitoring.module.css';

type Point = ChartResponse['points'][number];
type Mode = 'gain' | 'money';
type Charts = typeof LightweightCharts;

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

/** Adds a chart's series, with the theme's colours, from the library once it is there. */
type Build = (chart: IChartApi, colors: ReturnType<typeof palette>, lib: Charts) => void;

/** One value per second (the chart's time unit), the last of each. */
function series(points: Point[], value: (p: Point) => number | null) {
  const out: Array<{ time: UTCTimestamp; value: number }> = [];
  for (const p of points) {
    const v = value(p);
    if (v === null) continue;
    const time = Math.floor(Date.parse(p.time) / 1000) as UTCTimestamp;
    if (out.length > 0 && out[out.length - 1]!.time >= time)
      out[out.length - 1] = { time, value: v };
    else out.push({ time, value: v });
  }
  return out;
}

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

/**
 * A lightweight-charts chart in `container`, made when it nears the viewport and rebuilt when the
 * theme or the data change. Until then (and if the library's chunk cannot be fetched) the
 * container's text summary stands for it.
 */
function useChart(build: Build, deps: unknown[]) {
  const ref = useRef<HTMLDivElement>(null);
  const theme = useAppSelector(selectTheme);
  const { language } = useTranslation().i18n;
  const near = useNearViewport(ref);
  useEffect(() => {
    const container = ref.current;
    if (!container || !near) return;
    let chart: IChartApi | undefined;
    let cancelled = false;
    loadCharts().then(
      (lib) => {
        if (!cancelled) chart = draw(container, lib, language, build);
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
      chart?.remove();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- rebuilt on the theme, the language and the given deps
  }, [near, theme, language, ...deps]);
  return ref;
}

/** The narrowest a chart's plot gets (a phone's, beside the values' axis), in CSS pixels. */
const CHART_MIN_WIDTH = 200;

function draw(container: HTMLElement, lib: Charts, language: string, build: Build): IChartApi {
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
      // The history's first and last points are the chart's edges: the library then moves the
      // labels at the edges inside the chart (a label is centred on its moment, and the first
      // one was cut in half at the left edge). The whole history fits on a phone too (the
      // API's most points in 200 px), or the left edge would be a point in the middle of the
      // history, its label cut off again.
      fixLeftEdge: true,
      fixRightEdge: true,
      minBarSpacing: CHART_MIN_WIDTH / CHART_POINTS_MAX,
      // and stays whole as the chart's width settles with the page (a resize kept the spacing
      // of the points and cut the history's start or end off)
      lockVisibleTimeRangeOnResize: true,
    },
  });
  build(chart, colors, lib);
  chart.timeScale().fitContent();
  return chart;
}

/**
 * The growth chart (the time-weighted gain, or balance and equity) and the drawdown chart of an
 * account; each has a text summary for screen readers. Without money (hidden on a public page)
 * the growth chart shows the gain only.
 */
export function AccountCharts({ points }: { points: Point[] }) {
  const f = useMonitoringFormat();
  const { t } = f;
  const showsMoney = points.some((p) => p.balance !== null);
  const [mode, setMode] = useState<Mode>('gain');
  const shown: Mode = showsMoney ? mode : 'gain';
  // the values in the reader's language: percentages (5.23 -> "5.23 %", "5,23 %" in Russian)
  // and amounts in the account's currency
  const percent = (value: number) => f.percent(value / 100);
  const amount = (value: number) => f.figure(value);

  const growth = useChart(
    (chart, colors, { LineSeries }) => {
      if (shown === 'gain') {
        chart
          .addSeries(LineSeries, {
            color: colors.primary,
            lineWidth: 2,
            priceFormat: { type: 'custom', formatter: percent },
          })
          .setData(series(points, (p) => p.gain * 100));
      } else {
        chart
          .addSeries(LineSeries, {
            color: colors.primary,
            lineWidth: 2,
            title: t('charts.balance'),
            priceFormat: { type: 'custom', formatter: amount },
          })
          .setData(series(points, (p) => p.balance));
        chart
          .addSeries(LineSeries, {
            color: colors.success,
            lineWidth: 1,
            title: t('charts.equity'),
            priceFormat: { type: 'custom', formatter: amount },
          })
          .setData(series(points, (p) => p.equity));
      }
    },
    [points, shown, t],
  );
  const drawdown = useChart(
    (chart, colors, { AreaSeries }) => {
      chart
        .addSeries(AreaSeries, {
          lineColor: colors.danger,
          topColor: `${colors.danger}10`,
          bottomColor: `${colors.danger}55`,
          lineWidth: 1,
          invertFilledArea: true,
          priceFormat: { type: 'custom', formatter: percent },
        })
        .setData(series(points, (p) => -p.drawdown * 100));
    },
    [points],
  );

  const last = points.at(-1);
  const deepest = points.reduce((max, p) => Math.max(max, p.drawdown), 0);
  return (
    <div className={styles.section}>
      <div className={styles.sectionHead}>
        <h3 className={styles.groupTitle}>{t('charts.growth')}</h3>
        {showsMoney ? (
          <fieldset className={segments.segments} aria-label={t('charts.show')}>
            {(['gain', 'money'] as const).map((value) => (
              <label key={value} className={segments.segment}>
                <input
                  type="radio"
                  name="growth-mode"
                  className={segments.radio}
                  checked={mode === value}
                  onChange={() => setMode(value)}
                />
                <span className={segments.text}>{t(`charts.${value}`)}</span>
              </label>
            ))}
          </fieldset>
        ) : null}
      </div>
      <div
        ref={growth}
        className={styles.chart}
        role="img"
        aria-label={t('charts.growthSummary', {
          count: points.length,
          gain: f.percent(last?.gain ?? 0, true),
        })}
      />
      <h3 className={styles.groupTitle}>{t('charts.drawdown')}</h3>
      <div
        ref={drawdown}
        className={`${styles.chart} ${styles.chartSmall}`}
        role="img"
        aria-label={t('charts.drawdownSummary', { deepest: f.percent(deepest) })}
      />
    </div>
  );
}
