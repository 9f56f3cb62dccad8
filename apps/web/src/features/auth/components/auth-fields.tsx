import type { Ref } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormAlert, PasswordField, TextField, type TextFieldProps } from '../../../shared/ui/form';
import { useErrorText } from './use-error-text';
import type { FormMessage as FormMessageState } from './use-form-message';

export interface EmailFieldProps extends Omit<
  TextFieldProps,
  'label' | 'type' | 'autoComplete' | 'autoCapitalize' | 'spellCheck' | 'required' | 'error'
> {
  /** The field's react-hook-form message (an error code or a server text); translated here. */
  error?: string;
}

/** The account's e-mail: a required e-mail input, labelled "E-mail". */
export function EmailField({ error, ...inputProps }: EmailFieldProps) {
  const { t } = useTranslation('auth');
  const errorText = useErrorText();
  return (
    <TextField
      label={t('fields.email')}
      type="email"
      autoComplete="email"
      autoCapitalize="off"
      spellCheck={false}
      required
      error={errorText.field(error)}
      {...inputProps}
    />
  );
}

interface FieldError {
  message?: string;
}

export interface NewPasswordFieldsProps {
  /** The two labels (sign-up says "Password", the reset "New password"). */
  labels: { password: string; confirmation: string };
  /** register('password') and register('password_confirmation'). */
  password: UseFormRegisterReturn;
  confirmation: UseFormRegisterReturn;
  /** The form's errors; their messages are translated here. */
  errors: { password?: FieldError; password_confirmation?: FieldError };
}

/** A new password (with the password rules as its hint) and its confirmation. */
export function NewPasswordFields({
  labels,
  password,
  confirmation,
  errors,
}: NewPasswordFieldsProps) {
  const { t } = useTranslation('auth');
  const errorText = useErrorText();
  return (
    <>
      <PasswordField
        label={labels.password}
        autoComplete="new-password"
        required
        hint={t('hints.password')}
        toggleLabel={t('fields.showPassword')}
        error={errorText.field(errors.password?.message)}
        {...password}
      />
      <PasswordField
        label={labels.confirmation}
        autoComplete="new-password"
        required
        toggleLabel={t('fields.showPassword')}
        error={errorText.field(errors.password_confirmation?.message)}
        {...confirmation}
      />
    </>
  );
}

export interface FormMessageProps {
  /** useFormMessage's message and alertRef. */
  message: FormMessageState | null;
  alertRef: Ref<HTMLDivElement>;
}

/** The form-level alert: the text, or the text as its title above a detail. */
export function FormMessage({ message, alertRef }: FormMessageProps) {
  if (!message) return null;
  return (
    <FormAlert ref={alertRef} tone={message.tone} title={message.detail ? message.text : undefined}>
      {message.detail ?? message.text}
    </FormAlert>
  );
}
