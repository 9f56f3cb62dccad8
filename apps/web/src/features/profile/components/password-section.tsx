import { zodResolver } from '@hookform/resolvers/zod';
import { changePasswordRequestSchema, type ChangePasswordRequest } from '@tradehost/contracts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldErrorText } from '../../../shared/lib/api-error';
import { useFormFailure } from '../../../shared/lib/use-form-failure';
import { Button, FormAlert, PasswordField } from '../../../shared/ui/form';
import { useChangePasswordMutation } from '../api/profile-api';
import { ProfileSection } from './profile-section';
import styles from './profile.module.css';

const FIELDS = ['current_password', 'password', 'password_confirmation'] as const;
const EMPTY: ChangePasswordRequest = {
  current_password: '',
  password: '',
  password_confirmation: '',
};

/**
 * The password change: the current password, the new one twice (the contract's rules, checked
 * here and by the server, whose refusals land on their fields). This session stays signed in.
 */
export function PasswordSection({ email }: { email: string }) {
  const { t } = useTranslation('profile');
  const [changePassword] = useChangePasswordMutation();
  const { failure, alertRef, fail, clear } = useFormFailure();
  const [changed, setChanged] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<ChangePasswordRequest>({
    resolver: zodResolver(changePasswordRequestSchema),
    defaultValues: EMPTY,
  });

  const onSubmit = async (data: ChangePasswordRequest) => {
    clear();
    setChanged(false);
    try {
      await changePassword(data).unwrap();
      reset(EMPTY);
      setChanged(true);
    } catch (error) {
      fail(error, { fields: FIELDS, setError, setFocus });
    }
  };

  const fieldError = (field: (typeof FIELDS)[number]) => fieldErrorText(t, errors[field]?.message);

  return (
    <ProfileSection title={t('password.title')} lead={t('password.lead')}>
      <form className={styles.form} noValidate onSubmit={handleSubmit(onSubmit)}>
        {failure ? (
          <FormAlert ref={alertRef} key={failure.serial} tone="error">
            {failure.text}
          </FormAlert>
        ) : null}
        {changed ? <FormAlert tone="success">{t('password.changed')}</FormAlert> : null}
        {/* lets password managers file the new password under the right account */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <PasswordField
          label={t('password.current')}
          autoComplete="current-password"
          toggleLabel={t('password.show')}
          required
          error={fieldError('current_password')}
          {...register('current_password')}
        />
        <PasswordField
          label={t('password.new')}
          hint={t('password.newHint')}
          autoComplete="new-password"
          toggleLabel={t('password.show')}
          required
          error={fieldError('password')}
          {...register('password')}
        />
        <PasswordField
          label={t('password.repeat')}
          autoComplete="new-password"
          toggleLabel={t('password.show')}
          required
          error={fieldError('password_confirmation')}
          {...register('password_confirmation')}
        />
        <div className={styles.actions}>
          <Button type="submit" loading={isSubmitting} loadingText={t('password.submitting')}>
            {t('password.submit')}
          </Button>
        </div>
      </form>
    </ProfileSection>
  );
}
