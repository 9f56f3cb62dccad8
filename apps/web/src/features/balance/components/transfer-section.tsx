import { zodResolver } from '@hookform/resolvers/zod';
import {
  emailSchema,
  formatCents,
  type TransferPreviewResponse,
  type TransferRequest,
  type TransferResponse,
} from '@tradehost/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { fieldErrorText, isApiRequestError } from '../../../shared/lib/api-error';
import { useFormIntent } from '../../../shared/lib/form-intent';
import { formatMoney } from '../../../shared/lib/format-money';
import { Button, FormAlert, TextField } from '../../../shared/ui/form';
import { useBalances } from '../../auth/api/use-current-user';
import { usePreviewTransferMutation, useTransferMutation } from '../api/balance-api';
import { amountFieldSchema } from '../../../shared/lib/amount';
import { useFormFailure } from '../../../shared/lib/use-form-failure';
import { AmountField } from '../../../shared/ui/form/amount-field';
import styles from './balance.module.css';

const schema = z.object({ amount: amountFieldSchema(), email: emailSchema });
type TransferValues = z.input<typeof schema>;
type TransferData = z.output<typeof schema>;
const FIELDS = ['amount', 'email'] as const;

type Step =
  | { name: 'form'; failure?: unknown }
  | { name: 'confirm'; request: TransferRequest; preview: TransferPreviewResponse }
  | { name: 'done'; result: TransferResponse };

/**
 * A transfer to another account in three steps: the amount and the recipient's e-mail; the
 * confirmation with the recipient's name (the preview call, nothing moves); done. A refusal of
 * the transfer itself that names a field takes the reader back to the form with it marked.
 */
export function TransferSection() {
  const { t } = useTranslation('balance');
  const headingId = useId();
  const [step, setStep] = useState<Step>({ name: 'form' });
  const [draft, setDraft] = useState<TransferValues>({ amount: '', email: '' });
  const intent = useFormIntent();

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h2 id={headingId} className="visually-hidden">
        {t('transfer.title')}
      </h2>
      {step.name === 'form' ? (
        <TransferForm
          defaults={draft}
          serverFailure={step.failure}
          onPreviewed={(values, request, preview) => {
            setDraft(values);
            setStep({ name: 'confirm', request, preview });
          }}
        />
      ) : step.name === 'confirm' ? (
        <TransferConfirm
          request={step.request}
          preview={step.preview}
          intent={intent}
          onBack={(failure) => setStep({ name: 'form', failure })}
          onDone={(result) => setStep({ name: 'done', result })}
        />
      ) : (
        <TransferDone
          result={step.result}
          onAnother={() => {
            setDraft({ amount: '', email: '' });
            setStep({ name: 'form' });
          }}
        />
      )}
    </section>
  );
}

interface TransferFormProps {
  defaults: TransferValues;
  /** A refusal of the confirmed transfer, to show on the fields. */
  serverFailure: unknown;
  onPreviewed: (
    values: TransferValues,
    request: TransferRequest,
    preview: TransferPreviewResponse,
  ) => void;
}

function TransferForm({ defaults, serverFailure, onPreviewed }: TransferFormProps) {
  const { t, i18n } = useTranslation('balance');
  const { balance } = useBalances();
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<TransferValues, unknown, TransferData>({
    resolver: zodResolver(schema),
    defaultValues: defaults,
  });
  const [preview] = usePreviewTransferMutation();
  const { failure, alertRef, fail, clear } = useFormFailure();

  // Back from the confirmation with the transfer refused: its message on the fields
  useEffect(() => {
    if (serverFailure) fail(serverFailure, { fields: FIELDS, setError, setFocus });
  }, [serverFailure, fail, setError, setFocus]);

  const onSubmit = async (data: TransferData) => {
    clear();
    const request = { email: data.email, amount: formatCents(data.amount) };
    try {
      const answer = await preview(request).unwrap();
      onPreviewed(getValues(), request, answer);
    } catch (error) {
      fail(error, { fields: FIELDS, setError, setFocus });
    }
  };

  return (
    <form className={styles.form} noValidate onSubmit={handleSubmit(onSubmit)}>
      {failure ? (
        <FormAlert ref={alertRef} key={failure.serial} tone="error">
          {failure.text}
        </FormAlert>
      ) : null}
      <p className={styles.note}>{t('transfer.lead')}</p>
      <AmountField
        label={t('amount.label')}
        hint={
          balance !== undefined
            ? t('amount.available', { amount: formatMoney(balance, i18n.language) })
            : undefined
        }
        error={errors.amount?.message}
        {...register('amount')}
      />
      <TextField
        label={t('transfer.email')}
        hint={t('transfer.emailHint')}
        type="email"
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        required
        error={fieldErrorText(t, errors.email?.message)}
        {...register('email')}
      />
      <div className={styles.actions}>
        <Button type="submit" loading={isSubmitting} loadingText={t('transfer.checking')}>
          {t('transfer.continue')}
        </Button>
      </div>
    </form>
  );
}

/** Whether a refusal names a field of the form (then the form shows it). */
function namesAField(error: unknown): boolean {
  return isApiRequestError(error) && FIELDS.some((field) => error.errors?.[field]?.length);
}

interface TransferConfirmProps {
  request: TransferRequest;
  preview: TransferPreviewResponse;
  intent: ReturnType<typeof useFormIntent>;
  onBack: (failure?: unknown) => void;
  onDone: (result: TransferResponse) => void;
}

function TransferConfirm({ request, preview, intent, onBack, onDone }: TransferConfirmProps) {
  const { t, i18n } = useTranslation('balance');
  const [transfer, { isLoading }] = useTransferMutation();
  const { failure, alertRef, fail, clear } = useFormFailure();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);

  const amount = formatMoney(preview.amount, i18n.language);
  const confirm = async () => {
    const idempotencyKey = intent.start(request);
    if (!idempotencyKey) return; // a second click before the button was disabled
    clear();
    try {
      const result = await transfer({ body: request, idempotencyKey }).unwrap();
      intent.succeeded();
      onDone(result);
    } catch (error) {
      intent.failed(error);
      if (namesAField(error)) onBack(error);
      else fail(error);
    }
  };

  return (
    <div className={styles.confirm}>
      <h3 ref={headingRef} tabIndex={-1} className={styles.resultTitle}>
        {t('transfer.confirmTitle')}
      </h3>
      {failure ? (
        <FormAlert ref={alertRef} key={failure.serial} tone="error">
          {failure.text}
        </FormAlert>
      ) : null}
      <p className={styles.confirmText}>
        {t('transfer.confirmText', {
          amount,
          name: preview.recipient.name,
          email: preview.recipient.email,
        })}
      </p>
      <div className={styles.actions}>
        <Button
          loading={isLoading}
          loadingText={t('transfer.sending')}
          onClick={() => void confirm()}
        >
          {t('transfer.confirm', { amount })}
        </Button>
        <Button variant="secondary" disabled={isLoading} onClick={() => onBack()}>
          {t('transfer.back')}
        </Button>
      </div>
    </div>
  );
}

function TransferDone({ result, onAnother }: { result: TransferResponse; onAnother: () => void }) {
  const { t, i18n } = useTranslation('balance');
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const money = (dollars: number) => formatMoney(dollars, i18n.language);
  return (
    <div className={styles.result}>
      <h3 ref={headingRef} tabIndex={-1} className={styles.resultTitle}>
        <span className={styles.resultIcon} aria-hidden="true" />
        {t('transfer.doneTitle')}
      </h3>
      <p>
        {t('transfer.doneText', {
          amount: money(result.transfer.amount),
          name: result.transfer.counterparty.name,
          email: result.transfer.counterparty.email,
        })}
      </p>
      <p className={styles.muted}>{t('transfer.balanceLeft', { amount: money(result.balance) })}</p>
      <div className={styles.actions}>
        <Button variant="secondary" onClick={onAnother}>
          {t('transfer.another')}
        </Button>
      </div>
    </div>
  );
}
