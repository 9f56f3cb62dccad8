import { zodResolver } from '@hookform/resolvers/zod';
import { failOperationRequestSchema, REASON_MAX } from '@tradehost/contracts';
import { useState, type ReactNode, type RefObject } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button, FormAlert } from '../../../shared/ui/form';
import { codeOf, useOperatorError } from '../lib/use-operator-error';
import { Dialog, DialogActions } from '../../../shared/ui/dialog/dialog';
import { TextAreaField } from './fields';
import styles from './operator.module.css';

/** A decision's call: null when it settled (done, or moved on), else the failure to show. */
export type RunDecision = () => Promise<{ error: unknown } | null>;

/**
 * A row's decisions, each opening its dialog: the first in the primary colour (Confirm,
 * Approve, Retry), the others in the danger colour (Reject, Mark failed); `context` names the
 * row for screen readers.
 */
export function DecisionButtons<K extends string>({
  context,
  decisions,
  onStart,
}: {
  context: string;
  decisions: readonly (readonly [kind: K, label: string])[];
  onStart: (kind: K, opener: HTMLElement) => void;
}) {
  return (
    <span className={styles.rowActions}>
      {decisions.map(([kind, label], index) => (
        <Button
          key={kind}
          variant={index === 0 ? 'primary' : 'secondary'}
          className={index === 0 ? undefined : styles.danger}
          onClick={(event) => onStart(kind, event.currentTarget)}
        >
          {label} <span className="visually-hidden">{context}</span>
        </Button>
      ))}
    </span>
  );
}

interface DecisionDialogBase {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** The question, read out with the title. */
  description: string;
  /** The subject's facts under the question. */
  children?: ReactNode;
  submitLabel: string;
  submittingLabel: string;
  /** A destructive decision: the button in the danger colour. */
  danger?: boolean;
  returnFocusTo: RefObject<HTMLElement | null>;
}

/**
 * "Credit …?" / "Approve …?" / "Retry …?": Cancel (where the focus starts) and the decision's
 * button; `run` is decide() (decision.ts) with the decision's call.
 */
export function ConfirmDecisionDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  submitLabel,
  submittingLabel,
  danger = false,
  returnFocusTo,
  run,
}: DecisionDialogBase & { run: RunDecision }) {
  const { t } = useTranslation('operator');
  const errorText = useOperatorError();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async () => {
    setFailure(null);
    setBusy(true);
    const failed = await run();
    setBusy(false);
    if (failed) setFailure(errorText.request(failed.error));
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      closeLabel={t('dialog.close')}
      busy={busy}
      returnFocusTo={returnFocusTo}
    >
      {children}
      {failure ? <FormAlert tone="error">{failure}</FormAlert> : null}
      <DialogActions>
        <Button variant="secondary" disabled={busy} onClick={() => onOpenChange(false)}>
          {t('dialog.cancel')}
        </Button>
        <Button
          variant={danger ? 'secondary' : 'primary'}
          className={danger ? styles.danger : undefined}
          loading={busy}
          loadingText={submittingLabel}
          onClick={() => void submit()}
        >
          {submitLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * "Reject …?" / "Fail …?" with a reason (required, at most 500 characters: the contracts' rule,
 * the same for every decision); the reason's refusals of the server land on the field, anything
 * else above the buttons.
 */
export function ReasonDecisionDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  submitLabel,
  submittingLabel,
  danger = true,
  returnFocusTo,
  reasonLabel,
  reasonHint,
  run,
}: DecisionDialogBase & {
  reasonLabel: string;
  /** Who sees the reason; the length is added after it. */
  reasonHint: string;
  run: (reason: string) => Promise<{ error: unknown } | null>;
}) {
  const { t } = useTranslation('operator');
  const errorText = useOperatorError();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    control,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<{ reason: string }>({
    resolver: zodResolver(failOperationRequestSchema),
    defaultValues: { reason: '' },
  });
  const reason = useWatch({ control, name: 'reason' }) ?? '';

  const onValid = async ({ reason }: { reason: string }) => {
    setFailure(null);
    const failed = await run(reason);
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
      title={title}
      description={description}
      closeLabel={t('dialog.close')}
      busy={isSubmitting}
      returnFocusTo={returnFocusTo}
    >
      <form className={styles.section} noValidate onSubmit={handleSubmit(onValid)}>
        {children}
        <TextAreaField
          label={reasonLabel}
          hint={t('dialog.reasonHint', {
            hint: reasonHint,
            length: reason.length,
            max: REASON_MAX,
          })}
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
            variant={danger ? 'secondary' : 'primary'}
            className={danger ? styles.danger : undefined}
            loading={isSubmitting}
            loadingText={submittingLabel}
          >
            {submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
