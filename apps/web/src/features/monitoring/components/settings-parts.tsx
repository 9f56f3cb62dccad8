import { useState } from 'react';
import { useFailure } from '../../../shared/lib/use-failure';
import { CopyButton } from '../../../shared/ui/copy-button/copy-button';
import { Dialog, DialogConfirmActions } from '../../../shared/ui/dialog/dialog';
import { Button } from '../../../shared/ui/form';
import { useMonitoringFormat } from '../lib/use-monitoring-format';
import { FailureAlert } from './failure';
import styles from './monitoring.module.css';

/** The public page's address with a copy button, shown in settings while the page is public. */
export function ShareLink({ path }: { path: string }) {
  const { t } = useMonitoringFormat();
  const link = `${window.location.origin}${path}`;
  return (
    <div className={`${styles.row} ${styles.shareLink}`}>
      <span className={styles.muted}>{t('settings.shareLink')}</span>
      <a href={link}>{link}</a>
      <CopyButton
        text={link}
        label={t('settings.copyLink')}
        messages={{ copied: t('key.copied'), failed: t('key.copyFailed') }}
      />
    </div>
  );
}

export interface RemovalZoneProps {
  /** The heading's id (the section is labelled by it). */
  id: string;
  title: string;
  lead: string;
  /** The button that asks, and the dialog's title, text and confirming button. */
  action: string;
  confirmTitle: string;
  confirmLead: string;
  confirmLabel: string;
  busy: boolean;
  /** Removes it (and goes elsewhere); a refusal closes the dialog and is shown here. */
  remove: () => Promise<unknown>;
}

/**
 * Apart from a page's settings, under Save: the removal of what the page is about, only after a
 * confirmation that names it.
 */
export function RemovalZone(props: RemovalZoneProps) {
  const { t } = useMonitoringFormat();
  const removal = useFailure();
  const [confirming, setConfirming] = useState(false);
  const confirm = () =>
    void props.remove().catch((error: unknown) => {
      setConfirming(false);
      removal.fail(error);
    });
  return (
    <>
      <section className={styles.dangerZone} aria-labelledby={props.id}>
        <h3 id={props.id} className={styles.groupTitle}>
          {props.title}
        </h3>
        <p className={styles.muted}>{props.lead}</p>
        <FailureAlert failure={removal.failure} alertRef={removal.alertRef} />
        <div className={styles.row}>
          <Button variant="danger" onClick={() => setConfirming(true)}>
            {props.action}
          </Button>
        </div>
      </section>
      {confirming ? (
        <Dialog
          open
          onOpenChange={() => setConfirming(false)}
          closeLabel={t('close')}
          title={props.confirmTitle}
          description={props.confirmLead}
          busy={props.busy}
        >
          <DialogConfirmActions
            cancelLabel={t('cancel')}
            onCancel={() => setConfirming(false)}
            confirmLabel={props.confirmLabel}
            onConfirm={confirm}
            busy={props.busy}
            busyLabel={props.confirmLabel}
            danger
          />
        </Dialog>
      ) : null}
    </>
  );
}
