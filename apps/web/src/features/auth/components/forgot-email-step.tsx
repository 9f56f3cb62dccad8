import { zodResolver } from '@hookform/resolvers/zod';
import { forgotPasswordRequestSchema, type ForgotPasswordRequest } from '@tradehost/contracts';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../shared/ui/form';
import { useForgotPasswordCodeMutation } from '../api/auth-api';
import { EmailField, FormMessage } from './auth-fields';
import { useFormMessage } from './use-form-message';
import styles from './auth-card.module.css';

export interface ForgotEmailStepProps {
  defaultEmail?: string;
  /** Called with the e-mail the code went to. */
  onCodeSent: (email: string) => void;
}

/** Step 1 of the recovery: the e-mail the 6-digit code goes to. */
export function ForgotEmailStep({ defaultEmail = '', onCodeSent }: ForgotEmailStepProps) {
  const { t } = useTranslation('auth');
  const { message, alertRef, fail, clear: clearMessage } = useFormMessage();
  const [sendCode] = useForgotPasswordCodeMutation();
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<ForgotPasswordRequest>({
    resolver: zodResolver(forgotPasswordRequestSchema),
    defaultValues: { email: defaultEmail },
  });

  const onSubmit = async (data: ForgotPasswordRequest) => {
    clearMessage();
    try {
      await sendCode(data).unwrap();
      onCodeSent(data.email);
    } catch (error) {
      fail(error, { fields: ['email'], setError, setFocus });
    }
  };

  return (
    <form className={styles.form} noValidate onSubmit={handleSubmit(onSubmit)}>
      <FormMessage message={message} alertRef={alertRef} />
      <EmailField error={errors.email?.message} {...register('email')} />
      <Button type="submit" fullWidth loading={isSubmitting} loadingText={t('forgot.sending')}>
        {t('forgot.sendCode')}
      </Button>
    </form>
  );
}
