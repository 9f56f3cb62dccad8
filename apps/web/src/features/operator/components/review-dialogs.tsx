import { zodResolver } from '@hookform/resolvers/zod';
import {
  REASON_MAX,
  rejectPaymentRequestSchema,
  type AdminPayment,
  type RejectPaymentRequest,
} from '@tradehost/contracts';
import { useState, type RefObject } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { FormIntent } from '../../../shared/lib/form-intent';
import { Button, FormAlert } from '../../../shared/ui/form';
import { notify } from '../../../shared/ui/toast/notify';
import { useConfirmPaymentMutation, useRejectPaymentMutation } from '../api/operator-api';
import { useFormatters } from '../lib/format';
import { codeOf, useOperatorError } from '../lib/use-operator-error';
import { Dialog, DialogActions } from './dialog';
import { TextAreaField } from './fields';
import styles from './operator.module.css';

/** How a review ended: decided here, or somebody else had decided first (409). */
export type ReviewOutcome = 'decided' | 'already-reviewed';

interface ReviewDialogProps {
  payment: AdminPayment;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSettled: (outcome: ReviewOutcome) => void;
  intent: FormIntent;
  returnFocusTo: RefObject<HTMLElement | null>;
}

function PaymentFacts({ payment }: { payment: AdminPayment }) {
  const { t } = useTranslation('operator');
  const format = useFormatters();
  return (
    <dl className={styles.facts}>
      <dt>{t('queue.columns.network')}</dt>
      <dd>{payment.network ?? '—'}</dd>
      <dt>{t('queue.columns.wallet')}</dt>
      <dd className={styles.mono}>{payment.wallet ?? '—'}</dd>
      <dt>{t('queue.columns.txid')}</dt>
      <dd className={styles.mono}>{payment.txid ?? '—'}</dd>
      <dt>{t('queue.columns.date')}</dt>
      <dd>{format.dateTime(payment.created_at)}</dd>
    </dl>
  );
}

/**
 * Sends a decision under the intent's key for `fingerprint`. Success (with its toast) and a 409
 * from someone else's decision settle the dialog; any other failure is handed back to be shown.
 */
async function decide(
  { intent, onSettled }: Pick<ReviewDialogProps, 'intent' | 'onSettled'>,
  fingerprint: string,
  send: (idempotencyKey: string) => Promise<unknown>,
  successText: string,
): Promise<{ error: unknown } | null> {
  try {
    await send(intent.keyFor(fingerprint));
    intent.succeeded();
    notify('success', successText);
    onSettled('decided');
    return null;
  } catch (error) {
    intent.failed(error);
    if (codeOf(error) !== 'PAYMENT_ALREADY_REVIEWED') return { error };
    onSettled('already-reviewed');
    return null;
  }
}

/** "Credit $X to user@…?" and the payment's details; Confirm credits the balance. */
export function ConfirmPaymentDialog({
  payment,
  open,
  onOpenChange,
  onSettled,
  intent,
  returnFocusTo,
}: ReviewDialogProps) {
  const { t } = useTranslation('operator');
  const format = useFormatters();
  const errorText = useOperatorError();
  const [confirm, { isLoading }] = useConfirmPaymentMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const amount = format.money(payment.amount);

  const submit = async () => {
    setFailure(null);
    const failed = await decide(
      { intent, onSettled },
      `confirm:${payment.id}`,
      (idempotencyKey) => confirm({ id: payment.id, idempotencyKey }).unwrap(),
      t('queue.confirmed', { amount, email: payment.user.email }),
    );
    if (failed) setFailure(errorText.request(failed.error));
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('queue.confirmDialog.title')}
      description={t('queue.confirmDialog.question', { amount, email: payment.user.email })}
      closeLabel={t('dialog.close')}
      busy={isLoading}
      returnFocusTo={returnFocusTo}
    >
      <PaymentFacts payment={payment} />
      {failure ? <FormAlert tone="error">{failure}</FormAlert> : null}
      <DialogActions>
        <Button variant="secondary" disabled={isLoading} onClick={() => onOpenChange(false)}>
          {t('dialog.cancel')}
        </Button>
        <Button
          loading={isLoading}
          loadingText={t('queue.confirmDialog.submitting')}
          onClick={() => void submit()}
        >
          {t('queue.confirmDialog.submit', { amount })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The reason (required, at most 500 characters, shown to the user); Reject refuses the payment. */
export function RejectPaymentDialog({
  payment,
  open,
  onOpenChange,
  onSettled,
  intent,
  returnFocusTo,
}: ReviewDialogProps) {
  const { t } = useTranslation('operator');
  const format = useFormatters();
  const errorText = useOperatorError();
  const [reject] = useRejectPaymentMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    control,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<RejectPaymentRequest>({
    resolver: zodResolver(rejectPaymentRequestSchema),
    defaultValues: { reason: '' },
  });
  const reason = useWatch({ control, name: 'reason' }) ?? '';
  const amount = format.money(payment.amount);

  const onValid = async ({ reason }: RejectPaymentRequest) => {
    setFailure(null);
    const failed = await decide(
      { intent, onSettled },
      `reject:${payment.id}:${reason}`,
      (idempotencyKey) => reject({ id: payment.id, reason, idempotencyKey }).unwrap(),
      t('queue.rejected', { amount, email: payment.user.email }),
    );
    if (!failed) return;
    const code = codeOf(failed.error);
    const fieldError =
      code === 'REASON_REQUIRED' || code === 'REASON_TOO_LONG'
        ? code
        : (failed.error as { errors?: Record<string, string[]> }).errors?.reason?.[0];
    if (fieldError) {
      setError('reason', { type: 'server', message: fieldError });
      setFocus('reason');
    } else {
      setFailure(errorText.request(failed.error));
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('queue.rejectDialog.title')}
      description={t('queue.rejectDialog.question', { amount, email: payment.user.email })}
      closeLabel={t('dialog.close')}
      busy={isSubmitting}
      returnFocusTo={returnFocusTo}
    >
      <form className={styles.section} noValidate onSubmit={handleSubmit(onValid)}>
        <TextAreaField
          label={t('queue.rejectDialog.reason')}
          hint={t('queue.rejectDialog.reasonHint', { length: reason.length, max: REASON_MAX })}
          error={errorText.field(errors.reason?.message)}
          required
          rows={4}
          {...register('reason')}
        />
        {failure ? <FormAlert tone="error">{failure}</FormAlert> : null}
        <DialogActions>
          <Button variant="secondary" disabled={isSubmitting} onClick={() => onOpenChange(false)}>
            {t('dialog.cancel')}
          </Button>
          <Button
            type="submit"
            className={styles.danger}
            variant="secondary"
            loading={isSubmitting}
            loadingText={t('queue.rejectDialog.submitting')}
          >
            {t('queue.rejectDialog.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
