import { zodResolver } from '@hookform/resolvers/zod';
import { formatCents, type PaymentMethodInfo } from '@tradehost/contracts';
import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { useFormIntent } from '../../../shared/lib/form-intent';
import { formatMoney } from '../../../shared/lib/format-money';
import { Button, FormAlert } from '../../../shared/ui/form';
import { notify } from '../../../shared/ui/toast/notify';
import { useDepositMutation } from '../api/balance-api';
import { amountFieldSchema } from '../../../shared/lib/amount';
import { submitToGateway } from '../lib/gateway';
import { useFormFailure } from '../../../shared/lib/use-form-failure';
import { AmountField } from '../../../shared/ui/form/amount-field';
import styles from './balance.module.css';

export interface DepositFormProps {
  /** Card and e-wallet pay on the gateway's page; balance moves the partner balance in. */
  method: 'card' | 'ewallet' | 'balance';
  info: PaymentMethodInfo;
  /** Dollars on the partner balance (the balance method's hint). */
  partnerBalance: number | undefined;
}

const FIELDS = ['amount'] as const;

/**
 * A top-up by card or e-wallet (the API creates the payment, then the browser goes to the
 * gateway with a real form submission) or from the partner balance (the money moves at once:
 * a toast, and the header's balance refreshes through the 'User' tag).
 */
export function DepositForm({ method, info, partnerBalance }: DepositFormProps) {
  const { t, i18n } = useTranslation('balance');
  const money = (dollars: number) => formatMoney(dollars, i18n.language);
  const limits = useMemo(() => ({ min: info.min, max: info.max }), [info.min, info.max]);
  const schema = useMemo(() => z.object({ amount: amountFieldSchema(limits) }), [limits]);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { amount: '' },
  });
  const [deposit] = useDepositMutation();
  const intent = useFormIntent();
  const { failure, alertRef, fail, clear } = useFormFailure();
  const [redirecting, setRedirecting] = useState(false);

  // Back from the gateway through the browser's cache: the page is as it was left, usable again
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setRedirecting(false);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  const onSubmit = async ({ amount }: z.output<typeof schema>) => {
    const body = { method, amount: formatCents(amount) };
    const idempotencyKey = intent.start(body);
    if (!idempotencyKey) return; // a second click before the button was disabled
    clear();
    try {
      const result = await deposit({ body, idempotencyKey }).unwrap();
      intent.succeeded();
      if (result.checkout) {
        setRedirecting(true);
        submitToGateway(result.checkout);
        return;
      }
      notify('success', t('partnerMove.done', { amount: money(result.payment.amount) }));
      reset();
    } catch (error) {
      intent.failed(error);
      fail(error, { fields: FIELDS, setError, setFocus });
    }
  };

  const isPartner = method === 'balance';
  return (
    <form className={styles.form} noValidate onSubmit={handleSubmit(onSubmit)}>
      {failure ? (
        <FormAlert ref={alertRef} key={failure.serial} tone="error">
          {failure.text}
        </FormAlert>
      ) : null}
      <p className={styles.note}>{t(isPartner ? 'partnerMove.note' : 'gateway.note')}</p>
      <AmountField
        label={t('amount.label')}
        limits={limits}
        hint={
          isPartner && partnerBalance !== undefined
            ? t('amount.limitsAvailable', {
                min: money(info.min),
                max: money(info.max),
                available: money(partnerBalance),
              })
            : undefined
        }
        error={errors.amount?.message}
        {...register('amount')}
      />
      <div className={styles.actions}>
        <Button
          type="submit"
          loading={isSubmitting || redirecting}
          loadingText={
            redirecting
              ? t('gateway.redirecting')
              : t(isPartner ? 'partnerMove.submitting' : 'gateway.submitting')
          }
        >
          {t(isPartner ? 'partnerMove.submit' : 'gateway.submit')}
        </Button>
      </div>
      <p className="visually-hidden" role="status">
        {redirecting ? t('gateway.redirecting') : ''}
      </p>
    </form>
  );
}
