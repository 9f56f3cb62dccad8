import {
  passkeyNameSchema,
  type PasskeyAdded,
  type PasskeyItem,
  type PasskeyRegisterRequest,
} from '@tradehost/contracts';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  errorText,
  fieldErrorText,
  fieldErrorValue,
  isApiRequestError,
} from '../../../shared/lib/api-error';
import { TextField } from '../../../shared/ui/form';
import {
  useAddPasskeyMutation,
  usePasskeyRegistrationOptionsMutation,
  useRenamePasskeyMutation,
} from '../api/factors-api';
import { FactorFormDialog, useNotice, type Notice } from './factor-form-dialog';

/** @simplewebauthn/browser, loaded only when a passkey is made or used (as the sign-in does). */
export const loadWebAuthn = () => import('@simplewebauthn/browser');

/**
 * Why the browser's passkey ceremony failed, when it is the browser's doing: the user closed
 * or let time out its prompt (NotAllowedError), this authenticator already holds a passkey of
 * the account (InvalidStateError), or the browser has no WebAuthn.
 */
export function webAuthnFailure(error: unknown): 'cancelled' | 'exists' | 'unsupported' | null {
  if (!(error instanceof Error)) return null;
  if (error.name === 'NotAllowedError' || error.name === 'AbortError') return 'cancelled';
  if (error.name === 'InvalidStateError') return 'exists';
  if (error.name === 'NotSupportedError') return 'unsupported';
  return null;
}

interface PasskeyNameDialogProps {
  title: string;
  description?: string;
  initialName?: string;
  hint?: string;
  submitLabel: string;
  busyLabel: string;
  onClose(): void;
  /** Does the work with the checked name; a failure it throws is shown in the dialog. */
  save(name: string): Promise<void>;
  /** A failure's own notice (the browser's prompt closed), before the server's reading of it. */
  explain?(error: unknown): Omit<Notice, 'serial'> | undefined;
}

/**
 * A dialog around a passkey's name (one line, 1 to 64 characters): checked here by the contract,
 * then by the server, whose refusal of the name lands on the field and any other in the dialog.
 */
function PasskeyNameDialog({
  title,
  description,
  initialName = '',
  hint,
  submitLabel,
  busyLabel,
  onClose,
  save,
  explain,
}: PasskeyNameDialogProps) {
  const { t } = useTranslation('profile');
  const inputRef = useRef<HTMLInputElement>(null);
  const [name, setName] = useState(initialName);
  const [nameError, setNameError] = useState<string | undefined>();
  const { notice, show, clear } = useNotice();
  const [busy, setBusy] = useState(false);

  const refuseName = (message: string | undefined) => {
    setNameError(fieldErrorText(t, message));
    inputRef.current?.focus();
  };
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    clear();
    const parsed = passkeyNameSchema.safeParse(name);
    if (!parsed.success) return refuseName(parsed.error.issues[0]?.message);
    setNameError(undefined);
    setBusy(true);
    try {
      await save(parsed.data);
    } catch (error) {
      const own = explain?.(error);
      const refused = isApiRequestError(error) ? error.errors?.name?.[0] : undefined;
      if (own) show(own.tone, own.text);
      else if (refused) refuseName(fieldErrorValue(refused));
      else show('error', errorText(t, error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <FactorFormDialog
      title={title}
      description={description}
      busy={busy}
      notice={notice}
      submitLabel={submitLabel}
      busyLabel={busyLabel}
      onClose={onClose}
      onSubmit={(event) => void onSubmit(event)}
    >
      <TextField
        ref={inputRef}
        label={t('factors.passkeys.name')}
        hint={hint}
        name="passkey-name"
        autoComplete="off"
        required
        value={name}
        error={nameError}
        onChange={(event) => setName(event.target.value)}
      />
    </FactorFormDialog>
  );
}

/**
 * Adding a passkey: its name first, then the browser's own prompt (startRegistration with the
 * API's options). A closed prompt is not an error: the dialog says so calmly and stays.
 */
export function AddPasskeyDialog({
  onClose,
  onAdded,
}: {
  onClose(): void;
  /** The passkey added, with the recovery codes it brought when it turned the second factor on. */
  onAdded(passkey: PasskeyAdded): void;
}) {
  const { t } = useTranslation('profile');
  const [registrationOptions] = usePasskeyRegistrationOptionsMutation();
  const [addPasskey] = useAddPasskeyMutation();

  const save = async (name: string) => {
    const options = await registrationOptions().unwrap();
    const { startRegistration, browserSupportsWebAuthn } = await loadWebAuthn();
    if (!browserSupportsWebAuthn()) throw Object.assign(new Error(), { name: 'NotSupportedError' });
    const response = await startRegistration({
      optionsJSON: options as unknown as Parameters<typeof startRegistration>[0]['optionsJSON'],
    });
    onAdded(
      await addPasskey({
        name,
        response: response as unknown as PasskeyRegisterRequest['response'],
      }).unwrap(),
    );
  };

  const explain = (error: unknown): Omit<Notice, 'serial'> | undefined => {
    const failure = webAuthnFailure(error);
    if (failure === 'cancelled') return { tone: 'info', text: t('factors.passkeys.cancelled') };
    if (failure === 'exists') return { tone: 'error', text: t('factors.passkeys.alreadyOnDevice') };
    if (failure === 'unsupported')
      return { tone: 'error', text: t('factors.passkeys.unsupported') };
    return undefined;
  };

  return (
    <PasskeyNameDialog
      title={t('factors.passkeys.addTitle')}
      description={t('factors.passkeys.addText')}
      hint={t('factors.passkeys.nameHint')}
      submitLabel={t('factors.passkeys.create')}
      busyLabel={t('factors.passkeys.waiting')}
      onClose={onClose}
      save={save}
      explain={explain}
    />
  );
}

/** A passkey's new name. */
export function RenamePasskeyDialog({
  passkey,
  onClose,
  onRenamed,
}: {
  passkey: PasskeyItem;
  onClose(): void;
  onRenamed(passkey: PasskeyItem): void;
}) {
  const { t } = useTranslation('profile');
  const [renamePasskey] = useRenamePasskeyMutation();
  return (
    <PasskeyNameDialog
      title={t('factors.passkeys.renameTitle')}
      initialName={passkey.name}
      submitLabel={t('factors.passkeys.save')}
      busyLabel={t('factors.passkeys.saving')}
      onClose={onClose}
      save={async (name) => onRenamed(await renamePasskey({ id: passkey.id, name }).unwrap())}
    />
  );
}
