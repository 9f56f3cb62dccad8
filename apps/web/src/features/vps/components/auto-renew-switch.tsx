import type { Server } from '@tradehost/contracts';
import { useId, useState } from 'react';
import { errorText } from '../../../shared/lib/api-error';
import { useSetVpsAutoRenewMutation } from '../api/vps-api';
import { useVpsFormat } from '../lib/use-vps-format';
import styles from './vps.module.css';

/** Auto-renewal can be set while a server can still be renewed. */
export function canAutoRenew(server: Server): boolean {
  return (
    server.status === 'active' || server.status === 'blocked' || server.status === 'provisioning'
  );
}

/**
 * Auto-renewal of a server (a switch: role=switch, aria-checked). It turns at once (optimistic,
 * in the cache) and turns back, saying why, when the API refuses.
 */
export function AutoRenewSwitch({ server }: { server: Server }) {
  const { t, period } = useVpsFormat();
  const id = useId();
  const [setAutoRenew, { isLoading }] = useSetVpsAutoRenewMutation();
  const [error, setError] = useState<string | null>(null);
  const enabled = server.auto_renew;
  const available = canAutoRenew(server);

  const toggle = async () => {
    setError(null);
    try {
      await setAutoRenew({
        id: server.id,
        enabled: !enabled,
        months: server.renew_months,
      }).unwrap();
    } catch (failure) {
      setError(t('autoRenew.failed', { error: errorText(t, failure) }));
    }
  };

  return (
    <div className={styles.cellStack}>
      <button
        type="button"
        role="switch"
        className={styles.switch}
        aria-checked={enabled}
        aria-label={t('autoRenew.label', { id: server.id })}
        aria-describedby={error ? `${id}-error` : enabled ? `${id}-period` : undefined}
        aria-busy={isLoading || undefined}
        disabled={!available || isLoading}
        onClick={() => void toggle()}
      >
        <span className={styles.switchTrack} aria-hidden="true">
          <span className={styles.switchThumb} />
        </span>
        <span className={styles.switchText} aria-hidden="true">
          {enabled ? t('autoRenew.on') : t('autoRenew.off')}
        </span>
      </button>
      {enabled && available ? (
        <span id={`${id}-period`} className={styles.muted}>
          {t('autoRenew.every', { period: period(server.renew_months) })}
        </span>
      ) : null}
      {error ? (
        <span id={`${id}-error`} className={styles.failure} role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}
