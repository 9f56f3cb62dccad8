import {
  RECOVERY_CODES_PER_SET,
  type FactorsResponse,
  type PasskeyItem,
  type TotpEnrolment,
} from '@tradehost/contracts';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../shared/lib/api-error';
import { formatDate, formatDateTime } from '../../../shared/lib/format-date';
import { Dialog, DialogActions } from '../../../shared/ui/dialog/dialog';
import { Button, FormAlert } from '../../../shared/ui/form';
import { ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { StatusBadge } from '../../../shared/ui/status-badge/status-badge';
import {
  useGetFactorsQuery,
  useRegenerateRecoveryCodesMutation,
  useStartTotpMutation,
} from '../api/factors-api';
import { AddPasskeyDialog, RenamePasskeyDialog } from './passkey-dialogs';
import { ProfileSection } from './profile-section';
import { RecoveryCodesView } from './recovery-codes-view';
import { factorCount, RemoveFactorDialog, type RemovalTarget } from './remove-factor-dialog';
import { TotpSetup } from './totp-setup';
import factor from './second-factor.module.css';
import styles from './profile.module.css';

/** At or under this many unused recovery codes, the section asks for new ones. */
export const FEW_RECOVERY_CODES = 3;

type Outcome = { tone: 'success' | 'error'; text: string; serial: number };

/** What the card shows: the factors, the authenticator's set-up, or a new set of codes (once). */
type View =
  | { kind: 'factors' }
  | { kind: 'setup'; enrolment: TotpEnrolment }
  | { kind: 'codes'; codes: string[]; intro: string };

type OpenDialog =
  | { kind: 'addPasskey' }
  | { kind: 'rename'; passkey: PasskeyItem }
  | { kind: 'remove'; target: RemovalTarget }
  | { kind: 'regenerate' };

function Part({
  title,
  badge,
  children,
}: {
  title: string;
  badge?: ReactNode;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <li className={styles.part} aria-labelledby={headingId}>
      <div className={styles.partHead}>
        <h3 id={headingId} className={styles.partTitle}>
          {title}
        </h3>
        {badge}
      </div>
      {children}
    </li>
  );
}

function PasskeyRow({
  passkey,
  onRename,
  onRemove,
}: {
  passkey: PasskeyItem;
  onRename(): void;
  onRemove(): void;
}) {
  const { t, i18n } = useTranslation('profile');
  return (
    <li className={styles.session}>
      <span className={styles.sessionDevice}>{passkey.name}</span>
      <dl className={styles.sessionTimes}>
        <div>
          <dt>{t('factors.passkeys.added')}:</dt>
          <dd>
            <time dateTime={passkey.created_at}>
              {formatDate(passkey.created_at, i18n.language)}
            </time>
          </dd>
        </div>
        <div>
          <dt>{t('factors.passkeys.lastUsed')}:</dt>
          <dd>
            {passkey.last_used_at ? (
              <time dateTime={passkey.last_used_at}>
                {formatDateTime(passkey.last_used_at, i18n.language)}
              </time>
            ) : (
              t('factors.passkeys.neverUsed')
            )}
          </dd>
        </div>
      </dl>
      <div className={styles.actions}>
        <Button
          variant="ghost"
          aria-label={t('factors.passkeys.renameLabel', { name: passkey.name })}
          onClick={onRename}
        >
          {t('factors.passkeys.rename')}
        </Button>
        <Button
          variant="ghost"
          aria-label={t('factors.passkeys.removeLabel', { name: passkey.name })}
          onClick={onRemove}
        >
          {t('factors.passkeys.remove')}
        </Button>
      </div>
    </li>
  );
}

/** How many recovery codes are left, and a word when few or none are. */
function RecoveryCodesState({ factors }: { factors: FactorsResponse }) {
  const { t } = useTranslation('profile');
  const { left } = factors.recovery_codes;
  if (factorCount(factors) === 0)
    return <p className={styles.muted}>{t('factors.codes.noFactor')}</p>;
  return (
    <>
      {factors.recovery_codes.created_at ? (
        <p className={factor.state}>
          {t('factors.codes.left', { count: left, total: RECOVERY_CODES_PER_SET })}
        </p>
      ) : null}
      {left === 0 ? (
        <p className={factor.warning}>{t('factors.codes.noneLeft')}</p>
      ) : left <= FEW_RECOVERY_CODES ? (
        <p className={factor.warning}>{t('factors.codes.fewLeft', { count: left })}</p>
      ) : null}
    </>
  );
}

/**
 * The second factor (issue 41): the authenticator app (on since when, set up, turn off), the
 * passkeys (add, rename, remove), and how many recovery codes are left (new ones shown once).
 * Removing a factor or making new codes may ask the user to confirm it is them (step-up).
 */
export function SecondFactorSection({ email }: { email: string }) {
  const { t, i18n } = useTranslation('profile');
  const { data: factors, isLoading, isError, error, refetch } = useGetFactorsQuery();
  const [startTotp, { isLoading: starting }] = useStartTotpMutation();
  const [regenerate, { isLoading: regenerating }] = useRegenerateRecoveryCodesMutation();
  const [view, setView] = useState<View>({ kind: 'factors' });
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const outcomeRef = useRef<HTMLDivElement>(null);
  const setUpRef = useRef<HTMLButtonElement>(null);
  // where the focus goes once the card is back to the factors (the set-up and the codes replace it)
  const focusBack = useRef<'outcome' | 'setUp' | null>(null);

  useEffect(() => {
    if (view.kind !== 'factors' || !focusBack.current) return;
    (focusBack.current === 'outcome' ? outcomeRef : setUpRef).current?.focus();
    focusBack.current = null;
  }, [view]);

  const report = (tone: Outcome['tone'], text: string) =>
    setOutcome((previous) => ({ tone, text, serial: (previous?.serial ?? 0) + 1 }));

  const backToFactors = (text?: string) => {
    if (text) report('success', text);
    setView({ kind: 'factors' });
    focusBack.current = text ? 'outcome' : 'setUp';
  };

  const beginSetup = async () => {
    setOutcome(null);
    try {
      setView({ kind: 'setup', enrolment: await startTotp().unwrap() });
    } catch (failure) {
      report('error', errorText(t, failure));
    }
  };

  const confirmRegenerate = async () => {
    try {
      const { recovery_codes } = await regenerate().unwrap();
      setOutcome(null);
      setView({ kind: 'codes', codes: recovery_codes, intro: t('factors.codes.ready') });
    } catch (failure) {
      report('error', errorText(t, failure));
    } finally {
      setDialog(null);
    }
  };

  let body;
  if (isLoading) body = <LoadingState>{t('factors.loading')}</LoadingState>;
  else if (isError || !factors)
    body = (
      <ErrorState
        title={t('factors.loadFailed')}
        detail={errorText(t, error)}
        retryLabel={t('retry')}
        onRetry={() => void refetch()}
      />
    );
  else if (view.kind === 'setup')
    body = (
      <TotpSetup
        enrolment={view.enrolment}
        onCancel={() => backToFactors()}
        onConfirmed={(codes) => setView({ kind: 'codes', codes, intro: t('factors.setup.done') })}
      />
    );
  else if (view.kind === 'codes')
    body = (
      <RecoveryCodesView
        codes={view.codes}
        email={email}
        intro={<FormAlert tone="success">{view.intro}</FormAlert>}
        onDone={() => backToFactors(t('factors.codes.kept'))}
      />
    );
  else {
    const hasFactor = factorCount(factors) > 0;
    body = (
      <ul className={styles.parts}>
        <Part
          title={t('factors.totp.title')}
          badge={
            factors.totp.enabled ? (
              <StatusBadge tone="success" status="on">
                {t('factors.on')}
              </StatusBadge>
            ) : (
              <StatusBadge tone="neutral" status="off">
                {t('factors.off')}
              </StatusBadge>
            )
          }
        >
          <p className={styles.muted}>{t('factors.totp.hint')}</p>
          {factors.totp.enabled && factors.totp.since ? (
            <p className={factor.state}>
              <time dateTime={factors.totp.since}>
                {t('factors.totp.since', { date: formatDate(factors.totp.since, i18n.language) })}
              </time>
            </p>
          ) : null}
          <div className={styles.actions}>
            {factors.totp.enabled ? (
              <Button
                variant="secondary"
                onClick={() => setDialog({ kind: 'remove', target: { kind: 'totp' } })}
              >
                {t('factors.totp.turnOff')}
              </Button>
            ) : (
              <Button
                ref={setUpRef}
                loading={starting}
                loadingText={t('factors.totp.starting')}
                onClick={() => void beginSetup()}
              >
                {t('factors.totp.setUp')}
              </Button>
            )}
          </div>
        </Part>
        <Part title={t('factors.passkeys.title')}>
          <p className={styles.muted}>{t('factors.passkeys.hint')}</p>
          {factors.passkeys.length === 0 ? (
            <p className={factor.state}>{t('factors.passkeys.empty')}</p>
          ) : (
            <ul className={styles.sessions} aria-label={t('factors.passkeys.listLabel')}>
              {factors.passkeys.map((passkey) => (
                <PasskeyRow
                  key={passkey.id}
                  passkey={passkey}
                  onRename={() => setDialog({ kind: 'rename', passkey })}
                  onRemove={() =>
                    setDialog({ kind: 'remove', target: { kind: 'passkey', passkey } })
                  }
                />
              ))}
            </ul>
          )}
          <div className={styles.actions}>
            <Button variant="secondary" onClick={() => setDialog({ kind: 'addPasskey' })}>
              {t('factors.passkeys.add')}
            </Button>
          </div>
        </Part>
        <Part title={t('factors.codes.title')}>
          <p className={styles.muted}>{t('factors.codes.hint')}</p>
          <RecoveryCodesState factors={factors} />
          {hasFactor ? (
            <div className={styles.actions}>
              <Button variant="secondary" onClick={() => setDialog({ kind: 'regenerate' })}>
                {factors.recovery_codes.created_at
                  ? t('factors.codes.regenerate')
                  : t('factors.codes.create')}
              </Button>
            </div>
          ) : null}
        </Part>
      </ul>
    );
  }

  return (
    // its anchor: the operator area's second-factor screen links to /profile#second-factor
    <ProfileSection id="second-factor" title={t('factors.title')} lead={t('factors.lead')}>
      {outcome && view.kind === 'factors' ? (
        <FormAlert ref={outcomeRef} key={outcome.serial} tone={outcome.tone}>
          {outcome.text}
        </FormAlert>
      ) : null}
      {body}
      {dialog?.kind === 'addPasskey' ? (
        <AddPasskeyDialog
          onClose={() => setDialog(null)}
          onAdded={({ name, recovery_codes }) => {
            setDialog(null);
            const added = t('factors.passkeys.addedNow', { name });
            // the account's first factor: its recovery codes, shown once as after the app's set-up
            if (recovery_codes?.length) {
              setOutcome(null);
              setView({ kind: 'codes', codes: recovery_codes, intro: added });
            } else report('success', added);
          }}
        />
      ) : null}
      {dialog?.kind === 'rename' ? (
        <RenamePasskeyDialog
          passkey={dialog.passkey}
          onClose={() => setDialog(null)}
          onRenamed={(passkey) => {
            setDialog(null);
            report('success', t('factors.passkeys.renamed', { name: passkey.name }));
          }}
        />
      ) : null}
      {dialog?.kind === 'remove' && factors ? (
        <RemoveFactorDialog
          target={dialog.target}
          factors={factors}
          onClose={() => setDialog(null)}
          onRemoved={(text) => {
            setDialog(null);
            report('success', text);
          }}
        />
      ) : null}
      {dialog?.kind === 'regenerate' ? (
        <Dialog
          open
          onOpenChange={(open) => (open ? undefined : setDialog(null))}
          title={t('factors.codes.regenerateTitle')}
          description={
            factors?.recovery_codes.created_at
              ? t('factors.codes.regenerateText')
              : t('factors.codes.createText')
          }
          closeLabel={t('close')}
          busy={regenerating}
        >
          <DialogActions>
            <Button variant="secondary" disabled={regenerating} onClick={() => setDialog(null)}>
              {t('cancel')}
            </Button>
            <Button
              loading={regenerating}
              loadingText={t('factors.codes.creating')}
              onClick={() => void confirmRegenerate()}
            >
              {t('factors.codes.regenerateConfirm')}
            </Button>
          </DialogActions>
        </Dialog>
      ) : null}
    </ProfileSection>
  );
}
