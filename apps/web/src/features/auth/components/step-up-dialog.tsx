import type { StepUpMethod, StepUpRequest } from '@tradehost/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { SESSION_EXPIRED } from '../../../shared/api/session-refresh';
import type { StepUpOutcome } from '../../../shared/api/step-up-gate';
import { errorText, hasErrorCode } from '../../../shared/lib/api-error';
import { loggedOut } from '../../../shared/model/session';
import { Dialog, DialogActions } from '../../../shared/ui/dialog/dialog';
import { Button, FormAlert, PasswordField } from '../../../shared/ui/form';
import { notify } from '../../../shared/ui/toast/notify';
import { useStepUpMutation, useStepUpPasskeyOptionsMutation } from '../api/step-up-api';
import { FactorChoice, type TypedFactor } from './factor-choice';
import styles from './auth-card.module.css';

type Mode = 'password' | TypedFactor;

/** The first way the dialog offers: the password, else the app's code, else a recovery code. */
function firstMode(methods: StepUpMethod[]): Mode | null {
  if (methods.includes('password')) return 'password';
  if (methods.includes('totp')) return 'code';
  if (methods.includes('recovery_code')) return 'recovery';
  return null;
}

export interface StepUpDialogProps {
  methods: StepUpMethod[];
  onSettled(outcome: StepUpOutcome): void;
}

/**
 * "Confirm it is you": the one small dialog a call answered 403 STEP_UP_REQUIRED opens (see
 * shared/api/step-up-gate.ts). It asks for what the account takes (the password; or the
 * authenticator's code, a passkey, a recovery code), and settles `proved` once the API took it,
 * so the calls that asked go again; Cancel, Escape or × settle `cancelled` and nothing is done.
 * A wrong proof stays in the dialog with the reason; a sign-in ended for too many wrong proofs
 * signs out.
 */
export function StepUpDialog({ methods, onSettled }: StepUpDialogProps) {
  const { t } = useTranslation('common');
  const dispatch = useDispatch();
  const [mode, setMode] = useState<Mode | null>(() => firstMode(methods));
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const [stepUp, { isLoading }] = useStepUpMutation();
  const [passkeyOptions] = useStepUpPasskeyOptionsMutation();
  const [usingPasskey, setUsingPasskey] = useState(false);
  const busy = isLoading || usingPasskey;

  /** A failed proof: on its field when it is the typed one, else above the buttons. */
  const failed = (error: unknown, onField: boolean) => {
    if (hasErrorCode(error, 'SESSION_EXPIRED') || hasErrorCode(error, 'UNAUTHORIZED')) {
      onSettled('cancelled');
      dispatch(loggedOut());
      notify('warning', errorText(t, SESSION_EXPIRED));
      return;
    }
    // a wrong proof names the one asked for, not "the password or code"
    if (onField && mode && hasErrorCode(error, 'STEP_UP_PROOF_INVALID'))
      setFieldError(t(`stepUp.wrong.${mode}`));
    else if (onField) setFieldError(errorText(t, error));
    else setFailure(errorText(t, error));
  };

  const prove = async (proof: StepUpRequest) => {
    setFieldError(undefined);
    setFailure(undefined);
    try {
      await stepUp(proof).unwrap();
      onSettled('proved');
    } catch (error) {
      failed(error, !('passkey' in proof));
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = mode === 'password' ? value : value.trim();
    if (!typed) return setFieldError(errorText(t, 'REQUIRED'));
    if (mode === 'code' && !/^\d{6}$/.test(typed))
      return setFieldError(errorText(t, 'CODE_FORMAT'));
    void prove(
      mode === 'password'
        ? { password: typed }
        : mode === 'code'
          ? { code: typed }
          : { recovery_code: typed },
    );
  };

  const proveWithPasskey = async () => {
    setFieldError(undefined);
    setFailure(undefined);
    setUsingPasskey(true);
    try {
      const options = await passkeyOptions().unwrap();
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const response = await startAuthentication({
        optionsJSON: options as unknown as Parameters<typeof startAuthentication>[0]['optionsJSON'],
      });
      await prove({ passkey: response as unknown as NonNullable<StepUpRequest['passkey']> });
    } catch (error) {
      if (error instanceof Error && error.name === 'NotAllowedError')
        setFailure(t('stepUp.passkeyCancelled'));
      else failed(error, false);
    } finally {
      setUsingPasskey(false);
    }
  };

  const switchMode = (next: Mode) => {
    setMode(next);
    setValue('');
    setFieldError(undefined);
    setFailure(undefined);
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? null : onSettled('cancelled'))}
      title={t('stepUp.title')}
      description={t(mode ? `stepUp.lead.${mode}` : 'stepUp.lead.passkey')}
      closeLabel={t('stepUp.close')}
      busy={busy}
    >
      <form className={styles.form} noValidate onSubmit={onSubmit}>
        {failure ? <FormAlert tone="error">{failure}</FormAlert> : null}
        {mode === 'password' ? (
          <PasswordField
            key="password"
            label={t('stepUp.password')}
            name="password"
            autoComplete="current-password"
            toggleLabel={t('stepUp.showPassword')}
            required
            value={value}
            error={fieldError}
            onChange={(event) => setValue(event.target.value)}
          />
        ) : null}
        <FactorChoice
          methods={methods}
          mode={mode === 'password' ? null : mode}
          value={value}
          error={fieldError}
          onChange={setValue}
          onSwitch={switchMode}
          usingPasskey={usingPasskey}
          onUsePasskey={() => void proveWithPasskey()}
          text={(key) => t(`stepUp.${key}`)}
        />
        <DialogActions>
          <Button
            type="button"
            variant="secondary"
            disabled={busy}
            onClick={() => onSettled('cancelled')}
          >
            {t('stepUp.cancel')}
          </Button>
          {mode ? (
            <Button type="submit" loading={isLoading} loadingText={t('stepUp.checking')}>
              {t('stepUp.submit')}
            </Button>
          ) : null}
        </DialogActions>
      </form>
    </Dialog>
  );
}
