export { TextField, type TextFieldProps } from './text-field';
export { PasswordField, type PasswordFieldProps } from './password-field';
export { Checkbox, type CheckboxProps } from './checkbox';
export { Button, type ButtonProps } from './button';
export { buttonClassName, type ButtonVariant } from './button-styles';
export { FormAlert, type FormAlertProps, type FormAlertTone } from './form-alert';
export { OtpInput, type OtpInputProps } from './otp-input';
export { SelectField, type SelectFieldProps } from './select-field';
export { TextAreaField, type TextAreaFieldProps } from './textarea-field';
