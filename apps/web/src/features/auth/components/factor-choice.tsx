import type { StepUpMethod } from '@tradehost/contracts';
import { useEffect, useRef, type ReactNode } from 'react';
import { Button, LinkButton, OtpInput, TextField } from '../../../shared/ui/form';

/** A proof typed in: the authenticator app's 6-digit code, or a one-time recovery code. */
export type TypedFactor = 'code' | 'recovery';

/** The choice's texts, each form's own (the sign-in's auth:secondFactor, common:stepUp). */
export type FactorChoiceText =
  'code' | 'recoveryCode' | 'usePasskey' | 'passkeyWaiting' | 'useRecoveryCode' | 'useCode';

export interface FactorChoiceProps {
  /** The ways the account can prove itself (its second factors; a step-up may add the password). */
  methods: readonly StepUpMethod[];
  /** The proof typed in; null when the field is another's (the password) or none is typed. */
  mode: TypedFactor | null;
  value: string;
  error?: string;
  onChange(value: string): void;
  /** The other typed proof instead: "Use a recovery code", "Use the code from the app". */
  onSwitch(next: TypedFactor): void;
  /** While the passkey's challenge and the browser's prompt run. */
  usingPasskey: boolean;
  onUsePasskey(): void;
  text(key: FactorChoiceText): string;
  /** What stands between the field and the passkey's button (the sign-in's Continue). */
  children?: ReactNode;
}

/**
 * The choice of a second factor, as the sign-in's second step and the step-up dialog ask for it:
 * the app's code (a one-time-code field) or a recovery code, the passkey's button, and the links
 * between the typed ones. The form around it checks and sends the proof.
 */
export function FactorChoice({
  methods,
  mode,
  value,
  error,
  onChange,
  onSwitch,
  usingPasskey,
  onUsePasskey,
  text,
  children,
}: FactorChoiceProps) {
  const fieldRef = useRef<HTMLInputElement>(null);
  // the link that switched is gone with the field it stood for: the new field takes the focus
  const switched = useRef(false);
  useEffect(() => {
    if (!switched.current) return;
    switched.current = false;
    fieldRef.current?.focus();
  }, [mode]);
  const switchTo = (next: TypedFactor) => {
    switched.current = true;
    onSwitch(next);
  };
  const field = {
    ref: fieldRef,
    required: true,
    value,
    error,
    onChange: (event: { target: { value: string } }) => onChange(event.target.value),
  };
  return (
    <>
      {mode === 'code' ? (
        <OtpInput key="code" label={text('code')} name="code" {...field} />
      ) : mode === 'recovery' ? (
        <TextField
          key="recovery"
          label={text('recoveryCode')}
          name="recovery_code"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          {...field}
        />
      ) : null}
      {children}
      {methods.includes('passkey') ? (
        <Button
          type="button"
          variant="secondary"
          fullWidth
          loading={usingPasskey}
          loadingText={text('passkeyWaiting')}
          onClick={onUsePasskey}
        >
          {text('usePasskey')}
        </Button>
      ) : null}
      {mode === 'code' && methods.includes('recovery_code') ? (
        <LinkButton align="center" onClick={() => switchTo('recovery')}>
          {text('useRecoveryCode')}
        </LinkButton>
      ) : null}
      {mode === 'recovery' && methods.includes('totp') ? (
        <LinkButton align="center" onClick={() => switchTo('code')}>
          {text('useCode')}
        </LinkButton>
      ) : null}
    </>
  );
}
