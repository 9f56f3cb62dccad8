import { PUBLISHER_SILENT_AFTER_MS, publisherStateAt } from '@tradehost/contracts';
import { useEffect, useState } from 'react';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import styles from './monitoring.module.css';

/**
 * The publisher's state now (publisherStateAt, the operator's rule), re-read the moment its
 * last data turns silent: nothing else re-renders a page whose publisher stopped sending.
 */
function usePublisherState(lastDataAt: string | null) {
  const [now, setNow] = useState(() => Date.now());
  const state = publisherStateAt(lastDataAt, now);
  useEffect(() => {
    if (lastDataAt === null || state !== 'reporting') return;
    const silentIn = Date.parse(lastDataAt) + PUBLISHER_SILENT_AFTER_MS - Date.now();
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, silentIn) + 1000);
    return () => clearTimeout(timer);
  }, [lastDataAt, state, now]);
  return state;
}

/**
 * The terminal's "live" dot and its words, of an account with data: green only while the
 * publisher reports (data within 10 minutes) and its terminal is connected. A silent publisher's
 * connection flag is that of its last data, so it reads "No data since …" instead. `full`: the
 * account page's sentence; otherwise the list's cell, the time shown and the state read aloud.
 */
export function TerminalState({
  lastDataAt,
  connected,
  full = false,
}: {
  lastDataAt: string;
  connected: boolean;
  full?: boolean;
}) {
  const f = useMonitoringFormat();
  const { t } = f;
  const silent = usePublisherState(lastDataAt) === 'silent';
  const at = f.dateTime(lastDataAt);
  const live = !silent && connected;
  const state = silent ? 'silent' : connected ? 'live' : 'offline';
  return (
    <span className={styles.status} data-state={state}>
      <span className={`${styles.dot} ${live ? styles.dotOn : ''}`} aria-hidden="true" />
      {full ? (
        t(`terminal.${state}`, { at })
      ) : (
        <>
          {silent ? t('terminal.silent', { at }) : at}
          {silent ? null : <span className="visually-hidden">{t(`terminal.${state}Short`)}</span>}
        </>
      )}
    </span>
  );
}
