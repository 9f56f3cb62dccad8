import { zodResolver } from '@hookform/resolvers/zod';
import {
  cryptoPaymentRequestSchema,
  formatCents,
  type Payment,
  type PaymentMethodInfo,
} from '@tradehost/contracts';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import * as z from 'zod/mini';
import { fieldErrorText } from '../../../shared/lib/api-error';
import { useFormIntent } from '../../../shared/lib/form-intent';
import { formatMoney } from '../../../shared/lib/format-money';
import { CopyButton } from '../../../shared/ui/copy-button/copy-button';
import {
  Button,
  buttonClassName,
  FormAlert,
  SelectField,
  TextField,
} from '../../../shared/ui/form';
import { ErrorState, LoadingState } from '../../../shared/ui/states/states';
import { useGetCryptoWalletQuery, useSubmitCryptoPaymentMutation } from '../api/balance-api';
import { amountFieldSchema } from '../../../shared/lib/amount';
import { useFormFailure } from '../../../shared/lib/use-form-failure';
import { AmountField } from '../../../shared/ui/form/amount-field';
import { OperationStatusBadge } from './status-badge';
import styles from './balance.module.css';

const FIELDS = ['network', 'amount', 'wallet', 'txid'] as const;

/**
 * A crypto top-up: the reader picks a network, sends the money to the provider's address shown
 * with its QR code, then reports the payment (their wallet and the TXID) for an operator's review.
 */
export function CryptoForm({ info }: { info: PaymentMethodInfo }) {
  const [sent, setSent] = useState<Payment | null>(null);
  if (sent) return <CryptoSent payment={sent} onAnother={() => setSent(null)} />;
  return <CryptoReport info={info} onSent={setSent} />;
}

function CryptoReport({ info, onSent }: { info: PaymentMethodInfo; onSent: (p: Payment) => void }) {
  const { t } = useTranslation('balance');
  const id = useId();
  const networks = useMemo(() => info.networks ?? [], [info.networks]);
  const limits = useMemo(() => ({ min: info.min, max: info.max }), [info.min, info.max]);
  const schema = useMemo(
    () =>
      z.object({
        network: z.string().check(z.minLength(1, { error: 'NETWORK_UNKNOWN' })),
        amount: amountFieldSchema(limits),
        wallet: cryptoPaymentRequestSchema.shape.wallet,
        txid: cryptoPaymentRequestSchema.shape.txid,
      }),
    [limits],
  );
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    control,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { network: networks[0]?.id ?? '', amount: '', wallet: '', txid: '' },
  });
  const network = useWatch({ control, name: 'network' });
  const networkName = networks.find((n) => n.id === network)?.name ?? network;
  const [submit] = useSubmitCryptoPaymentMutation();
  const intent = useFormIntent();
  const { failure, alertRef, fail, clear } = useFormFailure();

  const onSubmit = async (data: z.output<typeof schema>) => {
    const body = { ...data, amount: formatCents(data.amount) };
    const idempotencyKey = intent.start(body);
    if (!idempotencyKey) return;
    clear();
    try {
      const result = await submit({ body, idempotencyKey }).unwrap();
      intent.succeeded();
      onSent(result.payment);
    } catch (error) {
      intent.failed(error);
      fail(error, { fields: FIELDS, setError, setFocus });
    }
  };

  const networkError = fieldErrorText(t, errors.network?.message);
  return (
    <form className={styles.form} noValidate onSubmit={handleSubmit(onSubmit)}>
      {failure ? (
        <FormAlert ref={alertRef} key={failure.serial} tone="error">
          {failure.text}
        </FormAlert>
      ) : null}
      <div className={styles.cryptoGrid}>
        <div className={styles.step}>
          <h3 className={styles.stepTitle}>
            <span className={styles.stepNumber} aria-hidden="true">
              1
            </span>
            {t('crypto.stepSend')}
          </h3>
          <SelectField
            id={`${id}-network`}
            label={t('crypto.network')}
            className={styles.network}
            error={networkError}
            {...register('network')}
          >
            {networks.map((option) => (
              <option key={option.id} value={option.id}>
                {option.name}
              </option>
            ))}
          </SelectField>
          {network ? <WalletAddress network={network} networkName={networkName} /> : null}
        </div>
        <div className={styles.step}>
          <h3 className={styles.stepTitle}>
            <span className={styles.stepNumber} aria-hidden="true">
              2
            </span>
            {t('crypto.stepReport')}
          </h3>
          <AmountField
            label={t('amount.label')}
            limits={limits}
            error={errors.amount?.message}
            {...register('amount')}
          />
          <TextField
            label={t('crypto.wallet')}
            hint={t('crypto.walletHint')}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            required
            className={styles.mono}
            error={fieldErrorText(t, errors.wallet?.message)}
            {...register('wallet')}
          />
          <TextField
            label={t('crypto.txid')}
            hint={t('crypto.txidHint')}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            required
            className={styles.mono}
            error={fieldErrorText(t, errors.txid?.message)}
            {...register('txid')}
          />
          <div className={styles.actions}>
            <Button type="submit" loading={isSubmitting} loadingText={t('crypto.submitting')}>
              {t('crypto.submit')}
            </Button>
          </div>
        </div>
      </div>
    </form>
  );
}

/** The provider's address of a network: the text to copy and its QR code. */
function WalletAddress({ network, networkName }: { network: string; networkName: string }) {
  const { t } = useTranslation('balance');
  const { data, isFetching, isError, refetch } = useGetCryptoWalletQuery(network);
  const current = data?.network === network ? data : undefined;
  if (!current && isFetching) return <LoadingState>{t('crypto.addressLoading')}</LoadingState>;
  if (!current || isError) {
    return (
      <ErrorState
        title={t('crypto.addressFailed')}
        retryLabel={t('retry')}
        onRetry={() => void refetch()}
      />
    );
  }
  return (
    <div className={styles.address}>
      <p className={styles.label}>{t('crypto.sendTo', { network: networkName })}</p>
      <div className={styles.qrBox}>
        <img
          className={styles.qr}
          src={current.wallet_qr_url}
          alt={t('crypto.qr', { network: networkName })}
          width="168"
          height="168"
        />
      </div>
      <code className={styles.addressText} data-testid="crypto-address">
        {current.address}
      </code>
      <CopyButton
        text={current.address}
        label={t('crypto.copy')}
        messages={{ copied: t('crypto.copied'), failed: t('crypto.copyFailed') }}
      />
    </div>
  );
}

function CryptoSent({ payment, onAnother }: { payment: Payment; onAnother: () => void }) {
  const { t, i18n } = useTranslation('balance');
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <div className={styles.result}>
      <h3 ref={headingRef} tabIndex={-1} className={styles.resultTitle}>
        {t('crypto.sent.title')}
      </h3>
      <OperationStatusBadge status={payment.status} />
      <p>{t('crypto.sent.text', { amount: formatMoney(payment.amount, i18n.language) })}</p>
      {payment.txid ? (
        <p className={styles.muted}>
          {t('crypto.txid')}: <code className={styles.mono}>{payment.txid}</code>
        </p>
      ) : null}
      <div className={styles.actions}>
        <Link
          to={{ search: '?tab=history&history=payments' }}
          className={buttonClassName({ variant: 'secondary' })}
        >
          {t('crypto.sent.history')}
        </Link>
        <Button variant="ghost" onClick={onAnother}>
          {t('crypto.sent.another')}
        </Button>
      </div>
    </div>
  );
}
