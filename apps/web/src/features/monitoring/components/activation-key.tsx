import { useState, type ReactNode } from 'react';
import { useFailure } from '../../../shared/lib/use-failure';
import { CopyButton } from '../../../shared/ui/copy-button/copy-button';
import { Dialog, DialogActions } from '../../../shared/ui/dialog/dialog';
import { Button } from '../../../shared/ui/form';
import { useRegenerateKeyMutation, useRevealKeyMutation } from '../api/monitoring-api';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import { FailureAlert } from './failure';
import styles from './monitoring.module.css';

/**
 * A subscription's activation key: shown on request with a copy button, regenerated after a
 * confirmation (the old key stops at once, so every terminal needs the new one). `regenerate`
 * false: shown and copied only (an account's page, where the key is a step of connecting it).
 * `children`: the other buttons of its card, first in the same row, of the same size.
 */
export function ActivationKey({
  subscriptionId,
  regenerate: canRegenerate = true,
  children,
}: {
  subscriptionId: number;
  regenerate?: boolean;
  children?: ReactNode;
}) {
  const { t } = useMonitoringFormat();
  const [key, setKey] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [reveal, revealing] = useRevealKeyMutation();
  const [regenerate, regenerating] = useRegenerateKeyMutation();
  const { failure, alertRef, fail, clear } = useFailure();

  const show = async () => {
    clear();
    try {
      setKey(await reveal(subscriptionId).unwrap());
    } catch (error) {
      fail(error);
    }
  };
  const renew = async () => {
    clear();
    try {
      setKey(await regenerate(subscriptionId).unwrap());
      setConfirming(false);
    } catch (error) {
      setConfirming(false);
      fail(error);
    }
  };

  return (
    <div className={styles.checks}>
      {key ? (
        <div className={styles.keyBox}>
          <code data-testid="activation-key">{key}</code>
          <CopyButton
            text={key}
            label={t('key.copy')}
            messages={{ copied: t('key.copied'), failed: t('key.copyFailed') }}
          />
        </div>
      ) : null}
      <div className={styles.actions}>
        {children}
        {key ? null : (
          <Button variant="secondary" loading={revealing.isLoading} onClick={() => void show()}>
            {t('key.show')}
          </Button>
        )}
        {canRegenerate ? (
          <Button variant="secondary" onClick={() => setConfirming(true)}>
            {t('key.regenerate')}
          </Button>
        ) : null}
      </div>
      <FailureAlert failure={failure} alertRef={alertRef} />
      {confirming ? (
        <Dialog
          open
          onOpenChange={() => setConfirming(false)}
          closeLabel={t('close')}
          title={t('key.regenerateTitle')}
          description={t('key.regenerateLead')}
          busy={regenerating.isLoading}
        >
          <DialogActions>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              {t('cancel')}
            </Button>
            <Button loading={regenerating.isLoading} onClick={() => void renew()}>
              {t('key.regenerateConfirm')}
            </Button>
          </DialogActions>
        </Dialog>
      ) : null}
    </div>
  );
}
