import {
  METRICS_TIMEFRAMES,
  SERVER_PRESSURE_SHARE,
  type MetricsPoint,
  type MetricsTimeframe,
  type Server,
  type ServerMetrics,
  type UpgradeResponse,
} from '@tradehost/contracts';
import type { AutoscaleInfo, Time } from 'lightweight-charts';
import { useId, useMemo, useState } from 'react';
import { useAppSelector } from '../../../app/hooks';
import { errorText, isApiRequestError } from '../../../shared/lib/api-error';
import { formatMoment } from '../../../shared/lib/format-date';
import chartStyles from '../../../shared/ui/chart/chart.module.css';
import { useChart } from '../../../shared/ui/chart/use-chart';
import { Button } from '../../../shared/ui/form';
import segments from '../../../shared/ui/segments/segments.module.css';
import { EmptyState } from '../../../shared/ui/states/states';
import { selectTheme } from '../../settings/model/settings-slice';
import { useGetVpsRatesQuery, useGetVpsServerMetricsQuery } from '../api/vps-api';
import {
  chartTime,
  fractionDigits,
  GB,
  hasFigures,
  hasIsolated,
  inRateUnit,
  rateUnit,
  type RateUnit,
  seriesOf,
  summaryOf,
} from '../lib/metrics';
import { useVpsFormat, type VpsFormat } from '../lib/use-vps-format';
import { Loaded } from './load-state';
import { upgradeBlock, upgradeReasonText } from './server-actions';
import { UpgradeDialog } from './upgrade-dialog';
import styles from './server-sections.module.css';
import vpsStyles from './vps.module.css';

type Tone = 'primary' | 'success' | 'warning' | 'text';

/** A line of a chart: its name (a key of resources.lines), its figure of a point, its colour. */
interface Line {
  name: string;
  value: (point: MetricsPoint) => number | null;
  tone: Tone;
  /** A limit drawn for comparison (the machine's memory), not a measure. */
  dashed?: boolean;
}

/** A chart of the load: its name (a key of resources.charts), its lines and how a figure reads. */
interface ChartSpec {
  id: 'cpu' | 'memory' | 'network' | 'disk';
  lines: Line[];
  format: (value: number) => string;
  /** The top of its scale (100 %, the machine's memory); else the largest figure. */
  max?: number;
}

const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(language: string, options: Intl.NumberFormatOptions) {
  const key = `${language}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, options);
    numberFormats.set(key, format);
  }
  return format;
}

/** Percentages, GB and bytes a second in the reader's language ("45 %", "2,4 ГБ", "36 КБ/с"). */
function metricsFormat(t: VpsFormat['t'], language: string) {
  const number = (value: number) =>
    numberFormat(language, {
      minimumFractionDigits: 0,
      maximumFractionDigits: fractionDigits(value),
    }).format(value);
  return {
    /** A share, 0..1. */
    percent: (share: number) =>
      numberFormat(language, { style: 'percent', maximumFractionDigits: 0 }).format(share),
    gb: (value: number) => t('resources.units.gb', { value: number(value) }),
    kbps: (value: number) => t('resources.units.kbps', { value: number(value) }),
    mbps: (value: number) => t('resources.units.mbps', { value: number(value) }),
  };
}

type MetricsFormat = ReturnType<typeof metricsFormat>;

/** The four charts of a server's load: CPU, memory (with the machine's), network and disk. */
function chartSpecs(points: readonly MetricsPoint[], format: MetricsFormat): ChartSpec[] {
  const totals = points.map((point) => point.memory_total).filter((total) => total !== null);
  const network = rateUnit(points.flatMap((point) => [point.net_in, point.net_out]));
  const disk = rateUnit(points.flatMap((point) => [point.disk_read, point.disk_write]));
  const inUnit = (bytes: number | null, unit: RateUnit) =>
    bytes === null ? null : inRateUnit(bytes, unit);
  return [
    {
      id: 'cpu',
      lines: [
        { name: 'cpu', tone: 'primary', value: (p) => (p.cpu === null ? null : p.cpu * 100) },
      ],
      format: (value) => format.percent(value / 100),
      max: 100,
    },
    {
      id: 'memory',
      lines: [
        {
          name: 'memory',
          tone: 'primary',
          value: (p) => (p.memory === null ? null : p.memory / GB),
        },
        {
          name: 'memoryTotal',
          tone: 'text',
          dashed: true,
          value: (p) => (p.memory_total === null ? null : p.memory_total / GB),
        },
      ],
      format: format.gb,
      max: totals.length > 0 ? Math.max(...totals) / GB : undefined,
    },
    {
      id: 'network',
      lines: [
        { name: 'netIn', tone: 'primary', value: (p) => inUnit(p.net_in, network) },
        { name: 'netOut', tone: 'success', value: (p) => inUnit(p.net_out, network) },
      ],
      format: format[network],
    },
    {
      id: 'disk',
      lines: [
        { name: 'diskRead', tone: 'primary', value: (p) => inUnit(p.disk_read, disk) },
        { name: 'diskWrite', tone: 'warning', value: (p) => inUnit(p.disk_write, disk) },
      ],
      format: format[disk],
    },
  ];
}

export interface ServerResourcesProps {
  server: Server;
  now: Date;
  onUpgraded: (result: UpgradeResponse) => void;
}

/**
 * A server's page's "Resources": its CPU, memory, network and disk over the last hour, day or
 * week, as the hypervisor measured them (a gap where the machine was off), and, when it is near
 * its limits, a notice offering the upgrade (or saying why there is none). The charting library
 * comes with the first chart drawn (shared/ui/chart).
 */
export function ServerResources({ server, now, onUpgraded }: ServerResourcesProps) {
  const { t } = useVpsFormat();
  const headingId = useId();
  const [timeframe, setTimeframe] = useState<MetricsTimeframe>('hour');
  const query = useGetVpsServerMetricsQuery({ id: server.id, timeframe });

  const unavailable = isApiRequestError(query.error) && query.error.status === 503;
  const charts = (metrics: ServerMetrics) =>
    hasFigures(metrics.points) ? (
      <div className={vpsStyles.results} aria-busy={query.isFetching || undefined}>
        {metrics.pressure.cpu || metrics.pressure.memory ? (
          <PressureNotice
            server={server}
            now={now}
            pressure={metrics.pressure}
            onUpgraded={onUpgraded}
          />
        ) : null}
        <ResourceCharts metrics={metrics} />
      </div>
    ) : (
      <EmptyState title={t('resources.emptyTitle')}>{t('resources.emptyText')}</EmptyState>
    );

  return (
    <section className={vpsStyles.section} aria-labelledby={headingId}>
      <div className={styles.sectionHead}>
        <h2 id={headingId} className={vpsStyles.sectionTitle}>
          {t('resources.title')}
        </h2>
        <fieldset className={segments.segments} aria-label={t('resources.timeframe')}>
          {METRICS_TIMEFRAMES.map((value) => (
            <label key={value} className={segments.segment}>
              <input
                type="radio"
                name={`${headingId}-timeframe`}
                className={segments.radio}
                checked={timeframe === value}
                onChange={() => setTimeframe(value)}
              />
              <span className={segments.text}>{t(`resources.timeframes.${value}`)}</span>
            </label>
          ))}
        </fieldset>
      </div>
      <Loaded
        query={query}
        loading={t('resources.loading')}
        // the hypervisor does not answer: said as such (its details are in the API's log)
        failed={unavailable ? t('resources.unavailable') : t('resources.loadFailed')}
        detail={unavailable ? undefined : errorText(t, query.error)}
      >
        {charts}
      </Loaded>
    </section>
  );
}

function ResourceCharts({ metrics }: { metrics: ServerMetrics }) {
  const { t, language } = useVpsFormat();
  // one set a reading: a chart is drawn again when its spec changes, not on every render
  const specs = useMemo(
    () => chartSpecs(metrics.points, metricsFormat(t, language)),
    [metrics.points, t, language],
  );
  return (
    <div className={styles.charts}>
      {specs.map((spec) => (
        <ResourceChart
          key={spec.id}
          spec={spec}
          points={metrics.points}
          timeframe={metrics.timeframe}
        />
      ))}
    </div>
  );
}

/**
 * One chart: its name, a legend that reads the figures at the crosshair (the latest ones
 * otherwise), and the plot, whose text summary (average and peak of each line) stands for it
 * for a screen reader and until it is drawn.
 */
function ResourceChart({
  spec,
  points,
  timeframe,
}: {
  spec: ChartSpec;
  points: MetricsPoint[];
  timeframe: MetricsTimeframe;
}) {
  const { t, language } = useVpsFormat();
  const theme = useAppSelector(selectTheme);
  const [hovered, setHovered] = useState<number | null>(null);
  const title = t(`resources.charts.${spec.id}`);
  // an hour's points are times of today; a day's and a week's, moments
  const moment = timeframe === 'hour' ? 'time' : 'dateTime';

  const plot = useChart(
    (chart, colors, { LineSeries, LineStyle }) => {
      const top = spec.max;
      // from 0 to the scale's top: a load reads against nothing and its limit, not its own range
      const range = (original: () => AutoscaleInfo | null): AutoscaleInfo => ({
        priceRange: {
          minValue: 0,
          maxValue: top ?? Math.max(original()?.priceRange?.maxValue ?? 0, 1),
        },
      });
      for (const line of spec.lines) {
        const data = seriesOf(points, line.value);
        chart
          .addSeries(LineSeries, {
            color: colors[line.tone],
            lineWidth: line.dashed ? 1 : 2,
            lineStyle: line.dashed ? LineStyle.Dashed : LineStyle.Solid,
            // a figure between two gaps (a server just created, started for one step) is no line:
            // its dot shows it
            pointMarkersVisible: hasIsolated(data),
            pointMarkersRadius: 2,
            priceLineVisible: false,
            lastValueVisible: !line.dashed,
            priceFormat: { type: 'custom', formatter: spec.format, minMove: 0.01 },
            autoscaleInfoProvider: range,
          })
          .setData(data);
      }
      // the scale's top is the limit itself (100 %, the machine's memory), not a fifth above it
      chart.priceScale('right').applyOptions({ scaleMargins: { top: 0.08, bottom: 0.04 } });
      // the crosshair's moment as the console writes one (the times are the reader's clock as
      // UTC: chartTime), not the library's "30 Nov '26 08:05:00"
      chart.applyOptions({
        localization: {
          timeFormatter: (time: Time) =>
            formatMoment(new Date(Number(time) * 1000), language, moment, { timeZone: 'UTC' }),
        },
      });
      const index = new Map<number, number>(points.map((point, at) => [chartTime(point.at), at]));
      chart.subscribeCrosshairMove(({ time }) =>
        setHovered(time === undefined ? null : (index.get(Number(time)) ?? null)),
      );
    },
    [points, spec, moment, language],
    { pointsMax: points.length, theme },
  );

  const at = hovered ?? points.length - 1;
  const point = points[at];
  const over = t(`resources.over.${timeframe}`);
  const summaries = spec.lines
    .filter((line) => !line.dashed)
    .map((line) => ({ line, summary: summaryOf(points.map(line.value)) }))
    .filter((entry) => entry.summary !== null)
    .map(({ line, summary }) =>
      t('resources.lineSummary', {
        line: t(`resources.lines.${line.name}`),
        average: spec.format(summary!.average),
        peak: spec.format(summary!.peak),
      }),
    );
  const label =
    summaries.length > 0
      ? t('resources.summary', { chart: title, period: over, lines: summaries.join('; ') })
      : t('resources.noFigures', { chart: title, period: over });

  return (
    <div className={styles.chartCard}>
      <div className={styles.chartHead}>
        <h3 className={vpsStyles.cardTitle}>{title}</h3>
        <span className={styles.chartMoment}>
          {hovered !== null && point ? (
            <time dateTime={point.at}>{formatMoment(point.at, language, moment)}</time>
          ) : (
            t('resources.latest')
          )}
        </span>
      </div>
      <ul className={styles.legend}>
        {spec.lines.map((line) => {
          const value = point ? line.value(point) : null;
          return (
            <li key={line.name} data-tone={line.tone} data-dashed={line.dashed || undefined}>
              <span className={styles.swatch} aria-hidden="true" />
              {t(`resources.lines.${line.name}`)}{' '}
              <span className={styles.figure}>
                {value === null ? t('resources.none') : spec.format(value)}
              </span>
            </li>
          );
        })}
      </ul>
      <div
        ref={plot}
        className={`${chartStyles.chart} ${styles.plot}`}
        role="img"
        aria-label={label}
      />
    </div>
  );
}

/**
 * "The server is near its limits": CPU or memory busy over the last quarter of the timeframe. It
 * offers the upgrade (the actions' dialog), or says why the server cannot be upgraded now.
 */
function PressureNotice({
  server,
  now,
  pressure,
  onUpgraded,
}: {
  server: Server;
  now: Date;
  pressure: ServerMetrics['pressure'];
  onUpgraded: (result: UpgradeResponse) => void;
}) {
  const { t, day, language } = useVpsFormat();
  const [upgrading, setUpgrading] = useState(false);
  const { data: catalogue } = useGetVpsRatesQuery();
  const which = pressure.cpu && pressure.memory ? 'both' : pressure.cpu ? 'cpu' : 'memory';
  const reason =
    server.status === 'active'
      ? upgradeReasonText({ t, day }, server, upgradeBlock(server, catalogue?.rates, now))
      : t('machine.blocked');

  return (
    <div className={styles.pressure}>
      <p className={styles.pressureTitle}>{t('resources.pressure.title')}</p>
      <p>
        {t(`resources.pressure.${which}`, {
          share: metricsFormat(t, language).percent(SERVER_PRESSURE_SHARE),
        })}
      </p>
      {reason ? (
        <p>{t('resources.pressure.cannot', { reason })}</p>
      ) : (
        <div>
          <Button variant="secondary" onClick={() => setUpgrading(true)}>
            {t('resources.pressure.upgrade')}
          </Button>
        </div>
      )}
      {upgrading ? (
        <UpgradeDialog
          server={server}
          now={now}
          onClose={() => setUpgrading(false)}
          onDone={(result) => {
            setUpgrading(false);
            onUpgraded(result);
          }}
        />
      ) : null}
    </div>
  );
}
