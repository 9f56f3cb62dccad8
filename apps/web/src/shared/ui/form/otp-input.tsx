import type { ChangeEvent } from 'react';
import { TextField, type TextFieldProps } from './text-field';
import styles from './field.module.css';

export interface OtpInputProps extends Omit<
  TextFieldProps,
  'type' | 'inputMode' | 'autoComplete' | 'pattern'
> {
  /** How many digits the code has (6 by default). */
  length?: number;
}

/**
 * A one-time code as one ordinary text input: numeric keyboard on phones, the
 * code offered by the OS from SMS or mail (autocomplete="one-time-code"), and
 * pasted codes with spaces or dashes ("123 456") cleaned up to digits.
 */
export function OtpInput({ length = 6, onChange, className, ...props }: OtpInputProps) {
  function handleChange(event: ChangeEvent<HTMLInputElement>) {
    const digits = event.target.value.replace(/\D/g, '').slice(0, length);
    if (digits !== event.target.value) event.target.value = digits;
    onChange?.(event);
  }
  return (
    <TextField
      {...props}
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern={`[0-9]{${length}}`}
      maxLength={length + 8 /* room for a pasted "123 456" or "123-456" before clean-up */}
      className={[styles.otp, className].filter(Boolean).join(' ')}
      onChange={handleChange}
    />
  );
}
