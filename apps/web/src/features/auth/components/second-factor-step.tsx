import type { SecondFactorChallenge, SecondFactorSignInRequest } from '@tradehost/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { hasErrorCode } from '../../../shared/lib/api-error';
import { Button, LinkButton } from '../../../shared/ui/form';
import {
  useSecondFactorPasskeyOptionsMutation,
  useSecondFactorSignInMutation,
} from '../api/auth-api';
import { FormMessage } from './auth-fields';
import { FactorChoice, type TypedFactor } from './factor-choice';
import { useErrorText } from './use-error-text';
import { useFocusOnMount } from './use-focus-on-mount';
import { useFormMessage } from './use-form-message';
import styles from './auth-card.module.css';

type Pending = SecondFactorChallenge['second_factor'];

export interface SecondFactorStepProps {
  pending: Pending;
  /** The half-session ended (expired, too many tries): back to the password. */
  onRestart(reason: string): void;
}

/**
 * The sign-in's second step, after the right password: the authenticator's 6-digit code, a
 * passkey, or a one-time recovery code (a lost phone). @simplewebauthn/browser loads only when
 * a passkey is asked for.
 */
export function SecondFactorStep({ pending, onRestart }: SecondFactorStepProps) {
  const { t } = useTranslation('auth');
  const errorText = useErrorText();
  const navigate = useNavigate();
  const { message, alertRef, show, clear } = useFormMessage();
  const hasTotp = pending.methods.includes('totp');
  const [mode, setMode] = useState<TypedFactor>(hasTotp ? 'code' : 'recovery');
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [signIn, { isLoading }] = useSecondFactorSignInMutation();
  const [passkeyOptions] = useSecondFactorPasskeyOptionsMutation();
  const [usingPasskey, setUsingPasskey] = useState(false);
  const headingRef = useFocusOnMount<HTMLHeadingElement>();

  const complete = async (proof: Omit<SecondFactorSignInRequest, 'token'>) => {
    clear();
    setFieldError(undefined);
    try {
      await signIn({ token: pending.token, ...proof }).unwrap();
      await navigate('/vps', { replace: true });
    } catch (error) {
      if (hasErrorCode(error, 'SIGN_IN_PENDING_EXPIRED'))
        return onRestart(errorText.request(error));
      if (hasErrorCode(error, 'SECOND_FACTOR_INVALID') && !('passkey' in proof))
        setFieldError(errorText.request(error));
      else show('error', errorText.request(error));
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = value.trim();
    if (!typed) return setFieldError(errorText.field('REQUIRED'));
    if (mode === 'code' && !/^\d{6}$/.test(typed))
      return setFieldError(errorText.field('CODE_FORMAT'));
    void complete(mode === 'code' ? { code: typed } : { recovery_code: typed });
  };

  const signInWithPasskey = async () => {
    clear();
    setUsingPasskey(true);
    try {
      const options = await passkeyOptions({ token: pending.token }).unwrap();
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const response = await startAuthentication({
        optionsJSON: options as unknown as Parameters<typeof startAuthentication>[0]['optionsJSON'],
      });
      await complete({ passkey: response as unknown as SecondFactorSignInRequest['passkey'] });
    } catch (error) {
      if (hasErrorCode(error, 'SIGN_IN_PENDING_EXPIRED')) onRestart(errorText.request(error));
      else if (error instanceof Error && error.name === 'NotAllowedError')
        show('error', t('secondFactor.passkeyCancelled'));
      else show('error', errorText.request(error));
    } finally {
      setUsingPasskey(false);
    }
  };

  const switchMode = (next: TypedFactor) => {
    setMode(next);
    setValue('');
    setFieldError(undefined);
    clear();
  };

  return (
    <form className={styles.form} noValidate onSubmit={onSubmit}>
      <h2 ref={headingRef} tabIndex={-1} className={styles.stepTitle}>
        {t('secondFactor.title')}
      </h2>
      <p className={styles.text}>
        {mode === 'code' ? t('secondFactor.codeLead') : t('secondFactor.recoveryLead')}
      </p>
      <FormMessage message={message} alertRef={alertRef} />
      <FactorChoice
        methods={pending.methods}
        mode={mode}
        value={value}
        error={fieldError}
        onChange={setValue}
        onSwitch={switchMode}
        usingPasskey={usingPasskey}
        onUsePasskey={() => void signInWithPasskey()}
        text={(key) => t(`secondFactor.${key}`)}
      >
        <Button
          type="submit"
          fullWidth
          loading={isLoading}
          loadingText={t('secondFactor.checking')}
        >
          {t('secondFactor.submit')}
        </Button>
      </FactorChoice>
      <LinkButton align="center" onClick={() => onRestart('')}>
        {t('secondFactor.back')}
      </LinkButton>
    </form>
  );
}
