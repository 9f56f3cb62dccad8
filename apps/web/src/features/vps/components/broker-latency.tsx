import {
  BROKER_SERVER_MAX,
  LATENCY_WINDOW_DAYS,
  type LatencyFigures,
  type LatencyResponse,
} from '@tradehost/contracts';
import { useId, useState } from 'react';
import { useDebounced } from '../../../shared/lib/use-debounced';
import { ComboboxField } from '../../../shared/ui/form';
import { useGetVpsBrokersQuery, useGetVpsLatencyQuery } from '../api/vps-api';
import { useVpsFormat } from '../lib/use-vps-format';
import styles from './vps.module.css';

/** How long the typing rests before the suggestions are asked for. */
export const BROKER_TYPING_MS = 250;

type Located = LatencyResponse['locations'][number];

/** The location with the lowest median (then 90th percentile) of those measured, or null. */
export function bestLocation(locations: readonly Located[]): string | null {
  let best: { location: string; ping: LatencyFigures } | null = null;
  for (const { location, ping } of locations) {
    if (!ping) continue;
    if (
      !best ||
      ping.median_ms < best.ping.median_ms ||
      (ping.median_ms === best.ping.median_ms && ping.p90_ms < best.ping.p90_ms)
    )
      best = { location, ping };
  }
  return best?.location ?? null;
}

/**
 * The order form's "Your broker's server": the trader types it (the names our monitored
 * terminals have measured are suggested) and each location the form offers shows the ping
 * measured from it to that server (median, 90th percentile, terminals), or that there is no
 * measurement yet; the closest is marked. Only the map's aggregates are shown (the API gives
 * nothing else). Not a part of the order: it only helps choose where.
 */
export function BrokerLatency({ locations }: { locations: readonly string[] }) {
  const { t } = useVpsFormat();
  const headingId = useId();
  const [text, setText] = useState('');
  const typed = useDebounced(text.trim(), BROKER_TYPING_MS);
  const usable = typed.length > 0 && typed.length <= BROKER_SERVER_MAX;
  const suggestions = useGetVpsBrokersQuery(typed, { skip: !usable });
  const names = usable ? (suggestions.currentData?.brokers ?? []) : [];
  // the figures of a server we know the name of, or of one nobody measured (all "not yet"); a
  // name still being typed (it starts some we know) waits for the rest of it
  const known = names.some((name) => name.toLowerCase() === typed.toLowerCase());
  const settled = suggestions.currentData !== undefined && (known || names.length === 0);
  const latency = useGetVpsLatencyQuery(typed, { skip: !usable || !settled });
  const figures = usable && settled ? latency.currentData : undefined;
  const offered = figures?.locations.filter((l) => locations.includes(l.location)) ?? [];
  const best = bestLocation(offered);

  return (
    <div className={styles.brokerLatency}>
      <ComboboxField
        label={t('latency.label')}
        optionalText={t('latency.optional')}
        hint={t('latency.hint', { days: LATENCY_WINDOW_DAYS })}
        listLabel={t('latency.suggestions')}
        placeholder={t('latency.placeholder')}
        maxLength={BROKER_SERVER_MAX}
        value={text}
        onChange={setText}
        options={names}
      />
      {figures ? (
        <section aria-labelledby={headingId} className={styles.latencyBox}>
          <h4 id={headingId} className={styles.latencyTitle}>
            {t('latency.title', { broker: figures.broker })}
          </h4>
          <ul className={styles.latencyList} data-testid="latency-figures">
            {offered.map(({ location, ping }) => (
              <li
                key={location}
                className={styles.latencyItem}
                data-best={location === best || undefined}
              >
                <span className={styles.latencyLocation}>
                  {location}
                  {location === best ? (
                    <>
                      {' '}
                      <span className={styles.latencyBest}>{t('latency.best')}</span>
                    </>
                  ) : null}
                </span>{' '}
                <LatencyFiguresText ping={ping} />
              </li>
            ))}
          </ul>
        </section>
      ) : latency.isError && usable && settled ? (
        <p className={styles.muted} role="status">
          {t('latency.failed')}
        </p>
      ) : null}
    </div>
  );
}

/** "12 ms median · 19 ms p90 · 8 terminals", or "no measurements yet". */
export function LatencyFiguresText({ ping }: { ping: LatencyFigures | null }) {
  const { t } = useVpsFormat();
  if (!ping) return <span className={styles.muted}>{t('latency.none')}</span>;
  return (
    <span className={styles.latencyFigures}>
      {t('latency.figures', { median: ping.median_ms, p90: ping.p90_ms, count: ping.terminals })}
    </span>
  );
}
