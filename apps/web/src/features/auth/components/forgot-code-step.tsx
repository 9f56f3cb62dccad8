import { zodResolver } from '@hookform/resolvers/zod';
import { checkForgotOtpRequestSchema } from '@tradehost/contracts';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import * as z from 'zod/mini';
import { Button, OtpInput } from '../../../shared/ui/form';
import { useCheckForgotOtpMutation, useForgotPasswordCodeMutation } from '../api/auth-api';
import { FormMessage } from './auth-fields';
import { saveResetSession, type ResetSession } from './reset-session';
import { useErrorText } from './use-error-text';
import { useFormMessage } from './use-form-message';
import styles from './auth-card.module.css';

const codeFormSchema = z.pick(checkForgotOtpRequestSchema, { code: true });
type CodeForm = z.infer<typeof codeFormSchema>;

export interface ForgotCodeStepProps {
  email: string;
  onChangeEmail: () => void;
}

/** Step 2 of the recovery: the 6-digit code from the e-mail. */
export function ForgotCodeStep({ email, onChangeEmail }: ForgotCodeStepProps) {
  const { t } = useTranslation('auth');
  const errorText = useErrorText();
  const { message, alertRef, show: showMessage, fail, clear: clearMessage } = useFormMessage();
  const navigate = useNavigate();
  const [checkCode] = useCheckForgotOtpMutation();
  const [sendCode, sendState] = useForgotPasswordCodeMutation();
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<CodeForm>({
    resolver: zodResolver(codeFormSchema),
    defaultValues: { code: '' },
  });

  const onSubmit = async ({ code }: CodeForm) => {
    clearMessage();
    try {
      await checkCode({ email, code }).unwrap();
      const session: ResetSession = { email, code };
      saveResetSession(session);
      await navigate('/password-reset', { state: session });
    } catch (error) {
      fail(error, { fields: ['code'], setError, setFocus });
    }
  };

  const resend = async () => {
    clearMessage();
    try {
      await sendCode({ email }).unwrap();
      showMessage('info', t('forgot.resent', { email }), { focus: false });
      setFocus('code');
    } catch (error) {
      showMessage('error', errorText.request(error));
    }
  };

  return (
    <form className={styles.form} noValidate onSubmit={handleSubmit(onSubmit)}>
      <FormMessage message={message} alertRef={alertRef} />
      <OtpInput
        label={t('fields.code')}
        hint={t('hints.code')}
        required
        autoFocus
        error={errorText.field(errors.code?.message)}
        {...register('code')}
      />
      <Button type="submit" fullWidth loading={isSubmitting} loadingText={t('forgot.checking')}>
        {t('forgot.checkCode')}
      </Button>
      <div className={styles.actions}>
        <Button
          variant="ghost"
          loading={sendState.isLoading}
          loadingText={t('forgot.sending')}
          onClick={() => void resend()}
        >
          {t('forgot.resend')}
        </Button>
        <Button variant="ghost" onClick={onChangeEmail}>
          {t('forgot.changeEmail')}
        </Button>
      </div>
    </form>
  );
}
