import { zodResolver } from '@hookform/resolvers/zod';
import { signupRequestSchema, type Language } from '@tradehost/contracts';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type * as z from 'zod/mini';
import { useAppSelector } from '../../../app/hooks';
import { isApiRequestError } from '../../../shared/lib/api-error';
import { Button, Checkbox, TextField } from '../../../shared/ui/form';
import { useSignupMutation } from '../api/auth-api';
import { EmailField, FormMessage, NewPasswordFields } from './auth-fields';
import { useErrorText } from './use-error-text';
import { useFormMessage } from './use-form-message';
import styles from './auth-card.module.css';

type SignupValues = z.input<typeof signupRequestSchema>;
type SignupData = z.output<typeof signupRequestSchema>;

const FIELDS = [
  'name',
  'email',
  'password',
  'password_confirmation',
  'consent',
  'partner_code',
] as const satisfies readonly (keyof SignupValues)[];

export interface SignupFormProps {
  /** Called with the e-mail the confirmation link went to. */
  onSignedUp: (email: string) => void;
}

export function SignupForm({ onSignedUp }: SignupFormProps) {
  const { t, i18n } = useTranslation('auth');
  const errorText = useErrorText();
  const { message, alertRef, fail, clear: clearMessage } = useFormMessage();
  const referralCode = useAppSelector((state) => state.auth.referralCode) ?? '';
  const [signup] = useSignupMutation();
  const language: Language = i18n.language?.startsWith('ru') ? 'ru' : 'en';

  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    setValue,
    getFieldState,
    formState: { errors, isSubmitting },
  } = useForm<SignupValues, unknown, SignupData>({
    resolver: zodResolver(signupRequestSchema),
    defaultValues: {
      name: '',
      email: '',
      password: '',
      password_confirmation: '',
      partner_code: referralCode,
    },
  });

  // The referral code may arrive after the first render (persisted state, ?ref= link).
  useEffect(() => {
    if (referralCode && !getFieldState('partner_code').isDirty) {
      setValue('partner_code', referralCode);
    }
  }, [referralCode, getFieldState, setValue]);

  const onSubmit = async (data: SignupData) => {
    clearMessage();
    try {
      await signup({ ...data, language }).unwrap();
      onSignedUp(data.email);
    } catch (error) {
      // SPEC section 8: a 401 from sign-up is ignored.
      if (isApiRequestError(error) && error.status === 401) return;
      fail(error, { fields: FIELDS, setError, setFocus });
    }
  };

  return (
    <form className={styles.form} noValidate onSubmit={handleSubmit(onSubmit)}>
      <FormMessage message={message} alertRef={alertRef} />
      <TextField
        label={t('fields.name')}
        autoComplete="name"
        required
        error={errorText.field(errors.name?.message)}
        {...register('name')}
      />
      <EmailField error={errors.email?.message} {...register('email')} />
      <NewPasswordFields
        labels={{ password: t('fields.password'), confirmation: t('fields.passwordConfirmation') }}
        password={register('password')}
        confirmation={register('password_confirmation')}
        errors={errors}
      />
      <TextField
        label={t('fields.partnerCode')}
        optionalText={t('fields.optional')}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        hint={referralCode ? t('hints.partnerCodeFromLink') : t('hints.partnerCode')}
        error={errorText.field(errors.partner_code?.message)}
        {...register('partner_code')}
      />
      <Checkbox
        label={
          <Trans
            t={t}
            i18nKey="signup.consent"
            components={{
              offer: <Link to="/public-offer" className={styles.link} />,
              policy: <Link to="/privacy-policy" className={styles.link} />,
            }}
          />
        }
        required
        error={errorText.field(errors.consent?.message)}
        {...register('consent')}
      />
      <Button type="submit" fullWidth loading={isSubmitting} loadingText={t('signup.submitting')}>
        {t('signup.submit')}
      </Button>
    </form>
  );
}
