import type { TotpEnrolment } from '@tradehost/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, fieldErrorText, hasErrorCode } from '../../../shared/lib/api-error';
import { CopyButton } from '../../../shared/ui/copy-button/copy-button';
import { Button, FormAlert, OtpInput } from '../../../shared/ui/form';
import { useConfirmTotpMutation } from '../api/factors-api';
import factor from './second-factor.module.css';
import styles from './profile.module.css';

/** The base32 key in groups of four, as authenticator apps show and take it. */
export const groupedSecret = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

export interface TotpSetupProps {
  enrolment: TotpEnrolment;
  /** The app's code was right: the authenticator is on, with these recovery codes. */
  onConfirmed(recoveryCodes: string[]): void;
  onCancel(): void;
}

/**
 * Setting up the authenticator app: its QR code (the API's), the key for typing in by hand, and
 * the app's current code to turn it on. A wrong code stays on the field; nothing is on until a
 * code is right.
 */
export function TotpSetup({ enrolment, onConfirmed, onCancel }: TotpSetupProps) {
  const { t } = useTranslation('profile');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [failure, setFailure] = useState<{ text: string; serial: number } | null>(null);
  const [confirmTotp, { isLoading }] = useConfirmTotpMutation();

  useEffect(() => headingRef.current?.focus(), []);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailure(null);
    if (!/^\d{6}$/.test(code)) {
      setCodeError(fieldErrorText(t, 'CODE_FORMAT'));
      codeRef.current?.focus();
      return;
    }
    setCodeError(undefined);
    try {
      const { recovery_codes } = await confirmTotp(code).unwrap();
      onConfirmed(recovery_codes);
    } catch (error) {
      if (hasErrorCode(error, 'SECOND_FACTOR_INVALID')) {
        setCodeError(errorText(t, error));
        codeRef.current?.select();
        codeRef.current?.focus();
      } else
        setFailure((previous) => ({
          text: errorText(t, error),
          serial: (previous?.serial ?? 0) + 1,
        }));
    }
  };

  return (
    <form className={styles.form} noValidate onSubmit={(event) => void onSubmit(event)}>
      <h3 ref={headingRef} tabIndex={-1} className={factor.viewTitle}>
        {t('factors.setup.title')}
      </h3>
      {failure ? (
        <FormAlert key={failure.serial} tone="error">
          {failure.text}
        </FormAlert>
      ) : null}
      <ol className={factor.steps}>
        <li>
          <p>{t('factors.setup.scan')}</p>
          <img className={factor.qr} src={enrolment.qr} alt={t('factors.setup.qrAlt')} />
        </li>
        <li>
          <p>{t('factors.setup.manual')}</p>
          <code className={factor.secret}>{groupedSecret(enrolment.secret)}</code>
          <CopyButton
            text={enrolment.secret}
            label={t('factors.setup.copyKey')}
            messages={{
              copied: t('factors.setup.keyCopied'),
              failed: t('factors.setup.copyFailed'),
            }}
          />
        </li>
        <li>
          <p>{t('factors.setup.enterCode')}</p>
          <OtpInput
            ref={codeRef}
            label={t('factors.setup.code')}
            name="code"
            required
            value={code}
            error={codeError}
            onChange={(event) => setCode(event.target.value)}
          />
        </li>
      </ol>
      <div className={styles.actions}>
        <Button type="submit" loading={isLoading} loadingText={t('factors.setup.confirming')}>
          {t('factors.setup.confirm')}
        </Button>
        <Button variant="secondary" disabled={isLoading} onClick={onCancel}>
          {t('cancel')}
        </Button>
      </div>
    </form>
  );
}
