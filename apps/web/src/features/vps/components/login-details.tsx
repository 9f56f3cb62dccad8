import type { Credentials, Server } from '@tradehost/contracts';
import { useState } from 'react';
import { saveFile } from '../../../shared/lib/save-file';
import { CopyButton } from '../../../shared/ui/copy-button/copy-button';
import { Dialog, DialogActions } from '../../../shared/ui/dialog/dialog';
import { Button, FormAlert } from '../../../shared/ui/form';
import { LoadingState } from '../../../shared/ui/states/states';
import { useGetVpsRdpQuery, useRevealVpsCredentialsMutation } from '../api/vps-api';
import { useFailure } from '../../../shared/lib/use-failure';
import { useVpsFormat } from '../lib/use-vps-format';
import { parseRdp } from '../lib/vps';
import { StrokeIcon } from '../../../shared/ui/icon/stroke-icon';
import { FailureAlert } from './failure-alert';
import styles from './vps.module.css';

/** The login details' cell: a button opening them once the machine exists. */
export function LoginDetails({ server }: { server: Server }) {
  const { t } = useVpsFormat();
  const [open, setOpen] = useState(false);
  if (!server.has_credentials || server.status === 'revoked' || server.status === 'failed') {
    return (
      <span className={styles.muted}>
        {server.status === 'provisioning' ? t('login.afterCreation') : '—'}
      </span>
    );
  }
  return (
    <>
      <Button
        variant="secondary"
        className={styles.smallButton}
        aria-label={t('login.open', { id: server.id })}
        onClick={() => setOpen(true)}
        icon={
          <StrokeIcon
            size={16}
            strokeWidth={1.8}
            d="M15 7a4 4 0 1 1-3.9 4.9L4 19v2h3v-2h2v-2h2l1.1-1.1A4 4 0 0 1 15 7Zm1 2.5h.01"
          />
        }
      >
        {t('login.button')}
      </Button>
      {open ? <CredentialsDialog server={server} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/**
 * Host, port and user (from the .rdp file, which holds no password), with copy buttons; the
 * password only on "Show password" (POST /credentials, audited), and "Download .rdp". Closing
 * the dialog forgets the password.
 */
function CredentialsDialog({ server, onClose }: { server: Server; onClose: () => void }) {
  const { t } = useVpsFormat();
  const rdp = useGetVpsRdpQuery(server.id);
  const [reveal, { isLoading: revealing }] = useRevealVpsCredentialsMutation();
  const [credentials, setCredentials] = useState<Credentials | null>(null);
  const [shown, setShown] = useState(false);
  const { failure, alertRef, fail, clear } = useFailure();
  const [downloading, setDownloading] = useState(false);

  const fromFile = rdp.data ? parseRdp(rdp.data.text) : null;
  const details = credentials ?? fromFile;

  const showPassword = async () => {
    if (credentials) {
      setShown(true);
      return;
    }
    clear();
    try {
      setCredentials(await reveal(server.id).unwrap());
      setShown(true);
    } catch (error) {
      fail(error);
    }
  };

  const download = async () => {
    clear();
    setDownloading(true);
    try {
      const file = rdp.data ?? (await rdp.refetch().unwrap());
      saveFile(new Blob([file.text], { type: 'application/x-rdp' }), file.fileName);
    } catch (error) {
      fail(error);
    } finally {
      setDownloading(false);
    }
  };

  const copyMessages = { copied: t('credentials.copied'), failed: t('credentials.copyFailed') };

  return (
    <Dialog
      open
      onOpenChange={onClose}
      closeLabel={t('close')}
      title={t('credentials.title', { id: server.id })}
      description={t('credentials.description')}
    >
      <FailureAlert failure={failure} alertRef={alertRef} />
      {!details && rdp.isFetching ? <LoadingState>{t('credentials.loading')}</LoadingState> : null}
      {!details && rdp.isError && !rdp.isFetching ? (
        <FormAlert tone="warning">{t('credentials.loadFailed')}</FormAlert>
      ) : null}
      <dl className={styles.credentials}>
        {details ? (
          <>
            <CredentialRow
              label={t('credentials.host')}
              value={details.host}
              copyLabel={t('credentials.copyHost')}
              messages={copyMessages}
            />
            <CredentialRow
              label={t('credentials.port')}
              value={String(details.port)}
              copyLabel={t('credentials.copyPort')}
              messages={copyMessages}
            />
            <CredentialRow
              label={t('credentials.username')}
              value={details.username}
              copyLabel={t('credentials.copyUsername')}
              messages={copyMessages}
            />
          </>
        ) : null}
        <div className={styles.credentialRow}>
          <dt>{t('credentials.password')}</dt>
          <dd>
            {credentials && shown ? (
              <>
                <code className={styles.secret} data-testid="vps-password">
                  {credentials.password}
                </code>
                <CopyButton
                  variant="icon"
                  text={credentials.password}
                  label={t('credentials.copyPassword')}
                  messages={copyMessages}
                />
                <Button variant="ghost" onClick={() => setShown(false)}>
                  {t('credentials.hide')}
                </Button>
              </>
            ) : (
              <>
                <span className={styles.hiddenSecret}>
                  <span aria-hidden="true">••••••••••</span>
                  <span className="visually-hidden">{t('credentials.hidden')}</span>
                </span>
                <Button
                  variant="secondary"
                  className={styles.smallButton}
                  loading={revealing}
                  loadingText={t('credentials.revealing')}
                  onClick={() => void showPassword()}
                >
                  {t('credentials.show')}
                </Button>
              </>
            )}
          </dd>
        </div>
      </dl>
      <p className={styles.muted}>{t('credentials.rdpHint')}</p>
      <DialogActions>
        <Button variant="secondary" onClick={onClose}>
          {t('close')}
        </Button>
        <Button
          loading={downloading}
          loadingText={t('credentials.downloading')}
          onClick={() => void download()}
        >
          {t('credentials.download')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function CredentialRow({
  label,
  value,
  copyLabel,
  messages,
}: {
  label: string;
  value: string;
  copyLabel: string;
  messages: { copied: string; failed: string };
}) {
  return (
    <div className={styles.credentialRow}>
      <dt>{label}</dt>
      <dd>
        <code className={styles.secret}>{value}</code>
        <CopyButton variant="icon" text={value} label={copyLabel} messages={messages} />
      </dd>
    </div>
  );
}
