import type { LoginRequest, SecondFactorChallenge } from '@tradehost/contracts';
import { lazy, Suspense, useEffect, useEffectEvent, useRef, useState, type FormEvent } from 'react';
import type { FieldErrors } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useAppDispatch } from '../../../app/hooks';
import { hasErrorCode, NETWORK_ERROR_CODE } from '../../../shared/lib/api-error';
import { Button, PasswordField } from '../../../shared/ui/form';
import { EmailField, FormMessage } from './auth-fields';
import type { LoginFormControl } from './login-form-logic';
import { useErrorText } from './use-error-text';
import { useFormMessage } from './use-form-message';
import styles from './auth-card.module.css';

const FIELDS = ['email', 'password'] as const;
type Field = (typeof FIELDS)[number];

/**
 * The form's logic: react-hook-form, the zod resolver and the contract's schema, and the sign-in
 * call with RTK Query behind it. Together they are ~35 KB gzipped that the first view of /login
 * does without (its budget, scripts/bundle-size.ts): they load when the reader first focuses the
 * form or submits it. Until then the inputs are plain ones that the browser guards by their
 * `required` and `type="email"` (no `noValidate` yet). A submit that comes first waits for the
 * logic, then validates and sends what was typed exactly as a later one does: when the browser
 * passed the fields it is the submit event; when it stopped them it is their `invalid` event
 * (its bubble is suppressed, the form's own messages follow). The logic attaches to the same
 * inputs (react-hook-form's createFormControl; the fields register as they render with it and
 * read what the reader typed so far), so nothing re-mounts: the focus and the typing go on.
 */
export const loginFormLogic = { load: () => import('./login-form-logic') };

/** The second step (a code, a passkey, a recovery code): loaded only when a sign-in needs it. */
const SecondFactorStep = lazy(() =>
  import('./second-factor-step').then((module) => ({ default: module.SecondFactorStep })),
);

type Logic = Awaited<ReturnType<typeof loginFormLogic.load>>;
interface LoadedLogic {
  logic: Logic;
  form: LoginFormControl;
}

export function LoginForm() {
  const { t } = useTranslation('auth');
  const errorText = useErrorText();
  const { message, alertRef, show: showMessage, fail, clear: clearMessage } = useFormMessage();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();

  const [loaded, setLoaded] = useState<LoadedLogic | null>(null);
  const [errors, setErrors] = useState<FieldErrors<LoginRequest>>({});
  const [isSubmitting, setSubmitting] = useState(false);
  /** The password was right and a second factor is on: its half-session. */
  const [pending, setPending] = useState<SecondFactorChallenge['second_factor'] | null>(null);
  const loading = useRef<Promise<void> | null>(null);
  /** A submit came before the logic: it runs once the fields have registered. */
  const submitQueued = useRef(false);

  const load = () => {
    loading.current ??= loginFormLogic.load().then(
      (logic) => setLoaded({ logic, form: logic.createLoginForm() }),
      () => {
        loading.current = null; // a later focus or submit tries again
        if (!submitQueued.current) return;
        submitQueued.current = false;
        showMessage('error', errorText.request({ code: NETWORK_ERROR_CODE }));
      },
    );
  };

  const onValid =
    ({ logic, form }: LoadedLogic) =>
    async (data: LoginRequest) => {
      clearMessage();
      try {
        const answer = await logic.logIn(dispatch, data);
        // a second factor is on: its step replaces the form
        if (answer && typeof answer === 'object' && 'second_factor' in answer)
          return setPending((answer as SecondFactorChallenge).second_factor);
        // The shell stores the token and swaps to the signed-in routes.
        await navigate('/vps', { replace: true });
      } catch (error) {
        fail(
          error,
          { fields: FIELDS, setError: form.setError, setFocus: form.setFocus },
          // an unconfirmed address gets a fresh confirmation link from the API
          hasErrorCode(error, 'EMAIL_NOT_VERIFIED') ? t('login.newLinkSent') : undefined,
        );
      }
    };

  // isSubmitting (react-hook-form's, kept here): from the submit until the call is over
  const submit = async (current: LoadedLogic, event?: FormEvent<HTMLFormElement>) => {
    setSubmitting(true);
    try {
      await current.form.handleSubmit(onValid(current))(event);
    } finally {
      setSubmitting(false);
    }
  };

  const runQueuedSubmit = useEffectEvent((current: LoadedLogic) => {
    if (!submitQueued.current) return;
    submitQueued.current = false;
    void submit(current);
  });

  // With the logic in, the fields have registered (this runs after their refs): follow the
  // form's state, and run a submit that was waiting.
  useEffect(() => {
    if (!loaded) return;
    const unsubscribe = loaded.form.subscribe({
      formState: { errors: true },
      callback: (state) => setErrors(state.errors ?? {}),
    });
    runQueuedSubmit(loaded);
    return unsubscribe;
  }, [loaded]);

  const submitWhenLoaded = () => {
    submitQueued.current = true;
    load();
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (loaded) return void submit(loaded, event);
    submitWhenLoaded();
  };

  if (pending)
    return (
      <Suspense fallback={null}>
        <SecondFactorStep
          pending={pending}
          onRestart={(reason) => {
            setPending(null);
            if (reason) showMessage('error', reason);
          }}
        />
      </Suspense>
    );

  const field = (name: Field) => (loaded ? loaded.form.register(name) : { name });
  const beforeLogic = loaded
    ? {}
    : {
        onInvalid: (event: FormEvent<HTMLInputElement>) => {
          event.preventDefault();
          submitWhenLoaded();
        },
      };

  return (
    <form className={styles.form} noValidate={loaded !== null} onFocus={load} onSubmit={onSubmit}>
      <FormMessage message={message} alertRef={alertRef} />
      <EmailField error={errors.email?.message} {...beforeLogic} {...field('email')} />
      <PasswordField
        label={t('fields.password')}
        autoComplete="current-password"
        required
        toggleLabel={t('fields.showPassword')}
        error={errorText.field(errors.password?.message)}
        {...beforeLogic}
        {...field('password')}
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
