import { zodResolver } from '@hookform/resolvers/zod';
import {
  cryptoPaymentRequestSchema,
  formatCents,
  type CryptoTopUp,
  type Payment,
  type PaymentMethodInfo,
} from '@tradehost/contracts';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import * as z from 'zod/mini';
import { fieldErrorText, hasErrorCode } from '../../../shared/lib/api-error';
import { formatDateTime } from '../../../shared/lib/format-date';
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
import {
  useGetCryptoTopUpsQuery,
  useRequestCryptoTopUpMutation,
  useSubmitCryptoPaymentMutation,
} from '../api/balance-api';
import { amountFieldSchema } from '../../../shared/lib/amount';
import { useFormFailure } from '../../../shared/lib/use-form-failure';
import { AmountField } from '../../../shared/ui/form/amount-field';
import { OperationStatusBadge } from './status-badge';
import styles from './balance.module.css';

const REQUEST_FIELDS = ['network', 'amount'] as const;
const REPORT_FIELDS = ['wallet', 'txid'] as const;

type Stage =
  { kind: 'request' } | { kind: 'pay'; topUp: CryptoTopUp } | { kind: 'sent'; payment: Payment };

/**
 * A crypto top-up in three steps: the reader asks for an amount on a network and gets the exact
 * amount to send (the dollars and a few cents of its own, so the payment on the chain is known to
 * be theirs) with the provider's address and a QR code; sends it; then reports the payment (their
 * wallet and the TXID), checked on the chain or by an operator. Open requests can be taken up
 * again until they expire.
 */
/** A wallet address or a TXID: typed or pasted exactly, in a monospace face, never corrected. */
const CHAIN_TEXT = {
  autoComplete: 'off',
  autoCapitalize: 'off',
  spellCheck: false,
  required: true,
  className: styles.mono,
} as const;

export function CryptoForm({ info }: { info: PaymentMethodInfo }) {
  const [stage, setStage] = useState<Stage>({ kind: 'request' });
  const restart = () => setStage({ kind: 'request' });
  if (stage.kind === 'sent') return <CryptoSent payment={stage.payment} onAnother={restart} />;
  if (stage.kind === 'pay')
    return (
      <CryptoPay
        key={stage.topUp.payment.id}
        topUp={stage.topUp}
        networks={info.networks ?? []}
        onSent={(payment) => setStage({ kind: 'sent', payment })}
        onAnother={restart}
      />
    );
  return <CryptoRequest info={info} onOpen={(topUp) => setStage({ kind: 'pay', topUp })} />;
}

const networkNameOf = (networks: PaymentMethodInfo['networks'], id: string | null) =>
  networks?.find((n) => n.id === id)?.name ?? id ?? '';

/** Step 1: the network and the dollars; the reader's open requests to take up again. */
function CryptoRequest({
  info,
  onOpen,
}: {
  info: PaymentMethodInfo;
  onOpen: (topUp: CryptoTopUp) => void;
}) {
  const { t, i18n } = useTranslation('balance');
  const id = useId();
  const networks = useMemo(() => info.networks ?? [], [info.networks]);
  const limits = useMemo(() => ({ min: info.min, max: info.max }), [info.min, info.max]);
  const schema = useMemo(
    () =>
      z.object({
        network: z.string().check(z.minLength(1, { error: 'NETWORK_UNKNOWN' })),
        amount: amountFieldSchema(limits),
      }),
    [limits],
  );
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { network: networks[0]?.id ?? '', amount: '' },
  });
  const [request] = useRequestCryptoTopUpMutation();
  const open = useGetCryptoTopUpsQuery();
  const intent = useFormIntent();
  const { failure, alertRef, fail, clear } = useFormFailure();

  const onSubmit = async (data: z.output<typeof schema>) => {
    const body = { network: data.network, amount: formatCents(data.amount) };
    const idempotencyKey = intent.start(body);
    if (!idempotencyKey) return;
    clear();
    try {
      const result = await request({ body, idempotencyKey }).unwrap();
      intent.succeeded();
      onOpen(result);
    } catch (error) {
      intent.failed(error);
      fail(error, { fields: REQUEST_FIELDS, setError, setFocus });
    }
  };

  const pending = open.data?.data ?? [];
  return (
    <div className={styles.section}>
      <form className={styles.form} noValidate onSubmit={handleSubmit(onSubmit)}>
        {failure ? (
          <FormAlert ref={alertRef} key={failure.serial} tone="error">
            {failure.text}
          </FormAlert>
        ) : null}
        <p className={styles.note}>{t('crypto.requestLead')}</p>
        <SelectField
          id={`${id}-network`}
          label={t('crypto.network')}
          className={styles.network}
          error={fieldErrorText(t, errors.network?.message)}
          {...register('network')}
        >
          {networks.map((option) => (
            <option key={option.id} value={option.id}>
              {option.name}
            </option>
          ))}
        </SelectField>
        <AmountField
          label={t('amount.label')}
          limits={limits}
          error={errors.amount?.message}
          {...register('amount')}
        />
        <div className={styles.actions}>
          <Button type="submit" loading={isSubmitting} loadingText={t('crypto.requesting')}>
            {t('crypto.request')}
          </Button>
        </div>
      </form>
      {pending.length > 0 ? (
        <section className={styles.openTopUps} aria-labelledby={`${id}-open`}>
          <h3 id={`${id}-open`} className={styles.label}>
            {t('crypto.open.title')}
          </h3>
          <ul className={styles.openList}>
            {pending.map((topUp) => (
              <li key={topUp.payment.id} className={styles.openItem}>
                <span>
                  {t('crypto.open.item', {
                    amount: payableText(topUp.payment, i18n.language),
                    network: networkNameOf(networks, topUp.payment.network),
                    until: formatDateTime(topUp.payment.expires_at ?? '', i18n.language),
                  })}
                </span>
                <Button variant="secondary" onClick={() => onOpen(topUp)}>
                  {t('crypto.open.continue')}
                </Button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

/** "50.37 USDT", or the dollars when no asset amount was fixed. */
function payableText(payment: Payment, language: string): string {
  return payment.pay_amount && payment.pay_asset
    ? `${payment.pay_amount} ${payment.pay_asset}`
    : formatMoney(payment.amount, language);
}

/** Steps 2 and 3: the exact amount, the address and its QR code; then the report. */
function CryptoPay({
  topUp,
  networks,
  onSent,
  onAnother,
}: {
  topUp: CryptoTopUp;
  networks: NonNullable<PaymentMethodInfo['networks']>;
  onSent: (payment: Payment) => void;
  onAnother: () => void;
}) {
  const { t, i18n } = useTranslation('balance');
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const { payment, address } = topUp;
  const networkName = networkNameOf(networks, payment.network);
  const dollars = formatMoney(payment.amount, i18n.language);
  const exact = payment.pay_amount && payment.pay_asset ? payment.pay_amount : null;
  const copyMessages = (copied: string) => ({ copied, failed: t('crypto.copyFailed') });

  return (
    <div className={styles.form}>
      <div className={styles.cryptoGrid}>
        <div className={styles.step}>
          <h3 ref={headingRef} tabIndex={-1} className={styles.stepTitle}>
            <span className={styles.stepNumber} aria-hidden="true">
              1
            </span>
            {t('crypto.stepSend')}
          </h3>
          <div className={styles.payable}>
            <p className={styles.label}>{t('crypto.sendExactly')}</p>
            <p className={styles.payableAmount} data-testid="crypto-payable">
              {exact ? `${exact} ${payment.pay_asset}` : dollars}
            </p>
            <CopyButton
              text={exact ?? formatCents(Math.round(payment.amount * 100))}
              label={t('crypto.copyAmount')}
              messages={copyMessages(t('crypto.amountCopied'))}
            />
            <p className={styles.payableNote}>
              {exact
                ? t('crypto.exactNote', { amount: `${exact} ${payment.pay_asset}`, dollars })
                : t('crypto.dollarsNote', { dollars, network: networkName })}
            </p>
          </div>
          <div className={styles.address}>
            <p className={styles.label}>{t('crypto.sendTo', { network: networkName })}</p>
            <div className={styles.qrBox}>
              <img
                className={styles.qr}
                src={topUp.wallet_qr_url}
                alt={
                  topUp.payment_uri
                    ? t('crypto.qrPayment', { network: networkName })
                    : t('crypto.qr', { network: networkName })
                }
                width="168"
                height="168"
              />
            </div>
            <code className={styles.addressText} data-testid="crypto-address">
              {address}
            </code>
            <CopyButton
              text={address}
              label={t('crypto.copy')}
              messages={copyMessages(t('crypto.copied'))}
            />
          </div>
          <p className={styles.note}>
            {t('crypto.until', {
              until: formatDateTime(payment.expires_at ?? '', i18n.language),
            })}
          </p>
        </div>
        <CryptoReport payment={payment} onSent={onSent} onAnother={onAnother} />
      </div>
    </div>
  );
}

const reportSchema = z.object({
  wallet: cryptoPaymentRequestSchema.shape.wallet,
  txid: cryptoPaymentRequestSchema.shape.txid,
});

/** Step 3: the payer's wallet and the TXID of the payment. */
function CryptoReport({
  payment,
  onSent,
  onAnother,
}: {
  payment: Payment;
  onSent: (payment: Payment) => void;
  onAnother: () => void;
}) {
  const { t } = useTranslation('balance');
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof reportSchema>, unknown, z.output<typeof reportSchema>>({
    resolver: zodResolver(reportSchema),
    defaultValues: { wallet: '', txid: '' },
  });
  const [submit] = useSubmitCryptoPaymentMutation();
  const intent = useFormIntent();
  const { failure, alertRef, fail, clear } = useFormFailure();
  /** The request's 24 hours are over: a payment sent late goes to support, with its TXID. */
  const [expired, setExpired] = useState(false);

  const onSubmit = async (data: z.output<typeof reportSchema>) => {
    const body = { payment_id: payment.id, ...data };
    const idempotencyKey = intent.start(body);
    if (!idempotencyKey) return;
    clear();
    setExpired(false);
    try {
      const result = await submit({ body, idempotencyKey }).unwrap();
      intent.succeeded();
      onSent(result.payment);
    } catch (error) {
      intent.failed(error);
      fail(error, { fields: REPORT_FIELDS, setError, setFocus });
      setExpired(hasErrorCode(error, 'CRYPTO_REQUEST_EXPIRED'));
    }
  };

  return (
    <form className={styles.step} noValidate onSubmit={handleSubmit(onSubmit)}>
      <h3 className={styles.stepTitle}>
        <span className={styles.stepNumber} aria-hidden="true">
          2
        </span>
        {t('crypto.stepReport')}
      </h3>
      {failure ? (
        <FormAlert ref={alertRef} key={failure.serial} tone="error">
          {failure.text}
          {expired ? (
            <>
              {' '}
              <Link to="/support?new=billing">{t('crypto.expiredSupport')}</Link>
            </>
          ) : null}
        </FormAlert>
      ) : null}
      <TextField
        label={t('crypto.wallet')}
        hint={t('crypto.walletHint')}
        {...CHAIN_TEXT}
        error={fieldErrorText(t, errors.wallet?.message)}
        {...register('wallet')}
      />
      <TextField
        label={t('crypto.txid')}
        hint={t('crypto.txidHint')}
        {...CHAIN_TEXT}
        error={fieldErrorText(t, errors.txid?.message)}
        {...register('txid')}
      />
      <div className={styles.actions}>
        <Button type="submit" loading={isSubmitting} loadingText={t('crypto.submitting')}>
          {t('crypto.submit')}
        </Button>
        <Button variant="ghost" onClick={onAnother}>
          {t('crypto.newRequest')}
        </Button>
      </div>
    </form>
  );
}

function CryptoSent({ payment, onAnother }: { payment: Payment; onAnother: () => void }) {
  const { t, i18n } = useTranslation('balance');
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const paid = payment.status === 'paid';
  return (
    <div className={styles.result}>
      <h3 ref={headingRef} tabIndex={-1} className={styles.resultTitle}>
        {paid ? t('crypto.sent.paidTitle') : t('crypto.sent.title')}
      </h3>
      <OperationStatusBadge status={payment.status} />
      <p>
        {t(paid ? 'crypto.sent.paidText' : 'crypto.sent.text', {
          amount: formatMoney(payment.amount, i18n.language),
        })}
      </p>
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
