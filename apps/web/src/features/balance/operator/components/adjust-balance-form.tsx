import { zodResolver } from '@hookform/resolvers/zod';
import {
  adjustmentRequestSchema,
  formatCents,
  LEDGER_ACCOUNTS,
  REASON_MAX,
  type AdminUser,
  type LedgerAccount,
} from '@tradehost/contracts';
import { useId, useRef, useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../auth/api/use-current-user';
import { useFormIntent } from '../../../../shared/lib/form-intent';
import {
  Button,
  FormAlert,
  SelectField,
  TextAreaField,
  TextField,
} from '../../../../shared/ui/form';
import { notify } from '../../../../shared/ui/toast/notify';
import { isAsked, useAdjustBalanceMutation } from '../api/balance-operator-api';
import { toCents, useFormatters } from '../../../operator/lib/format';
import { codeOf, useOperatorError } from '../../../operator/lib/use-operator-error';
import { SignedAmount } from '../../../operator/components/amount';
import { Dialog, DialogActions } from '../../../../shared/ui/dialog/dialog';
import styles from '../../../operator/components/operator.module.css';

/** What the form holds: the amount as typed ("-25", "+10.5", "12,50"). */
interface AdjustFormValues {
  account: LedgerAccount;
  amount: string;
  reason: string;
}

/** What the contract's schema makes of it: the amount in signed cents. */
interface Adjustment {
  account: LedgerAccount;
  amount: number;
  reason: string;
}

const FIELDS = ['account', 'amount', 'reason'] as const;
type Field = (typeof FIELDS)[number];

const resolver = zodResolver(adjustmentRequestSchema) as unknown as Resolver<
  AdjustFormValues,
  unknown,
  Adjustment
>;

/** The field a refusal belongs to, by its code. */
const FIELD_OF_CODE: Record<string, Field> = {
  AMOUNT_INVALID: 'amount',
  INSUFFICIENT_FUNDS: 'amount',
  REASON_REQUIRED: 'reason',
  REASON_TOO_LONG: 'reason',
};

/**
 * A manual correction of one of the user's balances: the account, a signed amount (a minus
 * debits) and the reason. Submitting shows the change and the resulting balance in a dialog;
 * only its Confirm sends it (with one Idempotency-Key per filled-in form).
 */
export function AdjustBalanceForm({ user }: { user: AdminUser }) {
  const { t } = useTranslation('operator');
  const titleId = useId();
  const me = useCurrentUser();
  if (me?.id !== user.id) return <AdjustForm user={user} />;
  // the operator's own account: another operator adjusts it (the API refuses it too)
  return (
    <section className={styles.panel} aria-labelledby={titleId}>
      <h3 id={titleId} className={styles.sectionTitle}>
        {t('adjust.title')}
      </h3>
      <p className={styles.lead}>{t('adjust.own')}</p>
    </section>
  );
}

function AdjustForm({ user }: { user: AdminUser }) {
  const { t } = useTranslation('operator');
  const format = useFormatters();
  const errorText = useOperatorError();
  const intent = useFormIntent();
  const titleId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  /** Where the focus goes when the dialog closes: the submit button, or a field it refused. */
  const returnFocusRef = useRef<HTMLElement | null>(null);
  const [adjust, { isLoading }] = useAdjustBalanceMutation();
  const [pending, setPending] = useState<Adjustment | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const {
    register,
    handleSubmit,
    control,
    reset,
    setError,
    setFocus,
    formState: { errors },
  } = useForm<AdjustFormValues, unknown, Adjustment>({
    resolver,
    defaultValues: { account: 'balance', amount: '', reason: '' },
  });
  const reason = useWatch({ control, name: 'reason' }) ?? '';

  const current = (account: LedgerAccount) =>
    toCents(account === 'balance' ? user.balance : user.balance_partner);

  const review = (adjustment: Adjustment) => {
    if (current(adjustment.account) + adjustment.amount < 0) {
      setError('amount', { type: 'balance', message: 'INSUFFICIENT_FUNDS' });
      setFocus('amount');
      return;
    }
    setFailure(null);
    setPending(adjustment);
    returnFocusRef.current = formRef.current?.querySelector('[type="submit"]') ?? null;
    setDialogOpen(true);
  };

  const send = async (adjustment: Adjustment) => {
    setFailure(null);
    const body = {
      account: adjustment.account,
      amount: formatCents(adjustment.amount),
      reason: adjustment.reason,
    };
    try {
      const outcome = await adjust({
        userId: user.id,
        ...body,
        idempotencyKey: intent.keyFor(`adjust:${user.id}:${JSON.stringify(body)}`),
      }).unwrap();
      intent.succeeded();
      // above OPERATOR_APPROVAL_ABOVE it waits for a second operator (Approvals)
      notify(
        'success',
        t(isAsked(outcome) ? 'adjust.asked' : 'adjust.done', { email: user.email }),
      );
      setDialogOpen(false);
      reset({ account: adjustment.account, amount: '', reason: '' });
    } catch (error) {
      intent.failed(error);
      const serverFields = (error as { errors?: Record<string, string[]> }).errors ?? {};
      const code = codeOf(error);
      const onField = FIELDS.find((field) => serverFields[field]?.[0]);
      const field = onField ?? (code ? FIELD_OF_CODE[code] : undefined);
      if (!field) {
        setFailure(errorText.request(error));
        return;
      }
      setError(field, { type: 'server', message: serverFields[field]?.[0] ?? code });
      const element = formRef.current?.elements.namedItem(field);
      if (element instanceof HTMLElement) returnFocusRef.current = element;
      setDialogOpen(false);
    }
  };

  const accountOptions = LEDGER_ACCOUNTS.map((value) => ({
    value,
    label: t(`accounts.${value}`),
  }));

  const before = pending ? current(pending.account) : 0;
  const after = pending ? before + pending.amount : 0;
  const question = pending
    ? t(pending.amount > 0 ? 'adjust.creditQuestion' : 'adjust.debitQuestion', {
        amount: format.money(Math.abs(pending.amount) / 100),
        account: t(`accounts.${pending.account}`),
        email: user.email,
      })
    : '';

  return (
    <section className={styles.panel} aria-labelledby={titleId}>
      <div>
        <h3 id={titleId} className={styles.sectionTitle}>
          {t('adjust.title')}
        </h3>
        <p className={styles.lead}>{t('adjust.lead')}</p>
      </div>
      <form
        ref={formRef}
        className={styles.form}
        noValidate
        onSubmit={(event) => void handleSubmit(review)(event)}
      >
        <SelectField
          label={t('adjust.account')}
          options={accountOptions}
          error={errorText.field(errors.account?.message)}
          {...register('account')}
        />
        <TextField
          label={t('adjust.amount')}
          hint={t('adjust.amountHint')}
          inputMode="decimal"
          autoComplete="off"
          required
          error={errorText.field(errors.amount?.message)}
          {...register('amount')}
        />
        <TextAreaField
          className={styles.wide}
          label={t('adjust.reason')}
          hint={t('adjust.reasonHint', { length: reason.length, max: REASON_MAX })}
          required
          rows={3}
          error={errorText.field(errors.reason?.message)}
          {...register('reason')}
        />
        <div className={styles.formActions}>
          <Button type="submit">{t('adjust.review')}</Button>
        </div>
      </form>
      {pending ? (
        <Dialog
          open={dialogOpen}
          onOpenChange={setDialogOpen}
          title={t('adjust.confirmTitle')}
          description={question}
          closeLabel={t('dialog.close')}
          busy={isLoading}
          returnFocusTo={returnFocusRef}
        >
          <dl className={styles.facts}>
            <dt>{t('adjust.user')}</dt>
            <dd>
              {user.name} ({user.email})
            </dd>
            <dt>{t('adjust.account')}</dt>
            <dd>{t(`accounts.${pending.account}`)}</dd>
            <dt>{t('adjust.current')}</dt>
            <dd>{format.money(before / 100)}</dd>
            <dt>{t('adjust.change')}</dt>
            <dd>
              <SignedAmount amount={pending.amount / 100} />
            </dd>
            <dt>{t('adjust.resulting')}</dt>
            <dd>
              <strong>{format.money(after / 100)}</strong>
            </dd>
            <dt>{t('adjust.reason')}</dt>
            <dd>{pending.reason}</dd>
          </dl>
          {failure ? <FormAlert tone="error">{failure}</FormAlert> : null}
          <DialogActions>
            <Button variant="secondary" disabled={isLoading} onClick={() => setDialogOpen(false)}>
              {t('adjust.back')}
            </Button>
            <Button
              loading={isLoading}
              loadingText={t('adjust.submitting')}
              onClick={() => void send(pending)}
            >
              {t('adjust.submit')}
            </Button>
          </DialogActions>
        </Dialog>
      ) : null}
    </section>
  );
}
