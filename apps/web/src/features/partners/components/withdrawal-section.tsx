import { zodResolver } from '@hookform/resolvers/zod';
import {
  formatCents,
  WITHDRAWAL_METHODS,
  type CreateWithdrawalRequest,
  type PartnerPayments,
  type Withdrawal,
  type WithdrawalMethod,
} from '@tradehost/contracts';
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import * as z from 'zod/mini';
import { amountFieldSchema } from '../../../shared/lib/amount';
import { fieldErrorText } from '../../../shared/lib/api-error';
import { useFormIntent } from '../../../shared/lib/form-intent';
import { useFormFailure } from '../../../shared/lib/use-form-failure';
import { Dialog, DialogActions } from '../../../shared/ui/dialog/dialog';
import { Button, FormAlert, TextField } from '../../../shared/ui/form';
import { AmountField } from '../../../shared/ui/form/amount-field';
import cards from '../../../shared/ui/radio-cards/radio-cards.module.css';
import { ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { StatusBadge, type StatusTone } from '../../../shared/ui/status-badge/status-badge';
import {
  useCreateWithdrawalMutation,
  useGetPartnerInfoQuery,
  useGetPartnerPaymentsQuery,
} from '../api/partner-api';
import { usePartnerFormat } from '../lib/use-partner-format';
import styles from './partners.module.css';

const FIELDS = ['method', 'wallet', 'amount'] as const;
const REQUEST_TITLE_ID = 'partner-withdrawal-request';
const TONES: Record<Withdrawal['status'], StatusTone> = {
  received: 'info',
  under_review: 'pending',
  paid_out: 'success',
  cancelled: 'neutral',
};

/**
 * Withdrawal of the partner balance: the balances, then either the request being processed
 * (one at a time, with the day it will be processed by) or the form: a method with its minimum,
 * the wallet in that method's format and the amount, confirmed before the money is reserved.
 */
export function WithdrawalSection() {
  const { t } = usePartnerFormat();
  const payments = useGetPartnerPaymentsQuery();
  const info = useGetPartnerInfoQuery();
  const [justCreated, setJustCreated] = useState(false);

  if (payments.isError)
    return (
      <ErrorState
        title={t('loadFailed')}
        retryLabel={t('retry')}
        onRetry={() => void payments.refetch()}
      />
    );
  if (!payments.data) return <LoadingState>{t('loading')}</LoadingState>;
  const { open, available } = payments.data;
  return (
    <section className={styles.section} aria-labelledby="partner-withdrawal-title">
      <h2 id="partner-withdrawal-title" className={styles.sectionTitle}>
        {t('withdrawal.title')}
      </h2>
      <Balances available={available} pending={info.data?.balances.pending} />
      {open ? (
        <OpenRequest withdrawal={open} justCreated={justCreated} />
      ) : (
        <WithdrawalForm payments={payments.data} onCreated={() => setJustCreated(true)} />
      )}
      <p className={styles.muted}>
        {t('withdrawal.moveLead')}{' '}
        <Link to="/balance-operations?tab=topup&method=balance">{t('withdrawal.move')}</Link>
        {' · '}
        <Link to="/balance-operations?tab=history&history=withdrawals">
          {t('withdrawal.history')}
        </Link>
      </p>
    </section>
  );
}

function Balances({ available, pending }: { available: number; pending: number | undefined }) {
  const f = usePartnerFormat();
  const { t } = f;
  return (
    <dl className={styles.tiles}>
      <div className={styles.tile}>
        <dt>{t('withdrawal.available')}</dt>
        <dd data-testid="partner-available">{f.money(available)}</dd>
      </div>
      {pending === undefined ? null : (
        <div className={styles.tile}>
          <dt>{t('withdrawal.pending')}</dt>
          <dd>{f.money(pending)}</dd>
        </div>
      )}
    </dl>
  );
}

function OpenRequest({
  withdrawal,
  justCreated,
}: {
  withdrawal: Withdrawal;
  justCreated: boolean;
}) {
  const f = usePartnerFormat();
  const { t } = f;
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (justCreated) headingRef.current?.focus();
  }, [justCreated]);
  const method = WITHDRAWAL_METHODS[withdrawal.method as keyof typeof WITHDRAWAL_METHODS];
  return (
    <div className={styles.openRequest}>
      <h3 id={REQUEST_TITLE_ID} ref={headingRef} tabIndex={-1} className={styles.groupTitle}>
        {justCreated ? t('withdrawal.createdTitle') : t('withdrawal.openTitle')}
      </h3>
      <dl className={styles.requestFields}>
        <div>
          <dt>{t('withdrawal.status')}</dt>
          <dd>
            <StatusBadge tone={TONES[withdrawal.status]} status={withdrawal.status}>
              {t(`withdrawal.statuses.${withdrawal.status}`)}
            </StatusBadge>
          </dd>
        </div>
        <div>
          <dt>{t('withdrawal.amount')}</dt>
          <dd>{f.money(withdrawal.amount)}</dd>
        </div>
        <div>
          <dt>{t('withdrawal.method')}</dt>
          <dd>{method?.name ?? withdrawal.method}</dd>
        </div>
        <div>
          <dt>{t('withdrawal.wallet')}</dt>
          <dd className={styles.wallet}>{withdrawal.wallet}</dd>
        </div>
        <div>
          <dt>{t('withdrawal.requested')}</dt>
          <dd>{f.date(withdrawal.created_at)}</dd>
        </div>
        <div>
          <dt>{t('withdrawal.due')}</dt>
          <dd data-testid="withdrawal-due">{f.date(withdrawal.due_at)}</dd>
        </div>
      </dl>
      <p className={styles.muted}>{t('withdrawal.oneAtATime')}</p>
    </div>
  );
}

/** The form's rules for the chosen method: its wallet format, its minimum, the balance. */
function formSchema(method: WithdrawalMethod | undefined, available: number) {
  const pattern = method ? WITHDRAWAL_METHODS[method.id].wallet : null;
  return z.object({
    method: z.string().check(z.minLength(1, { error: 'WITHDRAWAL_METHOD_INVALID' })),
    wallet: z.string().check(
      z.trim(),
      z.minLength(1, { error: 'WALLET_REQUIRED', abort: true }),
      z.refine((wallet) => !pattern || pattern.test(wallet), { error: 'WALLET_INVALID' }),
    ),
    amount: amountFieldSchema({ min: method?.minimum, max: available }),
  });
}
type FormValues = { method: string; wallet: string; amount: string };

function WithdrawalForm({
  payments,
  onCreated,
}: {
  payments: PartnerPayments;
  onCreated: () => void;
}) {
  const f = usePartnerFormat();
  const { t } = f;
  const [methodId, setMethodId] = useState(payments.data[0]?.id ?? '');
  const method = payments.data.find((m) => m.id === methodId);
  const schema = useMemo(
    () => formSchema(method, payments.available),
    [method, payments.available],
  );
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors },
  } = useForm<FormValues, unknown, z.output<ReturnType<typeof formSchema>>>({
    resolver: zodResolver(schema),
    defaultValues: { method: methodId, wallet: '', amount: '' },
  });
  const [confirming, setConfirming] = useState<CreateWithdrawalRequest | null>(null);
  const { failure, alertRef, fail, clear } = useFormFailure();
  const lowBalance = method !== undefined && payments.available < method.minimum;
  const methodRegistration = register('method');
  const formRef = useRef<HTMLFormElement>(null);
  const refusedField = useRef<HTMLElement | null>(null);
  /*
   * Where the focus goes when the confirmation closes (read then, not now): the field a refusal
   * named, else the refusal's alert, else the request just made (the form is gone by then).
   */
  const focusAfterDialog = useMemo(
    () => ({
      get current(): HTMLElement | null {
        return (
          refusedField.current ??
          alertRef.current ??
          document.getElementById(REQUEST_TITLE_ID) ??
          null
        );
      },
    }),
    [alertRef],
  );
  const refuse = (error: unknown) => {
    refusedField.current = null;
    setConfirming(null);
    fail(error, {
      fields: FIELDS,
      setError,
      setFocus: (name) => {
        const field = formRef.current?.elements.namedItem(name);
        refusedField.current = (field instanceof RadioNodeList ? field[0] : field) as HTMLElement;
        setFocus(name);
      },
    });
  };

  return (
    <form
      ref={formRef}
      className={styles.form}
      noValidate
      onSubmit={handleSubmit((values) => {
        clear();
        setConfirming({
          method: values.method,
          wallet: values.wallet,
          amount: formatCents(values.amount),
        });
      })}
    >
      {failure ? (
        <FormAlert ref={alertRef} key={failure.serial} tone="error">
          {failure.text}
        </FormAlert>
      ) : null}
      <fieldset className={cards.fieldset}>
        <legend className={cards.legend}>{t('withdrawal.methods')}</legend>
        <div className={styles.methodGrid}>
          {payments.data.map((m) => (
            <label key={m.id} className={`${cards.card} ${styles.methodCard}`}>
              <input
                type="radio"
                value={m.id}
                className={cards.radio}
                {...methodRegistration}
                onChange={(event) => {
                  void methodRegistration.onChange(event);
                  setMethodId(m.id);
                }}
              />
              <span className={styles.methodName}>{m.name}</span>
              <span className={styles.muted}>
                {t('withdrawal.minimum', { amount: f.money(m.minimum) })}
              </span>
              <span className={cards.check} aria-hidden="true" />
            </label>
          ))}
        </div>
      </fieldset>
      {lowBalance ? (
        <FormAlert tone="info">
          {t('withdrawal.belowMinimum', {
            minimum: f.money(method.minimum),
            available: f.money(payments.available),
          })}
        </FormAlert>
      ) : null}
      <TextField
        label={t('withdrawal.wallet')}
        hint={method ? t('withdrawal.walletHint', { example: method.wallet_example }) : undefined}
        autoComplete="off"
        spellCheck={false}
        error={fieldErrorText(t, errors.wallet?.message)}
        {...register('wallet')}
      />
      <AmountField
        label={t('withdrawal.amount')}
        limits={{ min: method?.minimum, max: payments.available }}
        hint={t('withdrawal.amountHint', {
          minimum: f.money(method?.minimum ?? 0),
          available: f.money(payments.available),
        })}
        error={errors.amount?.message}
        {...register('amount')}
      />
      <div>
        <Button type="submit">{t('withdrawal.submit')}</Button>
      </div>
      {confirming ? (
        <ConfirmWithdrawal
          request={confirming}
          methodName={method?.name ?? confirming.method}
          onClose={() => setConfirming(null)}
          onCreated={onCreated}
          onRefused={refuse}
          returnFocusTo={focusAfterDialog}
        />
      ) : null}
    </form>
  );
}

function ConfirmWithdrawal({
  request,
  methodName,
  onClose,
  onCreated,
  onRefused,
  returnFocusTo,
}: {
  request: CreateWithdrawalRequest;
  methodName: string;
  onClose: () => void;
  onCreated: () => void;
  onRefused: (error: unknown) => void;
  returnFocusTo: RefObject<HTMLElement | null>;
}) {
  const f = usePartnerFormat();
  const { t } = f;
  const intent = useFormIntent();
  const [create, creating] = useCreateWithdrawalMutation();
  const amount = f.money(Number(request.amount));

  const confirm = async () => {
    const idempotencyKey = intent.start(request);
    if (!idempotencyKey) return;
    try {
      await create({ body: request, idempotencyKey }).unwrap();
      intent.succeeded();
      onCreated();
    } catch (error) {
      intent.failed(error);
      onRefused(error);
    }
  };

  return (
    <Dialog
      open
      onOpenChange={onClose}
      closeLabel={t('close')}
      title={t('withdrawal.confirmTitle')}
      description={t('withdrawal.confirmLead', {
        amount,
        method: methodName,
        wallet: request.wallet,
      })}
      busy={creating.isLoading}
      returnFocusTo={returnFocusTo}
    >
      <DialogActions>
        <Button variant="secondary" onClick={onClose}>
          {t('cancel')}
        </Button>
        <Button loading={creating.isLoading} onClick={() => void confirm()}>
          {t('withdrawal.confirm', { amount })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
