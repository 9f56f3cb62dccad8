import { zodResolver } from '@hookform/resolvers/zod';
import { resetPasswordRequestSchema, type ResetPasswordRequest } from '@tradehost/contracts';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { hasErrorCode } from '../../../shared/lib/api-error';
import { Button, FormAlert } from '../../../shared/ui/form';
import { useResetPasswordWithCodeMutation } from '../api/auth-api';
import { NewPasswordFields } from './auth-fields';
import type { ResetSession } from './reset-session';
import { useFormMessage } from './use-form-message';
import styles from './auth-card.module.css';

const FIELDS = ['password', 'password_confirmation'] as const;

export interface ResetPasswordFormProps {
  session: ResetSession;
  onPasswordReset: () => void;
}

/** The new password and its confirmation; the e-mail and code ride along unseen. */
export function ResetPasswordForm({ session, onPasswordReset }: ResetPasswordFormProps) {
  const { t } = useTranslation('auth');
  const { message, alertRef, fail, clear: clearMessage } = useFormMessage();
  const [resetPassword] = useResetPasswordWithCodeMutation();
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<ResetPasswordRequest>({
    resolver: zodResolver(resetPasswordRequestSchema),
    defaultValues: {
      email: session.email,
      code: session.code,
      password: '',
      password_confirmation: '',
    },
  });

  const onSubmit = async (data: ResetPasswordRequest) => {
    clearMessage();
    try {
      await resetPassword(data).unwrap();
      onPasswordReset();
    } catch (error) {
      fail(
        error,
        { fields: FIELDS, setError, setFocus },
        hasErrorCode(error, 'CODE_INVALID') ? (
          <Link to="/forgot-password" className={styles.link}>
            {t('reset.requestNewCode')}
          </Link>
        ) : undefined,
      );
    }
  };

  // Only a valid session reaches this form, so the e-mail and code cannot fail
  // validation on their own; if the server says otherwise, it shows in the alert.
  return (
    <form className={styles.form} noValidate onSubmit={handleSubmit(onSubmit)}>
      {message ? (
        <FormAlert ref={alertRef} tone={message.tone}>
          <p className={styles.text}>{message.text}</p>
          {message.detail ? <p className={styles.text}>{message.detail}</p> : null}
        </FormAlert>
      ) : null}
      {/* lets password managers file the new password under the right account */}
      <input
        type="email"
        name="username"
        autoComplete="username"
        value={session.email}
        readOnly
        hidden
      />
      <NewPasswordFields
        labels={{
          password: t('fields.newPassword'),
          confirmation: t('fields.newPasswordConfirmation'),
        }}
        password={register('password')}
        confirmation={register('password_confirmation')}
        errors={errors}
      />
      <Button type="submit" fullWidth loading={isSubmitting} loadingText={t('reset.submitting')}>
        {t('reset.submit')}
      </Button>
    </form>
  );
}
