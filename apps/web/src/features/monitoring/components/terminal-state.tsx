import {
  PUBLISHER_SILENT_AFTER_MS,
  publisherStateAt,
  type MonitoringAccount,
} from '@tradehost/contracts';
import { useEffect, useState } from 'react';
import { FormAlert } from '../../../shared/ui/form';
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

type TradePermissions = Pick<MonitoringAccount, 'trade_allowed' | 'ea_trade_allowed'>;

/**
 * Whether the latest snapshot said Expert Advisors cannot trade there: Algo Trading off in the
 * terminal, or not allowed for the Expert Advisor. Unknown (null: a publisher before 1.3) is not off.
 */
export const algoTradingOff = (account: TradePermissions) =>
  account.trade_allowed === false || account.ea_trade_allowed === false;

/**
 * The account page's notice of Algo Trading switched off, with what to tick (the terminal's
 * button, or the Expert Advisor's setting); nothing while it is on or not known.
 */
export function AlgoTradingNotice({ account }: { account: TradePermissions }) {
  const { t } = useMonitoringFormat();
  if (!algoTradingOff(account)) return null;
  return (
    <FormAlert tone="warning" title={t('account.algoOffTitle')}>
      {account.trade_allowed === false ? <p>{t('account.algoOff')}</p> : null}
      {account.ea_trade_allowed === false ? <p>{t('account.eaAlgoOff')}</p> : null}
    </FormAlert>
  );
}

/**
 * The terminal's "live" dot and its words, of an account with data: green only while the
 * publisher reports (data within 10 minutes) and its terminal is connected. A silent publisher's
 * connection flag is that of its last data, so it reads "No data since …" instead. `full`: the
 * account page's sentence; otherwise the list's cell, the time shown and the state read aloud.
 * `algoOff`: the latest snapshot said Expert Advisors cannot trade (algoTradingOff), which a
 * reporting terminal's words say too.
 */
export function TerminalState({
  lastDataAt,
  connected,
  full = false,
  algoOff = false,
}: {
  lastDataAt: string;
  connected: boolean;
  full?: boolean;
  algoOff?: boolean;
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
      {/* the words one flow beside the dot, Algo Trading's state wrapping with them */}
      <span>
        {full ? (
          t(`terminal.${state}`, { at })
        ) : (
          <>
            {silent ? t('terminal.silent', { at }) : at}
            {silent ? null : <span className="visually-hidden">{t(`terminal.${state}Short`)}</span>}
          </>
        )}
        {algoOff && !silent ? (
          <>
            {' · '}
            <span className={styles.algoOff}>{t('terminal.algoOff')}</span>
          </>
        ) : null}
      </span>
    </span>
  );
}
