import type { FactorsResponse, PasskeyItem, RemoveFactorRequest } from '@tradehost/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  errorText,
  fieldErrorText,
  fieldErrorValue,
  isApiRequestError,
} from '../../../shared/lib/api-error';
import { LinkButton, OtpInput, PasswordField, TextField } from '../../../shared/ui/form';
import {
  useDisableTotpMutation,
  usePasskeyAssertionOptionsMutation,
  useRemovePasskeyMutation,
} from '../api/factors-api';
import { FactorFormDialog, useNotice } from './factor-form-dialog';
import { loadWebAuthn, webAuthnFailure } from './passkey-dialogs';
import styles from './profile.module.css';

/** The factor to remove: the authenticator app, or one passkey. */
export type RemovalTarget = { kind: 'totp' } | { kind: 'passkey'; passkey: PasskeyItem };

/** How many factors an account has: a confirmed authenticator counts one, each passkey one. */
export const factorCount = (factors: FactorsResponse) =>
  (factors.totp.enabled ? 1 : 0) + factors.passkeys.length;

/** How the last factor's removal proves a current factor. */
type Proof = 'code' | 'recovery' | 'passkey';
const PROOF_FIELDS = ['password', 'code', 'recovery_code'] as const;
type ProofField = (typeof PROOF_FIELDS)[number];

export interface RemoveFactorDialogProps {
  target: RemovalTarget;
  factors: FactorsResponse;
  onClose(): void;
  /** Removed: the section says so (`text`) and shows the account's factors as they are now. */
  onRemoved(text: string): void;
}

/**
 * The confirmation before a factor goes. While another factor stays, a confirmation (the API may
 * ask for a step-up, which the base query handles). The last one takes the password and a
 * current proof in the request itself: the app's code or a recovery code for the authenticator,
 * the passkey itself or a recovery code for a passkey.
 */
export function RemoveFactorDialog({
  target,
  factors,
  onClose,
  onRemoved,
}: RemoveFactorDialogProps) {
  const { t } = useTranslation('profile');
  const last = factorCount(factors) <= 1;
  const hasCodes = factors.recovery_codes.left > 0;
  const [proof, setProof] = useState<Proof>(target.kind === 'totp' ? 'code' : 'passkey');
  const [values, setValues] = useState<Record<ProofField, string>>({
    password: '',
    code: '',
    recovery_code: '',
  });
  const [errors, setErrors] = useState<Partial<Record<ProofField, string>>>({});
  const { notice, show, clear } = useNotice();
  const [busy, setBusy] = useState(false);
  const [disableTotp] = useDisableTotpMutation();
  const [removePasskey] = useRemovePasskeyMutation();
  const [assertionOptions] = usePasskeyAssertionOptionsMutation();

  const name = target.kind === 'passkey' ? target.passkey.name : '';
  const title =
    target.kind === 'totp'
      ? t('factors.remove.totpTitle')
      : t('factors.remove.passkeyTitle', { name });
  const description = last
    ? t('factors.remove.lastText')
    : target.kind === 'totp'
      ? t('factors.remove.totpText')
      : t('factors.remove.passkeyText');
  const done =
    target.kind === 'totp' ? t('factors.totp.turnedOff') : t('factors.passkeys.removed', { name });

  const passwordRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const recoveryRef = useRef<HTMLInputElement>(null);
  const focusField = (field: ProofField) =>
    ({ password: passwordRef, code: codeRef, recovery_code: recoveryRef })[field].current?.focus();

  const remove = (body: RemoveFactorRequest) =>
    target.kind === 'totp'
      ? disableTotp(body).unwrap()
      : removePasskey({ id: target.passkey.id, ...body }).unwrap();

  /** The fields the last factor's removal needs, checked here first; undefined when one is wrong. */
  const lastFactorBody = async (): Promise<RemoveFactorRequest | undefined> => {
    const found: Partial<Record<ProofField, string>> = {};
    if (!values.password) found.password = 'CURRENT_PASSWORD_REQUIRED';
    if (proof === 'code' && !/^\d{6}$/.test(values.code)) found.code = 'CODE_FORMAT';
    if (proof === 'recovery' && !values.recovery_code.trim()) found.recovery_code = 'REQUIRED';
    setErrors(
      Object.fromEntries(Object.entries(found).map(([f, code]) => [f, fieldErrorText(t, code)])),
    );
    const first = PROOF_FIELDS.find((field) => found[field]);
    if (first) {
      focusField(first);
      return undefined;
    }
    if (proof === 'code') return { password: values.password, code: values.code };
    if (proof === 'recovery')
      return { password: values.password, recovery_code: values.recovery_code.trim() };
    const options = await assertionOptions().unwrap();
    const { startAuthentication } = await loadWebAuthn();
    const answer = await startAuthentication({
      optionsJSON: options as unknown as Parameters<typeof startAuthentication>[0]['optionsJSON'],
    });
    return {
      password: values.password,
      passkey: answer as unknown as RemoveFactorRequest['passkey'],
    };
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    clear();
    setBusy(true);
    try {
      const body = last ? await lastFactorBody() : {};
      if (!body) return;
      await remove(body);
      onRemoved(done);
    } catch (error) {
      // the server's refusals of a field land on it (a wrong password, a wrong code)
      const fieldErrors = isApiRequestError(error) ? error.errors : undefined;
      const onFields = PROOF_FIELDS.filter((field) => fieldErrors?.[field]?.[0]);
      if (onFields.length > 0) {
        setErrors(
          Object.fromEntries(
            onFields.map((field) => [
              field,
              fieldErrorText(t, fieldErrorValue(fieldErrors![field]![0]!)),
            ]),
          ),
        );
        focusField(onFields[0]!);
      } else if (webAuthnFailure(error) === 'cancelled')
        show('info', t('factors.remove.passkeyCancelled'));
      else show('error', errorText(t, error));
    } finally {
      setBusy(false);
    }
  };

  // a switch to a typed proof puts the focus in its field (the link that switched is gone)
  const switched = useRef(false);
  useEffect(() => {
    if (!switched.current) return;
    switched.current = false;
    if (proof === 'code') codeRef.current?.focus();
    else if (proof === 'recovery') recoveryRef.current?.focus();
  }, [proof]);
  const switchProof = (next: Proof) => {
    switched.current = true;
    setProof(next);
    setErrors(({ password }) => ({ password }));
    clear();
  };
  const set = (field: ProofField) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  let proofField = null;
  if (last && proof === 'code')
    proofField = (
      <OtpInput
        key="code"
        ref={codeRef}
        label={t('factors.remove.code')}
        name="code"
        required
        value={values.code}
        error={errors.code}
        onChange={set('code')}
      />
    );
  else if (last && proof === 'recovery')
    proofField = (
      <TextField
        key="recovery"
        ref={recoveryRef}
        label={t('factors.remove.recoveryCode')}
        name="recovery_code"
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        required
        value={values.recovery_code}
        error={errors.recovery_code}
        onChange={set('recovery_code')}
      />
    );
  else if (last && proof === 'passkey')
    proofField = <p className={styles.muted}>{t('factors.remove.passkeyLead')}</p>;

  const firstProof: Proof = target.kind === 'totp' ? 'code' : 'passkey';
  const action = target.kind === 'totp' ? t('factors.remove.turnOff') : t('factors.remove.remove');

  return (
    <FactorFormDialog
      title={title}
      description={description}
      busy={busy}
      notice={notice}
      submitLabel={action}
      busyLabel={t('factors.remove.removing')}
      submitVariant="danger"
      onClose={onClose}
      onSubmit={(event) => void onSubmit(event)}
    >
      {last ? (
        <>
          <PasswordField
            ref={passwordRef}
            label={t('factors.remove.password')}
            autoComplete="current-password"
            toggleLabel={t('password.show')}
            required
            value={values.password}
            error={errors.password}
            onChange={set('password')}
          />
          {proofField}
          {/* one link in one place: back to the passkey, the focus stays on it */}
          {proof === 'recovery' ? (
            <LinkButton onClick={() => switchProof(firstProof)}>
              {firstProof === 'code' ? t('factors.remove.useCode') : t('factors.remove.usePasskey')}
            </LinkButton>
          ) : hasCodes ? (
            <LinkButton onClick={() => switchProof('recovery')}>
              {t('factors.remove.useRecoveryCode')}
            </LinkButton>
          ) : null}
        </>
      ) : null}
    </FactorFormDialog>
  );
}
