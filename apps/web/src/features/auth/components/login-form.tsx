import { zodResolver } from '@hookform/resolvers/zod';
import { loginRequestSchema, type LoginRequest } from '@tradehost/contracts';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button, FormAlert, PasswordField, TextField } from '../../../shared/ui/form';
import { useLoginMutation } from '../api/auth-api';
import { applyFieldErrors, hasCode } from './server-errors';
import { useErrorText } from './use-error-text';
import { useFormMessage } from './use-form-message';
import styles from './auth-card.module.css';

const FIELDS = ['email', 'password'] as const;

export function LoginForm() {
  const { t } = useTranslation('auth');
  const errorText = useErrorText();
  const { message, alertRef, show: showMessage, clear: clearMessage } = useFormMessage();
  const navigate = useNavigate();
  const [login] = useLoginMutation();

  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<LoginRequest>({
    resolver: zodResolver(loginRequestSchema),
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = async (data: LoginRequest) => {
    clearMessage();
    try {
      await login(data).unwrap();
      // The shell stores the token and swaps to the signed-in routes.
      await navigate('/vps', { replace: true });
    } catch (error) {
      const firstField = applyFieldErrors(error, FIELDS, setError);
      showMessage('error', errorText.request(error), {
        // an unconfirmed address gets a fresh confirmation link from the API
        detail: hasCode(error, 'EMAIL_NOT_VERIFIED') ? t('login.newLinkSent') : undefined,
        focus: !firstField,
      });
      if (firstField) setFocus(firstField);
    }
  };

  return (
    <form className={styles.form} noValidate onSubmit={handleSubmit(onSubmit)}>
      {message ? (
        <FormAlert
          ref={alertRef}
          tone={message.tone}
          title={message.detail ? message.text : undefined}
        >
          {message.detail ?? message.text}
        </FormAlert>
      ) : null}
      <TextField
        label={t('fields.email')}
        type="email"
        autoComplete="email"
        autoCapitalize="off"
        spellCheck={false}
        required
        error={errorText.field(errors.email?.message)}
        {...register('email')}
      />
      <PasswordField
        label={t('fields.password')}
        autoComplete="current-password"
        required
        toggleLabel={t('fields.showPassword')}
        error={errorText.field(errors.password?.message)}
        {...register('password')}
      />
      <Link to="/forgot-password" className={`${styles.link} ${styles.alignEnd}`}>
        {t('login.forgot')}
      </Link>
      <Button type="submit" fullWidth loading={isSubmitting} loadingText={t('login.submitting')}>
        {t('login.submit')}
      </Button>
    </form>
  );
}
